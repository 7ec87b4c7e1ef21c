# Operator targets. The root Makefile includes mk/*.mk.
#
#   make generate         regenerate deepcopy, CRD and RBAC (controller-gen)
#   make manifests-check  fail if generated files differ from what is committed
#   make envtest-assets   build kube-apiserver + etcd once into the cache
#   make test-operator    run operator tests against a real API server
#   make docker-operator  build the operator image (Dockerfile.operator)

SR_CACHE ?= $(HOME)/.cache/semantic-router
export SR_CACHE
CONTROLLER_GEN := $(CURDIR)/bin/controller-gen
OPERATOR_PKGS := ./internal/operator/... ./api/... ./cmd/semantic-router-operator/... ./test/operator/...
# Under CI the operator's tests run in a random order (the seed is printed),
# so a test that depends on another's leftovers fails there first.
OPERATOR_TEST_FLAGS := $(if $(filter true,$(CI)),-shuffle=on)

.PHONY: generate manifests-check envtest-assets test-operator build-operator docker-operator docker-router

# controller-gen is pinned by the tool directive in tools/go.mod.
$(CONTROLLER_GEN): tools/go.mod tools/go.sum
	cd tools && go build -o $(CONTROLLER_GEN) sigs.k8s.io/controller-tools/cmd/controller-gen

generate: $(CONTROLLER_GEN)
	$(CONTROLLER_GEN) object:headerFile=hack/boilerplate.go.txt paths=./api/...
	$(CONTROLLER_GEN) crd paths=./api/... output:crd:artifacts:config=config/crd/bases
	$(CONTROLLER_GEN) rbac:roleName=manager-role paths=./internal/operator/... output:rbac:artifacts:config=config/rbac

manifests-check: generate
	@if [ -n "$$(git status --porcelain -- api config)" ]; then \
		echo "generated files are stale; run 'make generate' and commit:"; \
		git status --porcelain -- api config; git --no-pager diff --stat -- api config; exit 1; \
	fi

envtest-assets:
	@hack/envtest.sh >/dev/null

test-operator: envtest-assets
	KUBEBUILDER_ASSETS="$$(hack/envtest.sh --print)" go test -count=1 $(OPERATOR_TEST_FLAGS) $(OPERATOR_PKGS)

build-operator:
	CGO_ENABLED=0 go build -trimpath -o bin/semantic-router-operator ./cmd/semantic-router-operator

docker-operator:
	docker build -f Dockerfile.operator -t semantic-router-operator:dev .

docker-router:
	docker build -f Dockerfile.router -t semantic-router:dev .
