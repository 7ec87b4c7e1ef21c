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
