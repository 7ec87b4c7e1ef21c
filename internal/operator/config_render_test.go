package operator

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/semantic-router/semantic-router/internal/config"
)

// qwenModel is a model the router accepts, for configs that need one.
const qwenModel = `{"model_name":"qwen","provider":{"type":"openai_compatible","base_url":"http://vllm-qwen.models.svc:8000/v1","api_key":"env.VLLM_API_KEY"}}`

// modelConfig is a spec.config with qwenModel and the given extra top-level
// fields (a JSON object body without braces, or "").
func modelConfig(extra string) *apiextensionsv1.JSON {
	body := `"models":[` + qwenModel + `]`
	if extra != "" {
		body += "," + extra
	}
	return &apiextensionsv1.JSON{Raw: []byte("{" + body + "}")}
}

const qwenYAML = "models:\n- model_name: qwen\n  provider:\n    api_key: env.VLLM_API_KEY\n    base_url: http://vllm-qwen.models.svc:8000/v1\n    type: openai_compatible\n"

// serverYAML is the server section of a config that sets none: the operator's shutdown_delay.
const serverYAML = "server:\n  shutdown_delay: 5s\n"

func TestRenderConfig(t *testing.T) {
	tests := []struct {
		name    string
		in      string // JSON; "" means a nil config
		want    string
		wantErr string
	}{
		{name: "models as written, keys sorted", in: `{"models":[` + qwenModel + `]}`, want: qwenYAML + serverYAML},
		{name: "big ints exact", in: `{"models":[` + qwenModel + `],"server":{"max_request_body_bytes":12345678901234567}}`,
			want: qwenYAML + "server:\n  max_request_body_bytes: 12345678901234567\n  shutdown_delay: 5s\n"},
		{name: "a shutdown_delay of its own is kept", in: `{"models":[` + qwenModel + `],"server":{"shutdown_delay":"0s"}}`,
			want: qwenYAML + "server:\n  shutdown_delay: 0s\n"},
		{name: "a negative shutdown_delay: the router's own message", in: `{"models":[` + qwenModel + `],"server":{"shutdown_delay":"-5s"}}`,
			wantErr: "the router refuses the rendered config.yaml:\nserver.shutdown_delay (line 8): must not be negative, got -5s"},
		{name: "file reference passes", in: `{"models":[{"model_name":"q","provider":{"type":"openai_compatible","base_url":"http://v:8000/v1","api_key":"file:/run/secrets/key"}}]}`,
			want: "models:\n- model_name: q\n  provider:\n    api_key: file:/run/secrets/key\n    base_url: http://v:8000/v1\n    type: openai_compatible\n" + serverYAML},
		{name: "tracing defaults", in: `{"models":[` + qwenModel + `],"observability":{"tracing":{"enabled":true}}}`,
			want: qwenYAML + "observability:\n  tracing:\n    enabled: true\n    exporter:\n      endpoint: jaeger:4317\n      insecure: true\n      type: otlp\n" +
				"    provider: opentelemetry\n    sampling:\n      type: always_on\n" + serverYAML},
		{name: "tracing keeps user values and the rate as a string",
			in: `{"models":[` + qwenModel + `],"observability":{"tracing":{"enabled":true,"exporter":{"type":"stdout","insecure":false},"sampling":{"type":"probabilistic","rate":0.1}}}}`,
			want: qwenYAML + "observability:\n  tracing:\n    enabled: true\n    exporter:\n      endpoint: jaeger:4317\n      insecure: false\n      type: stdout\n" +
				"    provider: opentelemetry\n    sampling:\n      rate: \"0.1\"\n      type: probabilistic\n" + serverYAML},
		{name: "plaintext api key", in: `{"models":[{"model_name":"a","provider":{"type":"openai_compatible","base_url":"http://v:8000/v1","api_key":"sk-123"}}]}`,
			wantErr: "spec.config.models[0].provider.api_key: plaintext credential; use an env.VAR or file:/path reference"},
		{name: "credentials in base_url", in: `{"models":[{"model_name":"a","provider":{"type":"openai_compatible","base_url":"http://user:pa55@vllm:8000/v1/"}}]}`,
			wantErr: "spec.config.models[0].provider.base_url: the URL carries credentials (user:password@); use api_key with an env.VAR reference"},
		{name: "credentials in an endpoint base_url", in: `{"models":[{"model_name":"a","provider":{"type":"openai_compatible","endpoints":[{"base_url":"http://v:1/v1"},{"base_url":"https://tok@v2:1/v1"}]}}]}`,
			wantErr: "spec.config.models[0].provider.endpoints[1].base_url: the URL carries credentials (user:password@); use api_key with an env.VAR reference"},
		{name: "env without dot is not a reference", in: `{"models":[{"model_name":"a","provider":{"type":"openai_compatible","base_url":"http://v:8000/v1","api_key":"envOPENAI"}}]}`,
			wantErr: "spec.config.models[0].provider.api_key: plaintext credential; use an env.VAR or file:/path reference"},
		{name: "relative file is not a reference", in: `{"management":{"tokens":[{"name":"ops","token":"file:key.txt"}]}}`,
			wantErr: "spec.config.management.tokens[0].token: plaintext credential; use an env.VAR or file:/path reference"},
		{name: "no model: the router's own message", in: "",
			wantErr: "the router refuses the rendered config.yaml:\nmodels: at least one model is required"},
		{name: "unknown field: the router's own message with the line", in: `{"models":[` + qwenModel + `],"default_model":"qwen"}`,
			wantErr: "the router refuses the rendered config.yaml:\ndefault_model (line 1): unknown field"},
		{name: "not an object", in: `[1]`,
			wantErr: "spec.config: json: cannot unmarshal array into Go value of type map[string]interface {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var raw *apiextensionsv1.JSON
			if tt.in != "" {
				raw = &apiextensionsv1.JSON{Raw: []byte(tt.in)}
			}
			got, err := renderConfig(raw, nil)
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
			if _, err := config.Parse(got); err != nil {
				t.Errorf("the router refuses the rendered config: %v", err)
			}
		})
	}
}

