package operator

import (
	"context"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
	"github.com/semantic-router/semantic-router/internal/config"
)

func serviceEndpoint(name, model, svc string, port, weight int32) vllmv1alpha1.VLLMEndpointSpec {
	return vllmv1alpha1.VLLMEndpointSpec{Name: name, Model: model, Weight: weight, Backend: vllmv1alpha1.BackendSpec{
		Type: vllmv1alpha1.BackendService, Service: &vllmv1alpha1.ServiceBackend{Name: svc, Port: port}}}
}

// waitBackends waits until BackendsResolved for the current generation has
// status and message, and returns the ConfigMap's config.yaml then.
func waitBackends(t *testing.T, ns, name string, status, message string) string {
	t.Helper()
	var cfg string
	eventually(t, "BackendsResolved "+status+": "+message, func(ctx context.Context) (bool, error) {
		sr, err := getSR(ctx, ns, name)
		if err != nil {
			return false, err
		}
		c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionBackendsResolved)
		if c == nil || string(c.Status) != status || c.Message != message {
			return false, fmt.Errorf("BackendsResolved = %+v", c)
		}
		cm := &corev1.ConfigMap{}
		if err := k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: configMapName(sr)}, cm); err != nil {
			return false, err
		}
		cfg = cm.Data[configKey]
		return true, nil
	})
	return cfg
}

// modelURLs parses config.yaml with the router's parser and returns each
// model's endpoints as "url*weight".
func modelURLs(t *testing.T, yaml string) map[string]string {
	t.Helper()
	cfg, err := config.Parse([]byte(yaml))
	if err != nil {
		t.Fatalf("the router refuses the ConfigMap:\n%s\n%v", yaml, err)
	}
	out := map[string]string{}
	for _, m := range cfg.Models {
		var eps []string
		for _, e := range m.Provider.EndpointList() {
			eps = append(eps, fmt.Sprintf("%s*%d", e.BaseURL, e.Weight))
		}
		out[m.Name] = strings.Join(eps, " ")
	}
	return out
}

