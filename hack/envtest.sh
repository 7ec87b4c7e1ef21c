#!/usr/bin/env bash
# envtest.sh builds kube-apiserver and etcd for the operator's integration
# tests from source (Go module proxy only) into a cache keyed by the
# Kubernetes version, and prints the directory to use as KUBEBUILDER_ASSETS.
# A second run with both binaries present does nothing.
#
#   hack/envtest.sh            build if missing, print the asset directory
#   hack/envtest.sh --print    print the asset directory only
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mod="${root}/tools/envtest"
# The version comes from tools/envtest/go.mod so the cache key cannot drift
# from what is built.
k8s_version="$(awk '$1 == "k8s.io/kubernetes" && $2 ~ /^v/ {print $2; exit}' "${mod}/go.mod")"
etcd_version="$(awk '$1 == "go.etcd.io/etcd/server/v3" && $2 ~ /^v/ {print $2; exit}' "${mod}/go.mod")"
cache="${SR_CACHE:-${HOME}/.cache/semantic-router}"
dir="${cache}/envtest/${k8s_version#v}"

if [[ "${1:-}" == "--print" ]]; then
	echo "${dir}"
	exit 0
fi

if [[ -x "${dir}/kube-apiserver" && -x "${dir}/etcd" ]]; then
	echo "${dir}"
	exit 0
fi

mkdir -p "${dir}"
tmp="$(mktemp -d "${dir}/.build.XXXXXX")"
trap 'rm -rf "${tmp}"' EXIT

start=${SECONDS}
echo "envtest: building kube-apiserver ${k8s_version} and etcd ${etcd_version} into ${dir} (first run takes ~11 minutes on 2 cores)" >&2
(
	cd "${mod}"
	export GOFLAGS=-mod=mod CGO_ENABLED=0
	go build -trimpath -o "${tmp}/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
	# etcd's main package is the module root, so the binary would be named
	# "server"; envtest looks for "etcd".
	go build -trimpath -o "${tmp}/etcd" go.etcd.io/etcd/server/v3
)
# Move into place only after both built, so an interrupted build never
# leaves a half-filled cache that later runs would trust.
mv "${tmp}/etcd" "${dir}/etcd"
mv "${tmp}/kube-apiserver" "${dir}/kube-apiserver"
echo "envtest: built in $((SECONDS - start))s" >&2
echo "${dir}"
