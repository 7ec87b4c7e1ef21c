// Package operator_test runs the operator and the router together: a
// SemanticRouter on a real kube-apiserver, the ConfigMap the operator
// writes for it, and the router binary serving a chat completion from that
// ConfigMap through the model that backend discovery produced.
package operator_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/yaml"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
	"github.com/semantic-router/semantic-router/internal/logtest"
	"github.com/semantic-router/semantic-router/internal/operator"
	"github.com/semantic-router/semantic-router/internal/testtool"
)

const waitTimeout = 60 * time.Second

// requireAssets skips locally and fails under CI=true when the API server
// binaries are missing.
func requireAssets(t *testing.T) {
	t.Helper()
	if os.Getenv("KUBEBUILDER_ASSETS") != "" {
		return
	}
	testtool.Missing(t, "KUBEBUILDER_ASSETS is unset: run `make envtest-assets` and set KUBEBUILDER_ASSETS=$(hack/envtest.sh --print)")
}

// fakeVLLM is an OpenAI-compatible model server: it answers chat
// completions for one model and checks the bearer key, as vLLM started
// with --api-key does.
func fakeVLLM(t *testing.T, model, key string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":{"message":"invalid api key","type":"invalid_request_error","param":null,"code":null}}`)
			return
		}
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"error":{"message":"not found","type":"invalid_request_error","param":null,"code":null}}`)
			return
		}
		var req struct {
			Model string `json:"model"`
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil || req.Model != model {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"error":{"message":"the model %q does not exist","type":"NotFoundError","param":null,"code":404}}`, req.Model)
			return
		}
		fmt.Fprintf(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":%q,`+
			`"choices":[{"index":0,"message":{"role":"assistant","content":"served by the discovered backend"},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":5,"completion_tokens":5,"total_tokens":10}}`, model)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestOperatorConfigServesChat: a SemanticRouter with a service backend →
// the operator discovers the Service and writes the ConfigMap → the router
// binary, started on that config.yaml with only the host of each base_url
// pointed at a local fake vLLM and the pod's environment as the kubelet
// would fill it from the Secret, answers a chat completion through the
// discovered model.
func TestOperatorConfigServesChat(t *testing.T) {
	requireAssets(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k8s := startOperator(ctx, t)

	const ns, apiKey = "models", "vllm-key-e2e"
	for _, obj := range []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}},
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "vllm-qwen"},
			Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 8000}}}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "vllm"}, StringData: map[string]string{"api-key": apiKey}},
		&vllmv1alpha1.SemanticRouter{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "router"}, Spec: vllmv1alpha1.SemanticRouterSpec{
			Persistence: vllmv1alpha1.PersistenceSpec{Enabled: ptr.To(false)},
			// Every listener off its default port, so that the router must be told where
			// the Service sends traffic.
			Service: vllmv1alpha1.ServiceSpec{
				HTTP:    vllmv1alpha1.PortSpec{Port: 80, TargetPort: freePort(t)},
				API:     vllmv1alpha1.PortSpec{TargetPort: freePort(t)},
				Metrics: vllmv1alpha1.PortSpec{TargetPort: freePort(t)},
			},
			VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{{
				Name: "qwen", Model: "qwen3-8b",
				APIKeySecretRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "vllm"}, Key: "api-key"},
				Backend: vllmv1alpha1.BackendSpec{Type: vllmv1alpha1.BackendService,
					Service: &vllmv1alpha1.ServiceBackend{Name: "vllm-qwen", Port: 8000}},
			}},
		}},
	} {
		if err := k8s.Create(ctx, obj); err != nil {
			t.Fatalf("creating %T %s: %v", obj, obj.GetName(), err)
		}
	}

	// What the operator wrote, as the pod would mount it.
	cm := &corev1.ConfigMap{}
	dep := &appsv1.Deployment{}
	svc := &corev1.Service{}
	waitUntil(t, "the operator's ConfigMap, Deployment and Service", func() error {
		if err := k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "router-config"}, cm); err != nil {
			return err
		}
		if err := k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "router"}, svc); err != nil {
			return err
		}
		return k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "router"}, dep)
	})
	rendered := cm.Data["config.yaml"]
	if !strings.Contains(rendered, "base_url: http://vllm-qwen.models.svc.cluster.local:8000/v1") ||
		!strings.Contains(rendered, "api_key: env.VLLM_QWEN_API_KEY") || strings.Contains(rendered, apiKey) {
		t.Fatalf("config.yaml:\n%s", rendered)
	}
	env := podEnv(ctx, t, k8s, ns, dep)

	backend := fakeVLLM(t, "qwen3-8b", apiKey)
	local, err := pointBaseURLsAt(rendered, backend.URL)
	if err != nil {
		t.Fatal(err)
	}
	// The router runs with the container's own arguments, on the loopback interface.
	startRouter(t, buildRouter(t), local, dep.Spec.Template.Spec.Containers[0].Args, env)
	target := map[string]string{} // Service port name → where it sends traffic
	for _, p := range svc.Spec.Ports {
		target[p.Name] = fmt.Sprintf("http://127.0.0.1:%d", p.TargetPort.IntValue())
	}

	body := `{"model":"qwen3-8b","messages":[{"role":"user","content":"hello"}]}`
	resp, err := http.Post(target["http"]+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	var out struct {
		Model   string `json:"model"`
		Choices []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(got, &out) != nil || len(out.Choices) != 1 ||
		out.Choices[0].Message.Content != "served by the discovered backend" {
		t.Fatalf("chat completion = %d %s", resp.StatusCode, got)
	}
	if sel := resp.Header.Get("x-vsr-selected-model"); sel != "qwen3-8b" {
		t.Errorf("x-vsr-selected-model = %q, want qwen3-8b", sel)
	}

	// The kubelet's probes and Prometheus reach the router where the pod says.
	c := dep.Spec.Template.Spec.Containers[0]
	for _, probe := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe} {
		url := fmt.Sprintf("http://127.0.0.1:%d%s", probe.HTTPGet.Port.IntValue(), probe.HTTPGet.Path)
		if code, _ := get(t, url); code != http.StatusOK {
			t.Errorf("probe GET %s = %d, want 200", url, code)
		}
	}
	// The request is counted once its answer has left, which the client may read first.
	var code int
	var text string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		code, text = get(t, target["metrics"]+"/metrics")
		if code == http.StatusOK && strings.Contains(text, "semantic_router_requests_total") || time.Now().After(deadline) {
			break
		}
	}
	if code != http.StatusOK || !strings.Contains(text, "semantic_router_requests_total") {
		t.Errorf("GET %s/metrics = %d without semantic_router_requests_total", target["metrics"], code)
	}
	if code, _ := get(t, target["api"]+"/health"); code != http.StatusOK {
		t.Errorf("GET %s/health = %d, want 200", target["api"], code)
	}
}