func TestRenderConfigNeverEchoesSecret(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"models":[{"model_name":"a","provider":{"type":"openai_compatible","base_url":"http://v:8000/v1","api_key":"sk-very-secret"}}]}`,
		`{"models":[{"model_name":"a","provider":{"type":"openai_compatible","base_url":"http://u:sk-very-secret@v:8000/v1/"}}]}`,
		`{"models":[{"model_name":"a","provider":{"type":"openai_compatible","base_url":"http://u:sk-very-secret@v:8000/%zz"}}]}`,
	} {
		_, err := renderConfig(&apiextensionsv1.JSON{Raw: []byte(in)}, nil)
		if err == nil || strings.Contains(err.Error(), "sk-very-secret") {
			t.Errorf("err = %v", err)
		}
	}
}

func TestConfigHashStable(t *testing.T) {
	t.Parallel()
	a, _ := renderConfig(modelConfig(`"routing":{"virtual_model":"auto","default_model":"qwen"}`), nil)
	b, _ := renderConfig(modelConfig(`"routing":{"default_model":"qwen","virtual_model":"auto"}`), nil)
	if a == nil || configHash(a) != configHash(b) {
		t.Errorf("hash depends on key order: %s vs %s", configHash(a), configHash(b))
	}
	c, _ := renderConfig(modelConfig(`"routing":{"virtual_model":"router"}`), nil)
	if configHash(a) == configHash(c) {
		t.Error("different configs share a hash")
	}
}

// TestRenderConfigRejectsEveryInlineCredentialField covers the credential fields of the
// config contract by name, including those whose names do not say "secret".
func TestRenderConfigRejectsEveryInlineCredentialField(t *testing.T) {
	t.Parallel()
	_, err := renderConfig(&apiextensionsv1.JSON{Raw: []byte(`{
		"admission": {"api_keys": [{"name": "team-a", "key": "sk-team-a-inline"}]},
		"management": {"tokens": [{"name": "ops", "token": "mgmt-inline"}]},
		"models": [{"model_name": "c", "provider": {"type": "bedrock", "region": "us-east-1", "access_key_id": "AKIAINLINE", "secret_access_key": "inline"}},
		           {"model_name": "g", "provider": {"type": "vertex", "service_account_key": "eyJpbmxpbmUi", "api_key": "env.OK"}}]}`)}, nil)
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
