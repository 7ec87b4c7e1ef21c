package config

import (
	"strings"
	"testing"
)

func TestParseReliabilityProblems(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want string
	}{
		{
			name: "endpoints",
			yaml: `
models:
  - model_name: a
    provider:
      type: openai_compatible
      base_url: http://x:8000/v1
      endpoints:
        - {base_url: http://x:8000/v1/}
        - {base_url: http://y:8000/v1, weight: -1}
        - {base_url: http://y:8000/v1}
      load_balancing: random
      outlier_detection: {consecutive_failures: 0, ejection_time: 10s, max_ejection_time: 5s}
      health_check: {interval: 10ms, path: models}
  - model_name: b
    provider: {type: sim, load_balancing: weighted}
`,
			want: strings.Join([]string{
				`models[0].provider.base_url (line 6): set either base_url or endpoints, not both`,
				`models[0].provider.endpoints[0].base_url (line 8): must be an absolute http(s) URL without a trailing slash, as in http://vllm:8000/v1, got "http://x:8000/v1/"`,
				`models[0].provider.endpoints[1].weight (line 9): must be between 1 and 1000, got -1`,
				`models[0].provider.endpoints[2].base_url (line 10): duplicate of endpoints[1]`,
				`models[0].provider.load_balancing (line 11): must be one of round_robin, least_in_flight, weighted, got "random"`,
				`models[0].provider.outlier_detection.max_ejection_time (line 12): must be at least ejection_time (10s)`,
				`models[0].provider.health_check.interval (line 13): must be at least 100ms, got 10ms`,
				`models[0].provider.health_check.path (line 13): must start with /, got "models"`,
				`models[1].provider.load_balancing (line 15): is not used by provider type sim`,
			}, "\n"),
		},
		{
			name: "admission",
			yaml: `
admission:
  queue_timeout: 1s
  api_keys:
    - {name: team a, key: sk-inline}
    - {name: b, key: env.B, models: [genral], requests_per_minute: -1}
    - {name: b, key: env.B}
  model_limits:
    - {model: nope, tokens_per_minute: 5}
models:
  - model_name: general
    provider: {type: sim}
`,
			want: strings.Join([]string{
				`admission (line 2): queue_timeout and max_queue need max_in_flight`,
				`admission.api_keys[0].name (line 5): must not contain whitespace, got "team a"`,
				`admission.api_keys[0].key (line 5): must be a reference "env.VAR" or "file:/path"; inline credentials are not accepted`,
				`admission.api_keys[1].models[0] (line 6): unknown model "genral"; did you mean "general"?`,
				`admission.api_keys[1].requests_per_minute (line 6): must not be negative`,
				`admission.api_keys[2].name (line 7): duplicate name "b" (first defined at api_keys[1])`,
				`admission.api_keys[2].key (line 7): the same reference as api_keys[1]`,
				`admission.model_limits[0].model (line 9): unknown model "nope"`,
			}, "\n"),
		},
		{
			name: "management bearer without tokens",
			yaml: `
management: {}
models:
  - model_name: general
    provider: {type: sim}
`,
			want: `management.tokens (line 2): bearer auth needs at least one token (an env.VAR or file:/path reference); to leave the management API open, say auth: disabled`,
		},
		{
			name: "management tokens",
			yaml: `
management:
  auth: Disabled
  tokens:
    - {name: ops, token: env.T, role: root}
    - {name: ops, token: env.T}
server:
  stream_keepalive: 10ms
models:
  - model_name: general
    provider: {type: sim}
`,
			want: strings.Join([]string{
				`management.auth (line 3): must be bearer or disabled, got "Disabled"`,
				`management.tokens[0].role (line 5): must be read or admin, got "root"`,
				`management.tokens[1].name (line 6): duplicate name "ops" (first defined at tokens[0])`,
				`management.tokens[1].token (line 6): the same reference as tokens[0]`,
				`server.stream_keepalive (line 8): must be 0s (off) or at least 100ms, got 10ms`,
			}, "\n"),
		},
		{
			name: "profiling without an admin token",
			yaml: `
management:
  profiling: true
  tokens:
    - {name: dash, token: env.T}
models:
  - model_name: general
    provider: {type: sim}
`,
			want: `management.profiling (line 3): needs auth: bearer and a token with role admin: profiles show the process's memory, which holds credentials`,
		},
		{
			name: "profiling with auth disabled",
			yaml: `
management: {auth: disabled, profiling: true}
models:
  - model_name: general
    provider: {type: sim}
`,
			want: `management.profiling (line 2): needs auth: bearer and a token with role admin: profiles show the process's memory, which holds credentials`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tt.yaml))
			if err == nil {
				t.Fatal("Parse succeeded, want an error")
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestReliabilityDefaults(t *testing.T) {
	cfg, err := Parse([]byte(`
admission: {max_in_flight: 8}
management:
  tokens: [{name: ops, token: file:/run/secrets/ops}]
models:
  - model_name: a
    provider:
      type: openai_compatible
      endpoints: [{base_url: http://a:8000/v1}, {base_url: http://b:8000/v1, weight: 3}]
  - model_name: b
    provider: {type: openai_compatible, base_url: http://c:8000/v1}
`))
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Models[0].Provider
	if p.LoadBalancing != BalanceRoundRobin || p.Endpoints[0].Weight != 1 || p.Endpoints[1].Weight != 3 {
		t.Errorf("endpoint defaults: %+v", p.Balancing)
	}
	if od := p.OutlierDetection; od == nil || od.ConsecutiveFailures != 5 || od.EjectionTime.D() != DefaultEjectionTime || od.MaxEjectionTime.D() != DefaultMaxEjectionTime {
		t.Errorf("outlier detection defaults: %+v", od)
	}
	if b := cfg.Models[1].Provider; b.OutlierDetection != nil || len(b.EndpointList()) != 1 || b.EndpointList()[0].BaseURL != "http://c:8000/v1" {
		t.Errorf("a single base_url got endpoint settings: %+v", b.Balancing)
	}
	if cfg.Admission.MaxQueue != 8 || cfg.Server.StreamKeepAlive.D() != DefaultStreamKeepAlive {
		t.Errorf("admission/keepalive defaults: %+v %v", cfg.Admission, cfg.Server.StreamKeepAlive)
	}
	if m := cfg.Management; !m.AuthEnabled() || m.Tokens[0].Role != RoleRead {
		t.Errorf("management defaults: %+v", m)
	}
	var none *Management
	if none.AuthEnabled() {
		t.Error("no management section must mean no auth")
	}
}
