# Semantic Router. `make test` is the whole test suite, the same command CI runs.

GO       ?= go
# Fuzz budgets are execution counts: a wall-clock -fuzztime races the coordinator's shutdown in
# Go 1.26 (go.dev/issue/75804) and fails a target that found nothing.
FUZZTIME ?= 50000x
FUZZ      = -run '^$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 100x
LINT      = $(GO) tool -modfile=tools/golangci-lint/go.mod golangci-lint
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   = -s -w -X main.version=$(VERSION)
# The race detector needs cgo, and cgo a C compiler: without one (go env CGO_ENABLED says 0)
# the tests run without it, except under CI=true, where that fails.
RACE     := $(if $(filter 1,$(shell $(GO) env CGO_ENABLED)),-race)

.PHONY: all run build test test-unit test-quality fuzz lint fmt bench bench-stages bench-faults clean

all: build

## run: start the router on its embedded demo configuration (8801, 8080, 9190)
run:
	$(GO) run ./cmd/semantic-router

## build: static binaries in bin/
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/semantic-router ./cmd/semantic-router

## test: every test with the race detector when a C compiler is there (the operator's against
## a real kube-apiserver and etcd, built once into the cache by envtest-assets), then a short
## run of each fuzz target.
## The onnx build tag compiles the ONNX Runtime embedder, tested against the library that
## hack/onnxruntime.sh fetches from npm into the cache (without npm those tests skip).
test: envtest-assets test-unit test-quality fuzz

test-unit:
	@test -n "$(RACE)" || { echo "no C compiler (go env CGO_ENABLED is 0): the tests run without -race"; test "$(CI)" != true; }
	@hack/onnxruntime.sh --optional >/dev/null
	KUBEBUILDER_ASSETS="$$(hack/envtest.sh --print)" ONNXRUNTIME_LIB="$$(hack/onnxruntime.sh --optional 2>/dev/null)" $(GO) test $(RACE) -timeout 25m -tags onnx -count=1 $$($(GO) list ./... | grep -v -e '/internal/operator' -e '/api/' -e '/cmd/semantic-router-operator' -e '/test/operator')
	KUBEBUILDER_ASSETS="$$(hack/envtest.sh --print)" $(GO) test $(RACE) -timeout 25m -count=1 $(OPERATOR_TEST_FLAGS) $(OPERATOR_PKGS)

## test-quality: the single-threaded checks of the signals' data and shortcuts, which -race
## only slows down (cross-validation, model training, shortcuts against their regexps)
test-quality:
	$(GO) test -count=1 -run '^(TestDomainCrossValidation|TestJailbreakModelIsTrainedFromTheTrainSplit|TestRuleStartsMatchAsTheRegexps|TestNameCuesMatchTheirRegexps|TestTypesInFindsEveryValueAtEveryCut)$$' -v ./internal/signal

## fuzz: run each fuzz target for FUZZTIME executions (default 50000x)
fuzz:
	$(GO) test ./internal/config $(FUZZ) -fuzz '^FuzzParse$$'
	$(GO) test ./internal/config $(FUZZ) -fuzz '^FuzzRedactURL$$'
	$(GO) test ./internal/config $(FUZZ) -fuzz '^FuzzRedactAddress$$'
	$(GO) test ./internal/openai $(FUZZ) -fuzz '^FuzzParseChatRequest$$'
	$(GO) test ./internal/openai $(FUZZ) -fuzz '^FuzzSSEReader$$'
	$(GO) test ./internal/openai $(FUZZ) -fuzz '^FuzzSSEReaderBuffered$$'
	$(GO) test ./internal/openai $(FUZZ) -fuzz '^FuzzIsObject$$'
	$(GO) test ./internal/openai $(FUZZ) -fuzz '^FuzzOneLine$$'
	$(GO) test -tags onnx ./internal/embed/onnx $(FUZZ) -fuzz '^FuzzTokenizer$$'
	$(GO) test -tags onnx ./internal/embed/onnx $(FUZZ) -fuzz '^FuzzBPE$$'
	$(GO) test ./internal/openai $(FUZZ) -fuzz '^FuzzBearerToken$$'
	$(GO) test ./internal/server $(FUZZ) -fuzz '^FuzzFramingScanner$$'
	$(GO) test ./internal/provider $(FUZZ) -fuzz '^FuzzUpstreamText$$'
	$(GO) test ./internal/provider/openaicompat $(FUZZ) -fuzz '^FuzzStream$$'
	$(GO) test ./internal/provider/bedrock $(FUZZ) -fuzz '^FuzzEventStream$$'
	$(GO) test ./internal/provider/bedrock $(FUZZ) -fuzz '^FuzzToConverse$$'
	$(GO) test ./internal/provider/vertex $(FUZZ) -fuzz '^FuzzSSE$$'
	$(GO) test ./internal/provider/vertex $(FUZZ) -fuzz '^FuzzToGemini$$'
	$(GO) test ./internal/router $(FUZZ) -fuzz '^FuzzWithoutUsage$$'
	$(GO) test ./internal/router $(FUZZ) -fuzz '^FuzzStreamText$$'
	$(GO) test ./internal/signal $(FUZZ) -fuzz '^FuzzObfuscationReaders$$'
	$(GO) test ./internal/signal $(FUZZ) -fuzz '^FuzzPIIDetect$$'
	$(GO) test ./internal/signal $(FUZZ) -fuzz '^FuzzCapitalisedRuns$$'
	$(GO) test ./internal/signal $(FUZZ) -fuzz '^FuzzShortcuts$$'
	$(GO) test ./internal/signal $(FUZZ) -fuzz '^FuzzNormalize$$'
	$(GO) test ./internal/signal $(FUZZ) -fuzz '^FuzzCollapsePlainASCII$$'
	$(GO) test ./internal/signal $(FUZZ) -fuzz '^FuzzIndexFoldASCII$$'
	$(GO) test ./internal/eval $(FUZZ) -fuzz '^FuzzReadRows$$'

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

## bench-stages: the benchmarks of each stage a request goes through (bench/cmd/stagebench),
## six runs each; BASE=<revision> runs the same at that revision too, the two builds
## alternated, and benchstat compares them (STAGEFLAGS=-h for the rest)
bench-stages:
	$(GO) run ./bench/cmd/stagebench $(if $(BASE),-base $(BASE)) $(STAGEFLAGS)

## bench-faults: 10,000 requests with 5 % injected backend failures and a fallback; zero
## client-visible errors and the fallback's added latency (docs/benchmarks.md)
bench-faults:
	$(GO) run ./bench/cmd/faultload -requests 10000 -failure-rate 0.05

clean:
	rm -rf bin

-include mk/*.mk
