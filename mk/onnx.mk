# ONNX Runtime for the onnx embedder (internal/embed/onnx). The root
# Makefile includes mk/*.mk.
#
#   make onnxruntime   fetch the shared library once into the cache (npm)
#                      and print its path; tests read it from ONNXRUNTIME_LIB
#   make test-onnx     the onnx embedder's tests against that library
#                      (-tags onnx compiles in the library loader)
#   make build-onnx    the router with the library loader: no cgo needed, but
#                      linked dynamically against glibc (not for a scratch image)

.PHONY: onnxruntime test-onnx build-onnx

onnxruntime:
	@hack/onnxruntime.sh

test-onnx: onnxruntime
	ONNXRUNTIME_LIB="$$(hack/onnxruntime.sh)" go test -tags onnx -race -count=1 ./internal/embed/onnx/...

build-onnx:
	CGO_ENABLED=0 go build -tags onnx -trimpath -ldflags '$(LDFLAGS)' -o bin/semantic-router-onnx ./cmd/semantic-router
