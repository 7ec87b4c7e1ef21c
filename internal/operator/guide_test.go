package operator

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
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

func requireKubectl(t *testing.T) {
	t.Helper()
	requireAPIServer(t)
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("kubectl is not on PATH")
	}
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
		{"get", "secrets", "default", "no"},
		{"delete", "semanticrouters.vllm.ai", "default", "no"},
		{"create", "pods", "default", "no"},
		{"list", "gateways.gateway.networking.k8s.io", "default", "no"},
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
	for _, f := range []string{"vllm.ai_v1alpha1_semanticrouter.yaml", "vllm.ai_v1alpha1_semanticrouter_autoscaling.yaml", "vllm.ai_v1alpha1_semanticrouter_gateway.yaml"} {
		kubectl(t, nil, "apply", "-n", ns, "-f", filepath.Join("..", "..", "config", "samples", f))
	}
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
	if len(parsed) != 1 || parsed[0].Type != "Available" || parsed[0].Status != "True" || parsed[0].ObservedGeneration != sr.Generation {
		t.Errorf("conditions = %+v", parsed)
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

	// The autoscaling sample from the guide gets its HPA.
	kubectl(t, nil, "get", "hpa", "semantic-router-hpa", "-n", ns)

	// The gateway sample names gateway-system/inference-gateway: with the
	// Gateway API installed and no such Gateway, the reconcile says so;
	// once it exists the router runs in gateway-integration mode.
	installGatewayCRD(t)
	const gwSR = "semantic-router-gateway"
	updateSR(t, ns, gwSR, func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Args = []string{"-v"} })
	eventually(t, "Degraded for the missing gateway", func(ctx context.Context) (bool, error) {
		sr, err := getSR(ctx, ns, gwSR)
		if err != nil {
			return false, err
		}
		c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded)
		return c != nil && c.ObservedGeneration == sr.Generation &&
			c.Message == "spec.gateway.existingRef: gateway gateway-system/inference-gateway not found", nil
	})
	kubectl(t, nil, "create", "namespace", "gateway-system")
	kubectl(t, []byte("apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: inference-gateway\n  namespace: gateway-system\n"), "apply", "-f", "-")
	gw := waitReconciled(t, ns, gwSR)
	if gw.Status.GatewayMode != "gateway-integration" {
		t.Errorf("gateway sample gatewayMode = %q", gw.Status.GatewayMode)
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
