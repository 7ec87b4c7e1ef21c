# Semantic Router. `make test` is the whole test suite, the same command CI runs.

GO       ?= go
FUZZTIME ?= 10s
LINT      = $(GO) tool -modfile=tools/golangci-lint/go.mod golangci-lint
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   = -s -w -X main.version=$(VERSION)

.PHONY: all run build test test-unit fuzz lint fmt bench bench-faults clean

all: build

## run: start the router on its embedded demo configuration (8801, 8080, 9190)
run:
	$(GO) run ./cmd/semantic-router

## build: static binaries in bin/
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/semantic-router ./cmd/semantic-router

## test: every test with the race detector (the operator's against a real kube-apiserver and
## etcd, built once into the cache by envtest-assets), then a short run of each fuzz target
## The onnx build tag compiles the ONNX Runtime embedder, tested against the library that
## onnxruntime fetches from npm into the cache.
test: envtest-assets onnxruntime test-unit fuzz

test-unit:
	KUBEBUILDER_ASSETS="$$(hack/envtest.sh --print)" ONNXRUNTIME_LIB="$$(hack/onnxruntime.sh)" $(GO) test -race -tags onnx -count=1 $$($(GO) list ./... | grep -v -e '/internal/operator' -e '/api/' -e '/cmd/semantic-router-operator' -e '/test/operator')
	KUBEBUILDER_ASSETS="$$(hack/envtest.sh --print)" $(GO) test -race -count=1 $(OPERATOR_TEST_FLAGS) $(OPERATOR_PKGS)

## fuzz: run each fuzz target for FUZZTIME (default 10s)
fuzz:
	$(GO) test ./internal/config -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/config -run '^$$' -fuzz '^FuzzRedactURL$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/openai -run '^$$' -fuzz '^FuzzParseChatRequest$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/openai -run '^$$' -fuzz '^FuzzSSEReader$$' -fuzztime $(FUZZTIME)
	$(GO) test -tags onnx ./internal/embed/onnx -run '^$$' -fuzz '^FuzzTokenizer$$' -fuzztime $(FUZZTIME)
	$(GO) test -tags onnx ./internal/embed/onnx -run '^$$' -fuzz '^FuzzBPE$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/openai -run '^$$' -fuzz '^FuzzBearerToken$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/server -run '^$$' -fuzz '^FuzzFramingScanner$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/provider -run '^$$' -fuzz '^FuzzUpstreamText$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/provider/openaicompat -run '^$$' -fuzz '^FuzzStream$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/provider/bedrock -run '^$$' -fuzz '^FuzzEventStream$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/provider/bedrock -run '^$$' -fuzz '^FuzzToConverse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/provider/vertex -run '^$$' -fuzz '^FuzzSSE$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/provider/vertex -run '^$$' -fuzz '^FuzzToGemini$$' -fuzztime $(FUZZTIME)

## lint: gofmt, go vet and golangci-lint (pinned in tools/golangci-lint)
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: the files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) vet -tags onnx ./internal/embed/onnx
	$(LINT) run ./...
	$(LINT) run --build-tags onnx ./internal/embed/onnx/...

fmt:
	gofmt -w $$(git ls-files '*.go')

## bench: the router, a bare reverse proxy and a mock backend, each its own process, under a
## separate load generator; the report goes to docs/benchmarks.md (BENCHFLAGS=-quick: a short run)
bench:
	$(GO) run ./bench/cmd/loadbench $(BENCHFLAGS)

## bench-faults: 10,000 requests with 5 % injected backend failures and a fallback; zero
## client-visible errors and the fallback's added latency (docs/benchmarks.md)
bench-faults:
	$(GO) run ./bench/cmd/faultload -requests 10000 -failure-rate 0.05

clean:
	rm -rf bin

-include mk/*.mk
