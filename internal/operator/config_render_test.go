package operator

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/semantic-router/semantic-router/internal/config"
)

func TestRenderConfig(t *testing.T) {
	tests := []struct {
		name    string
		in      string // JSON; "" means a nil config
		want    string
		wantErr string
	}{
		{name: "nil config", in: "", want: "{}\n"},
		{name: "null config", in: "null", want: "{}\n"},
		{name: "keys sorted, big ints exact", in: `{"b":1,"a":{"id":12345678901234567890}}`,
			want: "a:\n  id: 12345678901234567890\nb: 1\n"},
		{name: "references pass", in: `{"providers":[{"api_key":"env.OPENAI_API_KEY"},{"token":"file:/run/secrets/t"},{"password":""}]}`,
			want: "providers:\n- api_key: env.OPENAI_API_KEY\n- token: file:/run/secrets/t\n- password: \"\"\n"},
		{name: "max_tokens is not a credential", in: `{"max_tokens":512,"tokenizer":"x"}`, want: "max_tokens: 512\ntokenizer: x\n"},
		{name: "plaintext api key", in: `{"providers":[{"name":"a","api_key":"sk-123"}]}`,
			wantErr: "spec.config.providers[0].api_key: plaintext credential; use an env.VAR or file:/path reference"},
		{name: "every plaintext credential listed, sorted",
			in: `{"z":{"clientSecret":"s","HF_TOKEN":"t"},"redis":{"password":123},"a":{"aws-secret-access-key":"k"}}`,
			wantErr: "spec.config.a.aws-secret-access-key: plaintext credential; use an env.VAR or file:/path reference\n" +
				"spec.config.redis.password: plaintext credential; use an env.VAR or file:/path reference\n" +
				"spec.config.z.HF_TOKEN: plaintext credential; use an env.VAR or file:/path reference\n" +
				"spec.config.z.clientSecret: plaintext credential; use an env.VAR or file:/path reference"},
		{name: "env without dot is not a reference", in: `{"api_key":"envOPENAI"}`,
			wantErr: "spec.config.api_key: plaintext credential; use an env.VAR or file:/path reference"},
		{name: "relative file is not a reference", in: `{"api_key":"file:key.txt"}`,
			wantErr: "spec.config.api_key: plaintext credential; use an env.VAR or file:/path reference"},
		{name: "tracing defaults", in: `{"observability":{"tracing":{"enabled":true}}}`,
			want: "observability:\n  tracing:\n    enabled: true\n    exporter:\n      endpoint: jaeger:4317\n      insecure: true\n      type: otlp\n" +
				"    provider: opentelemetry\n    sampling:\n      type: always_on\n"},
		{name: "tracing keeps user values and the rate as a string",
			in: `{"observability":{"tracing":{"provider":"zipkin","exporter":{"endpoint":"otel:4317","insecure":false},"sampling":{"type":"ratio","rate":0.1}}}}`,
			want: "observability:\n  tracing:\n    exporter:\n      endpoint: otel:4317\n      insecure: false\n      type: otlp\n" +
				"    provider: zipkin\n    sampling:\n      rate: \"0.1\"\n      type: ratio\n"},
		{name: "no observability, no defaults", in: `{"default_model":"m"}`, want: "default_model: m\n"},
		{name: "not an object", in: `[1]`,
			wantErr: "spec.config: json: cannot unmarshal array into Go value of type map[string]interface {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var raw *apiextensionsv1.JSON
			if tt.in != "" {
				raw = &apiextensionsv1.JSON{Raw: []byte(tt.in)}
			}
			got, err := renderConfig(raw)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err =\n%v\nwant\n%s", err, tt.wantErr)
				}
				if got != nil {
					t.Errorf("rendered %q alongside an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestRenderConfigNeverEchoesSecret(t *testing.T) {
	_, err := renderConfig(&apiextensionsv1.JSON{Raw: []byte(`{"api_key":"sk-very-secret"}`)})
	if err == nil || strings.Contains(err.Error(), "sk-very-secret") {
		t.Fatalf("err = %v", err)
	}
}

func TestConfigHashStable(t *testing.T) {
	a, _ := renderConfig(&apiextensionsv1.JSON{Raw: []byte(`{"x":1,"y":2}`)})
	b, _ := renderConfig(&apiextensionsv1.JSON{Raw: []byte(`{"y":2,"x":1}`)})
	if configHash(a) != configHash(b) {
		t.Errorf("hash depends on key order: %s vs %s", configHash(a), configHash(b))
	}
	c, _ := renderConfig(&apiextensionsv1.JSON{Raw: []byte(`{"x":1,"y":3}`)})
	if configHash(a) == configHash(c) {
		t.Error("different configs share a hash")
	}
}

// TestRenderedConfigLoadsInTheRouter: what the operator writes to the ConfigMap must be a
// config the router accepts, tracing defaults and all.
func TestRenderedConfigLoadsInTheRouter(t *testing.T) {
	out, err := renderConfig(&apiextensionsv1.JSON{Raw: []byte(`{
		"models": [{"model_name": "qwen", "provider": {"type": "openai_compatible",
			"base_url": "http://vllm-qwen.models.svc:8000/v1", "api_key": "env.OPENAI_API_KEY"}}],
		"observability": {"tracing": {"enabled": true, "sampling": {"type": "probabilistic", "rate": 0.25}}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(out)
	if err != nil {
		t.Fatalf("the router rejects the rendered config:\n%s\n%v", out, err)
	}
	tr := cfg.Observability.Tracing
	if !tr.Enabled || tr.Exporter.Endpoint != "jaeger:4317" || tr.Sampling.Rate != "0.25" {
		t.Errorf("tracing = %+v", tr)
	}
}

// TestRenderConfigRejectsEveryInlineCredentialField covers the credential fields of the
// config contract by name, including those whose names do not say "secret".
func TestRenderConfigRejectsEveryInlineCredentialField(t *testing.T) {
	_, err := renderConfig(&apiextensionsv1.JSON{Raw: []byte(`{
		"admission": {"api_keys": [{"name": "team-a", "key": "sk-team-a-inline"}]},
		"management": {"tokens": [{"name": "ops", "token": "mgmt-inline"}]},
		"models": [{"model_name": "c", "provider": {"type": "bedrock", "access_key_id": "AKIAINLINE", "secret_access_key": "inline"}},
		           {"model_name": "g", "provider": {"type": "vertex", "service_account_key": "eyJpbmxpbmUi", "api_key": "env.OK"}}]}`)})
	want := strings.Join([]string{
		"spec.config.admission.api_keys[0].key: plaintext credential; use an env.VAR or file:/path reference",
		"spec.config.management.tokens[0].token: plaintext credential; use an env.VAR or file:/path reference",
		"spec.config.models[0].provider.access_key_id: plaintext credential; use an env.VAR or file:/path reference",
		"spec.config.models[0].provider.secret_access_key: plaintext credential; use an env.VAR or file:/path reference",
		"spec.config.models[1].provider.service_account_key: plaintext credential; use an env.VAR or file:/path reference",
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("err =\n%v\nwant\n%s", err, want)
	}
}
