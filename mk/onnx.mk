# ONNX Runtime for the onnx embedder (internal/embed/onnx). The root
# Makefile includes mk/*.mk.
#
#   make onnxruntime   fetch the shared library once into the cache (npm)
#                      and print its path; tests read it from ONNXRUNTIME_LIB
#   make test-onnx     the onnx embedder's tests against that library
#                      (-tags onnx compiles in the library loader)
#   make build-onnx    the router with the library loader: no cgo needed, but
#                      linked dynamically against glibc (not for a scratch image)
#   make docker-router-onnx  the router image with ONNX Runtime and the C
#                      runtime it needs, on scratch (Dockerfile.router-onnx)
#   make test-onnx-image     check that image's file list against ldd

.PHONY: onnxruntime test-onnx build-onnx docker-router-onnx test-onnx-image

onnxruntime:
	@hack/onnxruntime.sh

test-onnx: onnxruntime
	ONNXRUNTIME_LIB="$$(hack/onnxruntime.sh)" go test -tags onnx -race -count=1 ./internal/embed/onnx/...

build-onnx:
	CGO_ENABLED=0 go build -tags onnx -trimpath -ldflags '$(LDFLAGS)' -o bin/semantic-router-onnx ./cmd/semantic-router

docker-router-onnx:
	docker build -f Dockerfile.router-onnx -t semantic-router:onnx-dev .

test-onnx-image: onnxruntime
	ONNXRUNTIME_LIB="$$(hack/onnxruntime.sh)" go test -count=1 ./test/onnximage/
