package operator

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

func endpoint(i int, name, model string, weight int32, base string) resolvedEndpoint {
	return resolvedEndpoint{index: i, baseURL: base, spec: vllmv1alpha1.VLLMEndpointSpec{Name: name, Model: model, Weight: weight}}
}

func secretKey(name, key string) *corev1.SecretKeySelector {
	return &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: key}
}

// TestDiscoveredModelsRender renders discovered endpoints into config.yaml
// and checks the exact text the router will read (and that it parses).
func TestDiscoveredModelsRender(t *testing.T) {
	t.Parallel()
	keyed := endpoint(0, "qwen-a", "qwen3-8b", 1, "http://vllm-a.models.svc.cluster.local:8000/v1")
	keyed.spec.APIKeySecretRef = secretKey("vllm", "api-key")
	second := endpoint(1, "qwen-b", "qwen3-8b", 3, "http://vllm-b.models.svc.cluster.local:8000/v1")
	second.spec.APIKeySecretRef = secretKey("vllm", "api-key")
	kserve := endpoint(2, "llama", "llama-3", 1, "https://llama-predictor.ml.svc.cluster.local:8443/v1")
	kserve.spec.CABundle = &vllmv1alpha1.CABundleSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{
		LocalObjectReference: corev1.LocalObjectReference{Name: "kserve-ca"}, Key: "ca.crt"}}

	models, env, err := groupModels([]resolvedEndpoint{keyed, second, kserve})
	if err != nil {
		t.Fatal(err)
	}
	out, err := renderConfig(nil, models)
	if err != nil {
		t.Fatal(err)
	}
	want := `models:
- model_name: qwen3-8b
  provider:
    api_key: env.VLLM_QWEN_A_API_KEY
    endpoints:
    - base_url: http://vllm-a.models.svc.cluster.local:8000/v1
      weight: 1
    - base_url: http://vllm-b.models.svc.cluster.local:8000/v1
      weight: 3
    load_balancing: weighted
    model: qwen3-8b
    type: openai_compatible
- model_name: llama-3
  provider:
    base_url: https://llama-predictor.ml.svc.cluster.local:8443/v1
    ca_cert_pem: env.VLLM_LLAMA_CA_PEM
    model: llama-3
    type: openai_compatible
` + serverYAML
	if string(out) != want {
		t.Errorf("config.yaml =\n%s\nwant\n%s", out, want)
	}
	if len(env) != 2 || env[0].Name != "VLLM_QWEN_A_API_KEY" || env[0].ValueFrom.SecretKeyRef.Name != "vllm" || env[0].Value != "" ||
		env[1].Name != "VLLM_LLAMA_CA_PEM" || env[1].ValueFrom.ConfigMapKeyRef.Key != "ca.crt" {
		t.Errorf("env = %+v", env)
	}
}

func TestDiscoveredModelErrors(t *testing.T) {
	t.Parallel()
	a := endpoint(0, "a", "m", 1, "http://a.ns.svc.cluster.local:8000/v1")
	a.spec.APIKeySecretRef = secretKey("s1", "k")
	b := endpoint(1, "b", "m", 1, "http://b.ns.svc.cluster.local:8000/v1")
	b.spec.APIKeySecretRef = secretKey("s2", "k")
	if _, _, err := groupModels([]resolvedEndpoint{a, b}); err == nil || err.Error() !=
		`spec.vllmEndpoints[1] (b): apiKeySecretRef differs from spec.vllmEndpoints[0] (a), which serves the same model "m"; the router uses one key per model` {
		t.Errorf("err = %v", err)
	}

	models, _, err := groupModels([]resolvedEndpoint{endpoint(3, "qwen-svc", "qwen", 1, "http://q.ns.svc.cluster.local:8000/v1")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = renderConfig(modelConfig(""), models)
	if err == nil || err.Error() != `model "qwen" is defined twice: by spec.config.models[0] and by spec.vllmEndpoints[3] (qwen-svc)` {
		t.Errorf("clash err = %v", err)
	}
}

// TestDiscoveredModelsMergeWithConfig: models from spec.config come first,
// discovered ones follow, and the router accepts the whole.
func TestDiscoveredModelsMergeWithConfig(t *testing.T) {
	t.Parallel()
	models, _, err := groupModels([]resolvedEndpoint{endpoint(0, "small", "small", 1, "http://small.ns.svc.cluster.local:8000/v1")})
	if err != nil {
		t.Fatal(err)
	}
	out, err := renderConfig(&apiextensionsv1.JSON{Raw: []byte(`{"models":[` + qwenModel + `],"routing":{"default_model":"small"}}`)}, models)
	if err != nil {
		t.Fatal(err)
	}
	want := qwenYAML + "- model_name: small\n  provider:\n    base_url: http://small.ns.svc.cluster.local:8000/v1\n    model: small\n    type: openai_compatible\nrouting:\n  default_model: small\n" + serverYAML
	if string(out) != want {
		t.Errorf("config.yaml =\n%s\nwant\n%s", out, want)
	}
}