// freePort is a TCP port nothing listens on at the moment.
func freePort(t *testing.T) int32 {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return int32(l.Addr().(*net.TCPAddr).Port)
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Errorf("GET %s: %v", url, err)
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// startOperator starts envtest and a manager running the Reconciler, and
// returns a client for the test.
func startOperator(ctx context.Context, t *testing.T) client.Client {
	t.Helper()
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(vllmv1alpha1.AddToScheme(scheme))
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting envtest: %v", err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	logger := logr.FromSlogHandler(slog.DiscardHandler)
	ctrl.SetLogger(logger)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme, Logger: logger,
		Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0"})
	if err != nil {
		t.Fatal(err)
	}
	r := &operator.Reconciler{Client: mgr.GetClient(), Recorder: mgr.GetEventRecorder("semantic-router-operator")}
	if err := r.SetupWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
	k8s, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	return k8s
}

// podEnv resolves the router container's environment as the kubelet does:
// plain values as written, secretKeyRef from the Secret.
func podEnv(ctx context.Context, t *testing.T, k8s client.Client, ns string, dep *appsv1.Deployment) []string {
	t.Helper()
	var env []string
	for _, e := range dep.Spec.Template.Spec.Containers[0].Env {
		switch {
		case e.ValueFrom == nil:
			env = append(env, e.Name+"="+e.Value)
		case e.ValueFrom.SecretKeyRef != nil:
			s := &corev1.Secret{}
			if err := k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: e.ValueFrom.SecretKeyRef.Name}, s); err != nil {
				t.Fatal(err)
			}
			env = append(env, e.Name+"="+string(s.Data[e.ValueFrom.SecretKeyRef.Key]))
		default:
			t.Fatalf("env %s: unexpected source %+v", e.Name, e.ValueFrom)
		}
	}
	return env
}

// pointBaseURLsAt rewrites only the host of every base_url in config.yaml to
// target's: the cluster DNS name would not resolve here.
func pointBaseURLsAt(configYAML, target string) (string, error) {
	to, err := url.Parse(target)
	if err != nil {
		return "", err
	}
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(configYAML), &doc); err != nil {
		return "", err
	}
	var rewrite func(v any) error
	rewrite = func(v any) error {
		switch t := v.(type) {
		case map[string]any:
			for k, c := range t {
				if s, ok := c.(string); ok && k == "base_url" {
					u, err := url.Parse(s)
					if err != nil {
						return err
					}
					u.Host = to.Host
					t[k] = u.String()
					continue
				}
				if err := rewrite(c); err != nil {
					return err
				}
			}
		case []any:
			for _, c := range t {
				if err := rewrite(c); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := rewrite(doc); err != nil {
		return "", err
	}
	out, err := yaml.Marshal(doc)
	return string(out), err
}

// buildRouter builds the router binary into the test's temporary directory.
func buildRouter(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "semantic-router")
	cmd := exec.Command("go", "build", "-o", bin, "../../cmd/semantic-router")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("building the router: %v", err)
	}
	return bin
}

// startRouter runs the router as its container would: with args, the config file at
// their -config replaced by configYAML and every listener on the loopback interface
// instead of every interface. It returns once the router logs that it is ready.
func startRouter(t *testing.T, bin, configYAML string, args, env []string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(configYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	args = slices.Clone(args)
	for i, a := range args {
		switch {
		case i > 0 && args[i-1] == "-config":
			args[i] = path
		case a == "0.0.0.0" || strings.HasPrefix(a, "0.0.0.0:"):
			args[i] = "127.0.0.1" + strings.TrimPrefix(a, "0.0.0.0")
		}
	}
	logs := &logtest.Buffer{}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(40 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	waitUntil(t, "the router to be ready", func() error {
		select {
		case <-exited:
			t.Fatalf("router exited; logs:\n%s", logs)
		default:
		}
		sc := bufio.NewScanner(strings.NewReader(logs.String()))
		for sc.Scan() {
			var line struct{ Msg string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "ready" {
				return nil
			}
		}
		return fmt.Errorf("not ready; logs:\n%s", logs)
	})
}

// waitUntil polls cond until it returns nil or waitTimeout passes.
func waitUntil(t *testing.T, what string, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s: %v", what, err)
		}
		<-tick.C
	}
}