// TestDiscovery resolves one backend of each type, skips a failing one while
// the others keep routing, and picks it up when it appears; a KServe
// backend that stops being Ready is skipped until it is Ready again.
func TestDiscovery(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	ctx := context.Background()
	createSampleBackends(t, ns)
	if err := k8sClient.Create(ctx, backendService(ns, "llama-stack-0", 9000, map[string]string{"app.kubernetes.io/name": "llama-stack"})); err != nil {
		t.Fatal(err)
	}
	keyed := serviceEndpoint("qwen-a", "qwen3-8b", "vllm-qwen", 8000, 1)
	keyed.APIKeySecretRef = secretKey("vllm", "api-key")
	second := serviceEndpoint("qwen-b", "qwen3-8b", "vllm-qwen-b", 8000, 3)
	second.APIKeySecretRef = secretKey("vllm", "api-key")
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{
		keyed, second,
		{Name: "llama", Model: "llama-3-8b", Backend: vllmv1alpha1.BackendSpec{Type: vllmv1alpha1.BackendKServe,
			KServe: &vllmv1alpha1.KServeBackend{InferenceServiceName: "llama-3-8b"}},
			CABundle: &vllmv1alpha1.CABundleSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: "kserve-ca"}, Key: "ca.crt"}}},
		{Name: "stack", Model: "llama-3-70b", BasePath: "/v1/openai/v1", Backend: vllmv1alpha1.BackendSpec{Type: vllmv1alpha1.BackendLlamaStack,
			LlamaStack: &vllmv1alpha1.LlamaStackBackend{DiscoveryLabels: map[string]string{"app.kubernetes.io/name": "llama-stack"}}}},
	}})

	// qwen-b's Service does not exist: it is skipped, the rest is served.
	yaml := waitBackends(t, ns, "router", "False",
		fmt.Sprintf("3/4 backends resolved; skipped: qwen-b: service %s/vllm-qwen-b not found", ns))
	want := map[string]string{
		"qwen3-8b":    "http://vllm-qwen." + ns + ".svc.cluster.local:8000/v1*1",
		"llama-3-8b":  "https://llama-3-8b-predictor." + ns + ".svc.cluster.local:8443/v1*1",
		"llama-3-70b": "http://llama-stack." + ns + ".svc.cluster.local:8321/v1/openai/v1*1",
	}
	if got := modelURLs(t, yaml); !mapsEqual(got, want) {
		t.Errorf("models = %v, want %v", got, want)
	}
	for _, ref := range []string{"api_key: env.VLLM_QWEN_A_API_KEY", "ca_cert_pem: env.VLLM_LLAMA_CA_PEM"} {
		if !strings.Contains(yaml, ref) {
			t.Errorf("config.yaml lacks %q:\n%s", ref, yaml)
		}
	}
	sr := waitReconciled(t, ns, "router")
	if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c != nil {
		t.Errorf("Degraded = %+v with some backends healthy", c)
	}
	ev := waitEvent(t, ns, "router", reasonBackendDiscoveryFailed)
	if ev.Type != corev1.EventTypeWarning || ev.Note != fmt.Sprintf("endpoint qwen-b skipped: service %s/vllm-qwen-b not found", ns) {
		t.Errorf("event = %s %q", ev.Type, ev.Note)
	}
	ev = waitEvent(t, ns, "router", reasonSeveralBackendsMatched)
	if want := fmt.Sprintf("endpoint stack: 2 services in %s match app.kubernetes.io/name=llama-stack (llama-stack, llama-stack-0); using llama-stack", ns); ev.Note != want {
		t.Errorf("event note = %q, want %q", ev.Note, want)
	}
	waitLogged(t, "Several services match a llamastack endpoint; the first by name is used: narrow its discoveryLabels to choose",
		"endpoint=stack", "namespace="+ns, "services=\"[llama-stack llama-stack-0]\"", "using=llama-stack")
	dep := &appsv1.Deployment{ObjectMeta: key(ns, "router")}
	waitFor(t, dep, func() error {
		for _, e := range dep.Spec.Template.Spec.Containers[0].Env {
			if e.Name == "VLLM_QWEN_A_API_KEY" && e.Value == "" && e.ValueFrom.SecretKeyRef.Name == "vllm" && e.ValueFrom.SecretKeyRef.Key == "api-key" {
				return nil
			}
		}
		return fmt.Errorf("env = %+v", dep.Spec.Template.Spec.Containers[0].Env)
	})

	// The missing Service appears: the watch re-discovers, and the two
	// endpoints of qwen3-8b become one model, balanced by weight.
	if err := k8sClient.Create(ctx, backendService(ns, "vllm-qwen-b", 8000, nil)); err != nil {
		t.Fatal(err)
	}
	yaml = waitBackends(t, ns, "router", "True", "4/4 backends resolved")
	want["qwen3-8b"] = "http://vllm-qwen." + ns + ".svc.cluster.local:8000/v1*1 http://vllm-qwen-b." + ns + ".svc.cluster.local:8000/v1*3"
	if got := modelURLs(t, yaml); !mapsEqual(got, want) {
		t.Errorf("models = %v, want %v", got, want)
	}

	// KServe: not Ready -> skipped with KServe's reason; Ready -> back.
	setInferenceServiceReady(t, ns, "llama-3-8b", "False")
	waitBackends(t, ns, "router", "False", fmt.Sprintf(
		"3/4 backends resolved; skipped: llama: inferenceservice %s/llama-3-8b is not Ready: Ready=False (PredictorNotReady): predictor pods are not ready", ns))
	setInferenceServiceReady(t, ns, "llama-3-8b", "True")
	waitBackends(t, ns, "router", "True", "4/4 backends resolved")

	// A Service that stops exposing the port is skipped.
	svc := &corev1.Service{}
	if err := k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "vllm-qwen-b"}, svc); err != nil {
		t.Fatal(err)
	}
	svc.Spec.Ports[0].Port = 9000
	if err := k8sClient.Update(ctx, svc); err != nil {
		t.Fatal(err)
	}
	waitBackends(t, ns, "router", "False", fmt.Sprintf(
		"3/4 backends resolved; skipped: qwen-b: service %s/vllm-qwen-b does not expose port 8000 (it exposes: 9000)", ns))
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestNoBackendResolved: when nothing resolves nothing rolls out; the
// conditions say so until the backend appears.
func TestNoBackendResolved(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{
		serviceEndpoint("qwen", "qwen3-8b", "vllm-qwen", 8000, 1)}})
	sr := waitDegraded(t, ns, "router", reasonNoBackendResolved)
	want := fmt.Sprintf("no backend resolved (qwen: service %s/vllm-qwen not found) and spec.config defines no models: "+
		"nothing is rolled out, and no router runs until this is fixed: no config was ever written", ns)
	if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c.Message != want {
		t.Errorf("Degraded = %q, want %q", c.Message, want)
	}
	if got := conditionStatus(sr, vllmv1alpha1.ConditionBackendsResolved); got != fmt.Sprintf("False/NoBackendResolved@%d", sr.Generation) {
		t.Errorf("BackendsResolved = %s", got)
	}
	requireAbsent(t, &corev1.ConfigMap{}, ns, "router-config")
	requireAbsent(t, &appsv1.Deployment{}, ns, "router")

	// Retries and a new generation with the same failures announce nothing new.
	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Replicas = ptr.To(int32(3)) })
	waitDegraded(t, ns, "router", reasonNoBackendResolved)
	for _, reason := range []string{reasonNoBackendResolved, reasonBackendDiscoveryFailed} {
		var n int32
		for _, e := range namespaceEvents(t, ns).Items {
			if e.Reason == reason {
				n++
				if e.Series != nil {
					n += e.Series.Count - 1
				}
			}
		}
		if n != 1 {
			t.Errorf("%d %s events, want 1", n, reason)
		}
	}

	backend := backendService(ns, "vllm-qwen", 8000, nil)
	if err := k8sClient.Create(context.Background(), backend); err != nil {
		t.Fatal(err)
	}
	waitReconciled(t, ns, "router")
	waitFor(t, &appsv1.Deployment{ObjectMeta: key(ns, "router")}, nil)

	// Once a config was written, it is what keeps serving.
	if err := k8sClient.Delete(context.Background(), backend); err != nil {
		t.Fatal(err)
	}
	updateSR(t, ns, "router", func(sr *vllmv1alpha1.SemanticRouter) { sr.Spec.Replicas = ptr.To(int32(2)) })
	sr = waitDegraded(t, ns, "router", reasonNoBackendResolved)
	want = fmt.Sprintf("no backend resolved (qwen: service %s/vllm-qwen not found) and spec.config defines no models: "+
		"nothing is rolled out, the previous ConfigMap keeps serving", ns)
	if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c.Message != want {
		t.Errorf("Degraded = %q, want %q", c.Message, want)
	}
}

