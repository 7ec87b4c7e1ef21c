package config

import (
	"strings"
	"testing"
)

// TestBaseURLCredentialsAreNeverEchoed: a base_url is checked for credentials before
// anything else, and no message prints its userinfo, query values or fragment, since these
// messages reach logs and the reload API's answer.
func TestBaseURLCredentialsAreNeverEchoed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, url, want string
	}{
		{"userinfo", "http://user:hunter2@vllm:8000/v1",
			`must not carry credentials; use api_key with an env.VAR reference, got "http://[redacted]@vllm:8000/v1"`},
		{"userinfo and a trailing slash", "http://user:hunter2@vllm:8000/v1/",
			`must not carry credentials; use api_key with an env.VAR reference, got "http://[redacted]@vllm:8000/v1/"`},
		{"userinfo in an unparsable URL", "http://user:hun ter%zz@vllm:8000/v1",
			`must not carry credentials; use api_key with an env.VAR reference, got "http://[redacted]@vllm:8000/v1"`},
		{"api-key in the query", "https://x.openai.azure.com/v1?api-key=hunter2&api-version=2024",
			`must not carry credentials in its query; use api_key with an env.VAR reference, got "https://x.openai.azure.com/v1?api-key=[redacted]&api-version=[redacted]"`},
		{"token in the query", "http://vllm:8000/v1?access_token=hunter2",
			`must not carry credentials in its query; use api_key with an env.VAR reference, got "http://vllm:8000/v1?access_token=[redacted]"`},
		{"another query", "http://vllm:8000/v1?region=hunter2",
			`must not have a query or fragment, got "http://vllm:8000/v1?region=[redacted]"`},
		{"a fragment", "http://vllm:8000/v1#hunter2",
			`must not have a query or fragment, got "http://vllm:8000/v1#[redacted]"`},
		{"not http", "ftp://vllm:8000/v1?hunter2",
			`must be an absolute http(s) URL without a trailing slash, as in http://vllm:8000/v1, got "ftp://vllm:8000/v1?[redacted]"`},
		{"a trailing slash", "http://vllm:8000/v1/",
			`must be an absolute http(s) URL without a trailing slash, as in http://vllm:8000/v1, got "http://vllm:8000/v1/"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, where := range []struct{ yaml, path string }{
				{"    provider: {type: openai_compatible, base_url: %q}\n", "models[0].provider.base_url (line 3): "},
				{"    provider: {type: openai_compatible, endpoints: [{base_url: %q}]}\n", "models[0].provider.endpoints[0].base_url (line 3): "},
				{"    provider: {type: bedrock, region: us-east-1, access_key_id: env.A, secret_access_key: env.S, base_url: %q}\n", "models[0].provider.base_url (line 3): "},
			} {
				_, err := Parse([]byte("models:\n  - model_name: a\n" + strings.ReplaceAll(where.yaml, "%q", `"`+tt.url+`"`)))
				if err == nil {
					t.Fatalf("%s accepted", tt.url)
				}
				if got := err.Error(); got != where.path+tt.want {
					t.Errorf("error\n got %s\nwant %s", got, where.path+tt.want)
				}
				if strings.Contains(err.Error(), "hunter2") {
					t.Errorf("the credential is echoed: %s", err)
				}
			}
		})
	}
}

// TestAddressCredentialsAreNeverEchoed: an address or endpoint written with credentials, as
// a URL's userinfo or query, is refused, and its message shows neither them nor a value to
// write that holds them.
func TestAddressCredentialsAreNeverEchoed(t *testing.T) {
	t.Parallel()
	const (
		redis   = "cache: {backend: {type: redis, address: %q}}\n"
		tracing = "observability: {tracing: {enabled: true, exporter: {type: otlp, endpoint: %q}}}\n"
		health  = "  - model_name: b\n    provider: {type: openai_compatible, base_url: http://vllm:8000/v1, health_check: {interval: 10s, timeout: 1s, path: %q}}\n"
		baseURL = "  - model_name: b\n    provider: {type: openai_compatible, base_url: %q}\n"
		otlp    = `observability.tracing.exporter.endpoint (line 4): must be the collector's OTLP/gRPC address as host:port, as in "jaeger:4317", got `
	)
	tests := []struct {
		name, yaml, value, want string
	}{
		{"redis userinfo", redis, "u:hunter2@127.0.0.1:38379",
			`cache.backend.address (line 4): must not carry credentials; use password with an env.VAR or file:/path reference, got "[redacted]@127.0.0.1:38379"`},
		{"redis password alone", redis, "hunter2@redis:6379",
			`cache.backend.address (line 4): must not carry credentials; use password with an env.VAR or file:/path reference, got "[redacted]@redis:6379"`},
		{"redis URL whose password holds a slash", redis, "redis://u:hun/ter2@redis:6379/0",
			`cache.backend.address (line 4): must not carry credentials; use password with an env.VAR or file:/path reference, got "redis://[redacted]@redis:6379/0"`},
		{"redis password in a query", redis, "redis:6379?password=hunter2",
			`cache.backend.address (line 4): must be host:port, got "redis:6379?password=[redacted]"`},
		{"tracing userinfo", tracing, "u:hunter2@127.0.0.1:4317",
			otlp + `"[redacted]@127.0.0.1:4317"; write "127.0.0.1:4317", without credentials`},
		{"tracing password alone", tracing, "hunter2@otel-collector:4317",
			otlp + `"[redacted]@otel-collector:4317"; write "otel-collector:4317", without credentials`},
		{"tracing URL with userinfo and a query", tracing, "http://u:hunter2@otel-collector:4317/v1?token=hunter2",
			otlp + `"http://[redacted]@otel-collector:4317/v1?token=[redacted]"; write "otel-collector:4317", without http:// and credentials (exporter.insecure says whether TLS is used)`},
		{"tracing URL with a query", tracing, "http://otel-collector:4317?token=hunter2",
			otlp + `"http://otel-collector:4317?token=[redacted]"; write "otel-collector:4317", without http:// (exporter.insecure says whether TLS is used)`},
		{"tracing password that holds ://", tracing, "u:hun://ter2@otel-collector:4317",
			otlp + `"[redacted]@otel-collector:4317"; write "otel-collector:4317", without credentials`},
		{"base_url whose password holds a slash", baseURL, "http://u:hun/ter2@vllm:8000/v1",
			`models[1].provider.base_url (line 5): must be an absolute http(s) URL without a trailing slash, as in http://vllm:8000/v1, got "http://[redacted]@vllm:8000/v1"`},
		{"health check path written as a URL", health, "http://u:hunter2@vllm:8000/v1/models?key=hunter2",
			`models[1].provider.health_check.path (line 5): must start with /, got "http://[redacted]@vllm:8000/v1/models?key=[redacted]"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			yaml := "models:\n  - model_name: a\n    provider: {type: sim}\n" + strings.ReplaceAll(tt.yaml, "%q", `"`+tt.value+`"`)
			_, err := Parse([]byte(yaml))
			if err == nil {
				t.Fatalf("%s accepted", tt.value)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error\n got %s\nwant %s", got, tt.want)
			}
			if strings.Contains(err.Error(), "ter2") { // the end of every credential here
				t.Errorf("the credential is echoed: %s", err)
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	t.Parallel()
	cfg, err := Parse([]byte(`routing: {request_budget: 60s}
models:
  - model_name: slow
    timeout: 300s
    provider: {type: sim}
  - model_name: fine
    timeout: 30s
    retry: {max_retry_after: 90s}
    provider: {type: sim}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`models[0].timeout (line 4): 5m0s is longer than routing.request_budget (1m0s), which cuts every call of model "slow", streams included, at 1m0s`,
		`models[1].retry.max_retry_after (line 8): 1m30s is longer than routing.request_budget (1m0s); a Retry-After the budget cannot cover is not waited for`,
	}
	if got := cfg.Warnings(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n got %q\nwant %q", got, want)
	}
}
