#!/usr/bin/env bash
# onnxruntime.sh fetches the ONNX Runtime shared library that the onnx
# embedder loads at run time, and prints its path (use it as
# ONNXRUNTIME_LIB). The library comes from the npm package onnxruntime-node,
# which ships a prebuilt libonnxruntime.so for linux x64 and arm64, so the
# only thing a fresh machine needs is npm. A second run with the library in
# the cache does nothing.
#
#   hack/onnxruntime.sh             fetch if missing, print the library path
#   hack/onnxruntime.sh --print     print the library path only
#   hack/onnxruntime.sh --optional  as the first, but without npm (and not under
#                                   CI=true) say so and print nothing: the tests
#                                   that need the library then skip
set -euo pipefail

# Pinned: the Go binding asks the library for C API version 24 or later
# (internal/embed/onnx/ort.go), which every release from 1.24 on serves.
version="1.30.0"
cache="${SR_CACHE:-${HOME}/.cache/semantic-router}"
dir="${cache}/onnxruntime/${version}"

case "$(uname -m)" in
x86_64 | amd64) arch=x64 ;;
aarch64 | arm64) arch=arm64 ;;
*)
	echo "onnxruntime: no prebuilt library for $(uname -m) in onnxruntime-node" >&2
	exit 1
	;;
esac
lib="${dir}/libonnxruntime.so.1"

if [[ "${1:-}" == "--print" || -f "${lib}" ]]; then
	echo "${lib}"
	exit 0
fi

if [[ "${1:-}" == "--optional" && "${CI:-}" != "true" ]] && ! command -v npm >/dev/null; then
	echo "onnxruntime: npm is not installed, so the ONNX embedder's tests that need the library are skipped" >&2
	exit 0
fi

mkdir -p "${dir}"
tmp="$(mktemp -d "${dir}/.fetch.XXXXXX")"
trap 'rm -rf "${tmp}"' EXIT

echo "onnxruntime: fetching onnxruntime-node@${version} with npm into ${dir}" >&2
# npm pack takes the package tarball alone: no dependencies and no install
# scripts (the package's own install script would try to download GPU
# builds from outside the registry).
(cd "${tmp}" && npm pack --silent "onnxruntime-node@${version}" >/dev/null)
tar -xzf "${tmp}"/onnxruntime-node-*.tgz -C "${tmp}" --wildcards "package/bin/napi-v*/linux/${arch}/libonnxruntime.so*"
found="$(find "${tmp}/package/bin" -path "*/linux/${arch}/libonnxruntime.so*" -type f | head -n 1)"
if [[ -z "${found}" ]]; then
	echo "onnxruntime: onnxruntime-node@${version} has no libonnxruntime.so for linux/${arch}" >&2
	exit 1
fi
# Move into place last, so an interrupted fetch never leaves a file that
# later runs would trust.
mv "${found}" "${lib}"
echo "${lib}"