// TestKServeAPINotInstalled: on a cluster without KServe the backend is
// skipped with that reason; the models in spec.config still serve.
func TestKServeAPINotInstalled(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	createBareSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Config: modelConfig(""), VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{
		{Name: "llama", Model: "llama-3-8b", Backend: vllmv1alpha1.BackendSpec{Type: vllmv1alpha1.BackendKServe,
			KServe: &vllmv1alpha1.KServeBackend{InferenceServiceName: "llama-3-8b"}}}}})
	yaml := waitBackends(t, ns, "router", "False",
		"0/1 backends resolved; skipped: llama: the KServe API (serving.kserve.io/v1beta1 InferenceService) is not installed")
	if got := modelURLs(t, yaml); len(got) != 1 || got["qwen"] == "" {
		t.Errorf("models = %v, want qwen from spec.config", got)
	}
}

// TestModelNameClash: a discovered model named like one in spec.config is
// a spec error naming both.
func TestModelNameClash(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	if err := k8sClient.Create(context.Background(), backendService(ns, "vllm-qwen", 8000, nil)); err != nil {
		t.Fatal(err)
	}
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{
		Config:        &apiextensionsv1.JSON{Raw: []byte(`{"models":[` + qwenModel + `]}`)},
		VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{serviceEndpoint("qwen-svc", "qwen", "vllm-qwen", 8000, 1)},
	})
	sr := waitDegraded(t, ns, "router", reasonInvalidConfig)
	want := `configmap router-config not updated: model "qwen" is defined twice: by spec.config.models[0] and by spec.vllmEndpoints[0] (qwen-svc)`
	if c := meta.FindStatusCondition(sr.Status.Conditions, vllmv1alpha1.ConditionDegraded); c.Message != want {
		t.Errorf("Degraded = %q, want %q", c.Message, want)
	}
	requireAbsent(t, &corev1.ConfigMap{}, ns, "router-config")
}

// TestKServePredictorPort: a Ready InferenceService whose predictor Service
// lacks the port the base_url names is skipped, as a Service backend
// without its port is.
func TestKServePredictorPort(t *testing.T) {
	requireAPIServer(t)
	ns := newNamespace(t)
	if err := k8sClient.Create(context.Background(), backendService(ns, "llama-3-8b-predictor", 80, nil)); err != nil {
		t.Fatal(err)
	}
	createInferenceService(t, ns, "llama-3-8b", "True")
	createSR(t, ns, "router", vllmv1alpha1.SemanticRouterSpec{Config: modelConfig(""), VLLMEndpoints: []vllmv1alpha1.VLLMEndpointSpec{
		{Name: "llama", Model: "llama-3-8b", Backend: vllmv1alpha1.BackendSpec{Type: vllmv1alpha1.BackendKServe,
			KServe: &vllmv1alpha1.KServeBackend{InferenceServiceName: "llama-3-8b"}}}}})
	waitBackends(t, ns, "router", "False", fmt.Sprintf("0/1 backends resolved; skipped: llama: inferenceservice %s/llama-3-8b is Ready "+
		"but its predictor service llama-3-8b-predictor does not expose port 8443, which the router calls over HTTPS (it exposes: 80)", ns))
}
