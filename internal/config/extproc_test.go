package config

import (
	"slices"
	"strings"
	"testing"
)

func TestExtprocWarnings(t *testing.T) {
	t.Parallel()
	const vllm = "    provider: {type: openai_compatible, base_url: http://10.0.0.7:8000/v1}\n"
	tests := []struct {
		name string
		yaml string
		want []string
	}{
		{
			name: "defaults only",
			yaml: "models:\n  - model_name: qwen\n" + vllm,
		},
		{
			name: "settings ext_proc applies",
			yaml: `
server: {max_request_body_bytes: 2048, shutdown_timeout: 5s, stream_keepalive: 0s}
admission:
  api_keys: [{name: a, key: env.A, tokens_per_minute: 1000}]
models:
  - model_name: qwen
    retry: {max_attempts: 1}
    timeout: 300s
    provider:
      type: openai_compatible
      api_key: env.K
      endpoints: [{base_url: http://10.0.0.7:8000/v1}, {base_url: http://10.0.0.8:8000/v1}]
      outlier_detection: {consecutive_failures: 3}
      health_check: {interval: 10s}
`,
		},
		{
			name: "server listener limits",
			yaml: `
server:
  read_header_timeout: 5s
  read_timeout: 30s
  write_timeout: 20s
  idle_timeout: 60s
  max_header_bytes: 8192
  stream_keepalive: 5s
routing: {request_budget: 120s}
models:
  - model_name: qwen
` + vllm,
			want: []string{
				"server.read_header_timeout (line 3): 5s bounds only the management and metrics listeners in extproc mode; clients connect to Envoy, whose HTTP connection manager sets their limits",
				"server.read_timeout (line 4): 30s bounds only the management and metrics listeners in extproc mode; clients connect to Envoy, whose HTTP connection manager sets their limits",
				"server.write_timeout (line 5): 20s bounds only the management and metrics listeners in extproc mode; clients connect to Envoy, whose HTTP connection manager sets their limits",
				"server.idle_timeout (line 6): 1m0s bounds only the management and metrics listeners in extproc mode; clients connect to Envoy, whose HTTP connection manager sets their limits",
				"server.max_header_bytes (line 7): 8192 bounds only the management and metrics listeners in extproc mode; clients connect to Envoy, whose HTTP connection manager sets their limits",
				"server.stream_keepalive (line 8): 5s is not applied in extproc mode: Envoy relays the stream, and the router writes no keep-alive comments into it",
				"routing.request_budget (line 9): 2m0s is not applied in extproc mode: Envoy calls the model once, under the route's timeout",
			},
		},
		{
			name: "HTTP/2 without TLS",
			yaml: `
server: {h2c: false}
models:
  - model_name: qwen
    provider: {type: openai_compatible, base_url: http://10.0.0.7:8000/v1, h2c: true}
`,
			want: []string{
				"server.h2c (line 2): is not applied in extproc mode: clients connect to Envoy, and the router has no inference listener",
				"models[0].provider.h2c (line 5): not used in extproc mode: Envoy connects to the model server, and its upstream cluster's protocol options choose HTTP/2",
			},
		},
		{
			name: "reliability of a model",
			yaml: `
models:
  - model_name: qwen
    timeout: 60s
    connect_timeout: 2s
    first_token_timeout: 10s
    stream_idle_timeout: 15s
    retry: {max_attempts: 3}
    fallbacks: [small, tiny]
    max_response_body_bytes: 1048576
    provider: {type: openai_compatible, base_url: https://vllm.example:8443/v1, ca_cert_pem: env.CA}
  - model_name: small
` + vllm + `  - model_name: tiny
    retry: {max_backoff: 5s}
` + vllm,
			want: []string{
				"models[0].provider.ca_cert_pem (line 11): not used in extproc mode: Envoy connects to the model server, and the TLS settings (transport_socket) of its upstream cluster verify it",
				"models[0].timeout (line 4): 1m0s is not applied in extproc mode: the Envoy route's timeout bounds the call",
				"models[0].connect_timeout (line 5): 2s is not applied in extproc mode: the Envoy upstream cluster's connect_timeout applies",
				"models[0].first_token_timeout (line 6): 10s is not applied in extproc mode: Envoy relays the stream, under its own idle timeouts",
				"models[0].stream_idle_timeout (line 7): 15s is not applied in extproc mode: Envoy relays the stream, under its own idle timeouts",
				"models[0].retry (line 8): not applied in extproc mode: Envoy calls the model once unless its route has a retry_policy",
				"models[0].fallbacks (line 9): not applied in extproc mode: Envoy calls only the model the router chose, never small, tiny",
				"models[0].max_response_body_bytes (line 10): 1048576 is not applied in extproc mode: Envoy relays the answer without the router's bound",
				"models[2].retry (line 15): not applied in extproc mode: Envoy calls the model once unless its route has a retry_policy",
			},
		},
		{
			name: "providers Envoy cannot call",
			yaml: `
models:
  - model_name: claude
    provider: {type: bedrock, region: us-east-1, access_key_id: env.A, secret_access_key: env.S}
  - model_name: gemini
    provider: {type: vertex, project: my-project, location: us-central1, service_account_key: env.G}
  - model_name: demo
    provider: {type: sim}
`,
			want: []string{
				`models[0].provider.type (line 4): bedrock is not supported in extproc mode: Envoy sends the client's OpenAI request as it is, with no translation to the Bedrock API and no SigV4 signature, so model "claude" cannot be served`,
				`models[1].provider.type (line 6): vertex is not supported in extproc mode: Envoy sends the client's OpenAI request as it is, with no translation to the Vertex AI API and no Google access token, so model "gemini" cannot be served`,
				`models[2].provider.type (line 8): sim runs inside the router and has no server for Envoy to call in extproc mode, so model "demo" cannot be served`,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := Parse([]byte(tc.yaml))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := cfg.ExtprocWarnings(); !slices.Equal(got, tc.want) {
				t.Errorf("ExtprocWarnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
