package operator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
	"github.com/semantic-router/semantic-router/internal/testtool"
)

// The operations guides are followed with kubectl against the test API
// server: the install manifests apply, the operator's service account has
// exactly the access it needs, and the guide's status commands print what
// the guide says they print.

// kubectl runs kubectl against the test API server as an admin and returns
// stdout; a failure stops the test with stderr.
func kubectl(t *testing.T, stdin []byte, args ...string) string {
	t.Helper()
	out, err := kubectlErr(t, stdin, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v", strings.Join(args, " "), err)
	}
	return out
}

func kubectlErr(t *testing.T, stdin []byte, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("kubectl", append([]string{"--kubeconfig", adminKubeconfig(t)}, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), &kubectlError{err: err, stderr: stderr.String()}
	}
	return stdout.String(), nil
}

type kubectlError struct {
	err    error
	stderr string
}

func (e *kubectlError) Error() string { return e.err.Error() + ": " + strings.TrimSpace(e.stderr) }

var adminKubeconfigPath string

// adminKubeconfig writes (once) a kubeconfig for a system:masters user.
func adminKubeconfig(t *testing.T) string {
	t.Helper()
	if adminKubeconfigPath != "" {
		return adminKubeconfigPath
	}
	user, err := testEnv.AddUser(envtest.User{Name: "guide-admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		t.Fatalf("adding user: %v", err)
	}
	kc, err := user.KubeConfig()
	if err != nil {
		t.Fatalf("kubeconfig: %v", err)
	}
	dir, err := os.MkdirTemp("", "sr-guide-")
	if err != nil {
		t.Fatal(err)
	}
	adminKubeconfigPath = filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(adminKubeconfigPath, kc, 0o600); err != nil {
		t.Fatal(err)
	}
	return adminKubeconfigPath
}

// requireKubectl skips a test locally when kubectl is missing, and fails it
// under CI=true: the CI machines ship kubectl, so a missing one is a
// broken machine, not a reason to test less.
func requireKubectl(t *testing.T) {
	t.Helper()
	requireAPIServer(t)
	testtool.Path(t, "kubectl", "see README.md, Development")
}

func TestInstallManifests(t *testing.T) {
	requireKubectl(t)
	manifests := kubectl(t, nil, "kustomize", filepath.Join("..", "..", "config", "default"))
	for _, want := range []string{
		"kind: Namespace\nmetadata:\n  labels:",
		"name: semantic-router-operator-system",
		"name: semantic-router-operator-controller-manager\n  namespace: semantic-router-operator-system\nspec:",
		"- -leader-elect",
	} {
		if !strings.Contains(manifests, want) {
			t.Errorf("kustomize build config/default lacks %q", want)
		}
	}
	kubectl(t, []byte(manifests), "apply", "--server-side", "--force-conflicts", "-f", "-")
	kubectl(t, nil, "get", "-n", "semantic-router-operator-system", "deployment/semantic-router-operator-controller-manager")

	sa := "system:serviceaccount:semantic-router-operator-system:semantic-router-operator-controller-manager"
	tests := []struct {
		verb, resource, ns string
		want               string
	}{
		{"create", "deployments.apps", "default", "yes"},
		{"patch", "semanticrouters.vllm.ai/status", "default", "yes"},
		{"update", "semanticrouters.vllm.ai/finalizers", "default", "yes"},
		{"delete", "horizontalpodautoscalers.autoscaling", "default", "yes"},
		{"create", "events.events.k8s.io", "default", "yes"},
		{"update", "leases.coordination.k8s.io", "semantic-router-operator-system", "yes"},
		{"update", "leases.coordination.k8s.io", "default", "no"},
		{"create", "events", "semantic-router-operator-system", "yes"}, // the leader election's events on its Lease
		{"create", "events", "default", "no"},
		{"get", "secrets", "default", "no"},
		{"delete", "semanticrouters.vllm.ai", "default", "no"},
		{"create", "pods", "default", "no"},
		{"list", "gateways.gateway.networking.k8s.io", "default", "no"},
		{"get", "gateways.gateway.networking.k8s.io", "default", "yes"},
		{"create", "httproutes.gateway.networking.k8s.io", "default", "yes"},
		{"create", "servicemonitors.monitoring.coreos.com", "default", "yes"},
		{"watch", "inferenceservices.serving.kserve.io", "default", "yes"},
		{"update", "inferenceservices.serving.kserve.io", "default", "no"},
		{"list", "storageclasses.storage.k8s.io", "default", "yes"},
		{"create", "storageclasses.storage.k8s.io", "default", "no"},
		{"get", "secrets", "models", "no"},
		{"watch", "pods", "default", "yes"},
		{"delete", "pods", "default", "no"},
	}
	for _, tt := range tests {
		got, _ := kubectlErr(t, nil, "auth", "can-i", tt.verb, tt.resource, "-n", tt.ns, "--as", sa)
		if strings.TrimSpace(got) != tt.want {
			t.Errorf("can-i %s %s -n %s = %q, want %q", tt.verb, tt.resource, tt.ns, strings.TrimSpace(got), tt.want)
		}
	}
}

func TestGuideStatusCommands(t *testing.T) {
	requireKubectl(t)
	ns := newNamespace(t)
	createSampleBackends(t, ns)
	kubectl(t, nil, "apply", "-n", ns, "-k", filepath.Join("..", "..", "config", "samples"))
	const name = "semantic-router"
	sr := waitReconciled(t, ns, name)
	setDeploymentReady(t, ns, name, 1, 1)
	waitPhase(t, ns, name, "Running", 1, 1)

	wide := kubectl(t, nil, "get", "semanticrouter", name, "-n", ns, "-o", "wide")
	lines := strings.Split(strings.TrimSpace(wide), "\n")
	if got := strings.Fields(lines[0]); strings.Join(got, " ") != "NAME REPLICAS READY PHASE GATEWAY OBSERVED AGE" {
		t.Errorf("-o wide header = %q", lines[0])
	}
	if got := strings.Fields(lines[1]); len(got) != 7 || strings.Join(got[:6], " ") != "semantic-router 1 1 Running standalone "+itoa(sr.Generation) {
		t.Errorf("-o wide row = %q", lines[1])
	}
	short := kubectl(t, nil, "get", "sr", "-n", ns)
	if h := strings.Fields(strings.SplitN(short, "\n", 2)[0]); strings.Join(h, " ") != "NAME REPLICAS READY PHASE AGE" {
		t.Errorf("kubectl get sr header = %q", h)
	}

	conds := kubectl(t, nil, "get", "semanticrouter", name, "-n", ns, "-o", "jsonpath={.status.conditions}")
	var parsed []metav1.Condition
	if err := json.Unmarshal([]byte(conds), &parsed); err != nil {
		t.Fatalf("conditions jsonpath output %q: %v", conds, err)
	}
	byType := map[string]metav1.Condition{}
	for _, c := range parsed {
		byType[c.Type] = c
		if c.ObservedGeneration != sr.Generation {
			t.Errorf("condition %s observedGeneration = %d, want %d", c.Type, c.ObservedGeneration, sr.Generation)
		}
	}
	if c := byType["Available"]; c.Status != "True" {
		t.Errorf("Available = %+v", c)
	}
	if c := byType["BackendsResolved"]; c.Status != "True" || c.Message != "1/1 backends resolved" {
		t.Errorf("BackendsResolved = %+v", c)
	}
	if _, ok := byType["Progressing"]; ok || len(parsed) != 3 {
		t.Errorf("conditions = %+v, want Available, BackendsResolved and StorageReady", parsed)
	}

	desc := kubectl(t, nil, "describe", "semanticrouter", name, "-n", ns)
	flat := strings.Join(strings.Fields(desc), " ")
	for _, want := range []string{"Observed Generation: " + itoa(sr.Generation), "Gateway Mode: standalone", "Phase: Running",
		"Reason: AllReplicasReady Status: True Type: Available", "Ready Replicas: 1"} {
		if !strings.Contains(flat, want) {
			t.Errorf("describe lacks %q:\n%s", want, desc)
		}
	}

	owned := kubectl(t, nil, "get", "deployment,pod,service,configmap,pvc", "-n", ns, "-l", "app.kubernetes.io/instance="+name, "-o", "name")
	for _, want := range []string{"deployment.apps/semantic-router", "service/semantic-router", "configmap/semantic-router-config", "persistentvolumeclaim/semantic-router-data"} {
		if !strings.Contains(owned, want+"\n") {
			t.Errorf("label query lacks %s:\n%s", want, owned)
		}
	}
	if strings.Contains(owned, "semantic-router-hpa-config") {
		t.Errorf("label query for %s matched another router:\n%s", name, owned)
	}

	// The autoscaling sample from the guide gets its HPA; the gateway
	// sample runs in gateway-integration mode behind the Gateway it names.
	waitReconciled(t, ns, "semantic-router-hpa")
	kubectl(t, nil, "get", "hpa", "semantic-router-hpa", "-n", ns)
	gw := waitReconciled(t, ns, "semantic-router-gateway")
	if gw.Status.GatewayMode != "gateway-integration" {
		t.Errorf("gateway sample gatewayMode = %q", gw.Status.GatewayMode)
	}
	// The guide's discovery checks show the backends the operator found.
	kubectl(t, nil, "get", "service,endpoints", "-n", ns)
	kubectl(t, nil, "describe", "inferenceservice", "llama-3-8b", "-n", ns)
}

// TestRolloutRestartRollsOnce: `kubectl rollout restart` adds
// kubectl.kubernetes.io/restartedAt to the pod template; the next reconcile
// keeps it, so the Deployment rolls once, and a reconcile with nothing to
// change sends no Update at all.
func TestRolloutRestartRollsOnce(t *testing.T) {
	requireKubectl(t)
	ns := newNamespace(t)
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{})
	waitReconciled(t, ns, "router")
	dep := &appsv1.Deployment{ObjectMeta: key(ns, "router")}
	waitFor(t, dep, nil)
	if got := updates.inNamespace(ns); len(got) != 0 {
		t.Errorf("updates while creating = %v, want none", got)
	}

	kubectl(t, nil, "rollout", "restart", "deployment/router", "-n", ns)
	waitFor(t, dep, func() error {
		if dep.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] == "" {
			return fmt.Errorf("not restarted yet")
		}
		return nil
	})
	restarted := dep.Generation
	restartedAt := dep.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"]

	// A spec change that does not touch the pods: the reconcile after it
	// has seen the restart and must leave the Deployment alone.
	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) {
		sr.Spec.Service.Annotations = map[string]string{"example.com/team": "ml"}
	})
	waitReconciled(t, ns, "router")
	waitFor(t, &corev1.Service{ObjectMeta: key(ns, "router")}, nil)
	waitFor(t, dep, nil)
	if dep.Generation != restarted || dep.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] != restartedAt {
		t.Errorf("deployment generation %d (restart made %d), restartedAt %q (was %q): it rolled again",
			dep.Generation, restarted, dep.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"], restartedAt)
	}
	want := map[string]int{fmt.Sprintf("*v1.Service %s/router", ns): 1}
	if got := updates.inNamespace(ns); !maps.Equal(got, want) {
		t.Errorf("updates = %v, want only the Service's %v", got, want)
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestWaitForUpdate: the guide's wait for an update passes only once the
// generation was applied. A refused update leaves Available (and
// observedGeneration) at the generation the pods run, so `kubectl wait
// --for=condition=Available` times out instead of passing on old pods.
func TestWaitForUpdate(t *testing.T) {
	requireKubectl(t)
	ns := newNamespace(t)
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Config: modelConfig(`"routing":{"virtual_model":"a"}`)})
	first := waitReconciled(t, ns, "router")
	setDeploymentReady(t, ns, "router", 1, 1)
	waitPhase(t, ns, "router", vllmv1alpha1.PhaseRunning, 1, 1)
	waitAvailable := []string{"wait", "-n", ns, "sr/router", "--for=condition=Available", "--timeout=2s"}
	waitObserved := func(gen int64) []string {
		return []string{"wait", "-n", ns, "sr/router", "--for=jsonpath={.status.observedGeneration}=" + itoa(gen), "--timeout=2s"}
	}
	kubectl(t, nil, waitAvailable...)

	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) {
		sr.Spec.Config = modelConfig(`"routing":{"default_model":"llama-3-70b-instruct"}`)
	})
	refused := waitDegraded(t, ns, "router", reasonInvalidConfig)
	for _, typ := range []string{vllmv1alpha1.ConditionAvailable} { // Progressing is absent: all replicas are ready
		c := meta.FindStatusCondition(refused.Status.Conditions, typ)
		if c == nil || c.ObservedGeneration != first.Generation {
			t.Errorf("%s after a refused generation %d = %+v, want observedGeneration %d", typ, refused.Generation, c, first.Generation)
		}
	}
	if _, err := kubectlErr(t, nil, waitAvailable...); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("kubectl wait --for=condition=Available on a refused update: %v, want timed out", err)
	}
	if _, err := kubectlErr(t, nil, waitObserved(refused.Generation)...); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("kubectl wait for observedGeneration %d on a refused update: %v, want timed out", refused.Generation, err)
	}

	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) {
		sr.Spec.Config = modelConfig(`"routing":{"virtual_model":"b"}`)
	})
	fixed := waitReconciled(t, ns, "router")
	setDeploymentReady(t, ns, "router", 1, 1)
	kubectl(t, nil, waitObserved(fixed.Generation)...)
	kubectl(t, nil, waitAvailable...)
}

// TestZeroReplicasShown: with no pod ready, REPLICAS and READY print 0 and
// .status.readyReplicas reads 0, not nothing.
func TestZeroReplicasShown(t *testing.T) {
	requireKubectl(t)
	ns := newNamespace(t)
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{})
	waitReconciled(t, ns, "router")
	if got := kubectl(t, nil, "get", "sr", "router", "-n", ns, "-o", "jsonpath={.status.replicas}/{.status.readyReplicas}"); got != "0/0" {
		t.Errorf("replicas/readyReplicas = %q, want 0/0", got)
	}
	lines := strings.Split(strings.TrimSpace(kubectl(t, nil, "get", "sr", "router", "-n", ns)), "\n")
	if got := strings.Fields(lines[len(lines)-1]); len(got) < 4 || strings.Join(got[:4], " ") != "router 0 0 Pending" {
		t.Errorf("kubectl get sr row = %q, want router 0 0 Pending", lines[len(lines)-1])
	}
}
