package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseReportsEveryProblemWithPathAndLine(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want string
	}{
		{
			name: "unknown field with suggestion",
			yaml: `
models:
  - model_name: a
    provider:
      type: openai_compatible
      bse_url: http://x:8000/v1
`,
			want: "models[0].provider.base_url (line 4): is required\n" +
				`models[0].provider.bse_url (line 6): unknown field; did you mean "base_url"?`,
		},
		{
			name: "every problem at once",
			yaml: `
server:
  max_request_body_bytes: 10
models:
  - model_name: a
    provider:
      type: openai_compatible
      base_url: http://x:8000/v1/
      api_key: sk-live-123456
  - model_name: a
    provider:
      type: opneai_compatible
  - model_name: b
    timeout: soon
    provider:
      type: sim
`,
			want: strings.Join([]string{
				`server.max_request_body_bytes (line 3): must be at least 1024, got 10`,
				`models[0].provider.base_url (line 8): must be an absolute http(s) URL without a trailing slash, as in http://vllm:8000/v1, got "http://x:8000/v1/"`,
				`models[0].provider.api_key (line 9): must be a reference "env.VAR" or "file:/path"; inline credentials are not accepted`,
				`models[1].model_name (line 10): duplicate model_name "a" (first defined at models[0])`,
				`models[1].provider.type (line 12): unknown provider type "opneai_compatible"; did you mean "openai_compatible"?`,
				`models[2].timeout (line 14): must be a duration such as "30s", not "soon"`,
			}, "\n"),
		},
		{
			name: "validation only",
			yaml: `
server:
  max_request_body_bytes: 10
models:
  - model_name: a
    provider:
      type: openai_compatible
      base_url: http://x:8000/v1/
      api_key: sk-live-123456
  - model_name: a
    provider:
      type: opneai_compatible
`,
			want: strings.Join([]string{
				`server.max_request_body_bytes (line 3): must be at least 1024, got 10`,
				`models[0].provider.base_url (line 8): must be an absolute http(s) URL without a trailing slash, as in http://vllm:8000/v1, got "http://x:8000/v1/"`,
				`models[0].provider.api_key (line 9): must be a reference "env.VAR" or "file:/path"; inline credentials are not accepted`,
				`models[1].model_name (line 10): duplicate model_name "a" (first defined at models[0])`,
				`models[1].provider.type (line 12): unknown provider type "opneai_compatible"; did you mean "openai_compatible"?`,
			}, "\n"),
		},
		{
			name: "wrong scalar type",
			yaml: `
models:
  - model_name: a
    exposed: maybe
    provider: {type: sim}
`,
			want: `models[0].exposed (line 4): must be true or false, not "maybe"`,
		},
		{
			name: "list where a mapping belongs",
			yaml: `
models:
  - model_name: a
    provider: [sim]
`,
			want: `models[0].provider (line 4): must be a mapping`,
		},
		{
			name: "no models",
			yaml: `routing: {virtual_model: auto}`,
			want: `models: at least one model is required`,
		},
		{
			name: "empty document",
			yaml: ``,
			want: `models: at least one model is required`,
		},
		{
			name: "yaml syntax",
			yaml: "models:\n  - model_name: a\n - provider: x\n",
			want: `line 2: invalid YAML: did not find expected key`,
		},
		{
			name: "embedder",
			yaml: `
models:
  - model_name: a
    provider: {type: sim}
signals:
  embedder: {type: onnx, pooling: max, max_length: 1, base_url: "http://x/v1"}
`,
			want: strings.Join([]string{
				`signals.embedder.model_dir (line 6): is required for type onnx (a directory with model.onnx and tokenizer.json)`,
				`signals.embedder.pooling (line 6): must be mean or cls, got "max"`,
				`signals.embedder.max_length (line 6): must be at least 2 (0: the default 256), got 1`,
				`signals.embedder (line 6): base_url, model and api_key are used only by type remote`,
			}, "\n"),
		},
		{
			name: "alias bomb",
			yaml: "a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n" +
				"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e]\n",
			want: "the document expands to more than 200000 YAML nodes (aliases referring to aliases?); write it out",
		},
		{
			name: "unknown default model",
			yaml: `
routing:
  default_model: genral
models:
  - model_name: general
    provider: {type: sim}
`,
			want: `routing.default_model (line 3): unknown model "genral"; did you mean "general"?`,
		},
		{
			name: "model named like the virtual model",
			yaml: `
models:
  - model_name: auto
    provider: {type: sim}
`,
			want: `models[0].model_name (line 3): "auto" is the router's virtual model name (routing.virtual_model); choose another name`,
		},
		{
			name: "fields of another provider type",
			yaml: `
models:
  - model_name: a
    provider:
      type: sim
      base_url: http://x:8000/v1
      api_key: env.KEY
`,
			want: "models[0].provider.base_url (line 6): is not used by provider type sim\nmodels[0].provider.api_key (line 7): is not used by provider type sim",
		},
		{
			name: "h2c on another provider type, and over TLS",
			yaml: `
models:
  - model_name: a
    provider: {type: sim, h2c: true}
  - model_name: b
    provider: {type: openai_compatible, base_url: "https://vllm.example/v1", h2c: true}
  - model_name: c
    provider:
      type: openai_compatible
      h2c: true
      endpoints:
        - base_url: http://vllm-0:8000/v1
        - base_url: https://vllm-1.example/v1
`,
			want: strings.Join([]string{
				"models[0].provider.h2c (line 4): is not used by provider type sim",
				"models[1].provider.h2c (line 6): base_url is https://, where HTTP/2 is agreed over TLS by itself; h2c is for http:// servers",
				"models[2].provider.h2c (line 10): endpoints[1].base_url is https://, where HTTP/2 is agreed over TLS by itself; h2c is for http:// servers",
			}, "\n"),
		},
		{
			name: "bad references",
			yaml: `
models:
  - model_name: a
    provider:
      type: openai_compatible
      base_url: https://x.example/v1
      api_key: env.1BAD
      ca_cert_pem: file:relative.pem
`,
			want: strings.Join([]string{
				`models[0].provider.api_key (line 7): env reference "env.1BAD": variable name must match [A-Za-z_][A-Za-z0-9_]*`,
				`models[0].provider.ca_cert_pem (line 8): file reference must be an absolute path, as in file:/var/run/secrets/key`,
			}, "\n"),
		},
		{
			name: "signals and decisions",
			yaml: `
models:
  - model_name: general
    provider: {type: sim}
    reasoning_family: qwen
signals:
  domains:
    - name: math_domain
      categories: [math, maths]
  keywords:
    - name: Code
      keywords: []
  jailbreak:
    - name: jb
      threshold: 1.5
  pii:
    - name: math_domain
      types: [passport]
decisions:
  - name: math
    rules:
      any:
        - signal: mth_domain
        - all: []
    models: [{model: genral}]
  - name: blocker
    rules: {signal: jb, not: {signal: jb}}
    block: {status: 200, message: ""}
`,
			want: strings.Join([]string{
				`models[0].reasoning_family (line 5): unknown reasoning family "qwen"; did you mean "qwen3"?`,
				`signals.domains[0].categories[1] (line 9): unknown domain category "maths"; did you mean "math"?`,
				`signals.keywords[0].name (line 11): must be lower_snake_case (a-z, 0-9, _), got "Code"`,
				`signals.keywords[0].keywords (line 12): at least one keyword is required`,
				`signals.jailbreak[0].threshold (line 15): must be greater than 0 and at most 1, got 1.5`,
				`signals.pii[0].name (line 17): duplicate signal name "math_domain" (first defined at signals.domains[0])`,
				`signals.pii[0].types[0] (line 18): unknown PII type "passport" (one of api_key, credit_card, email, iban, ip_address, person_name, phone, ssn, street_address)`,
				`decisions[0].rules.any[0].signal (line 23): unknown signal "mth_domain"; did you mean "math_domain"?`,
				`decisions[0].rules.any[1].all (line 24): must not be empty`,
				`decisions[0].models[0].model (line 25): unknown model "genral"; did you mean "general"?`,
				`decisions[1].rules (line 27): must have exactly one of signal, all, any or not`,
				`decisions[1].block.status (line 28): must be an HTTP error status (400-599), got 200`,
				`decisions[1].block.message (line 28): is required: it is what the client reads`,
			}, "\n"),
		},
		{
			name: "a misspelt provider type hides no other problem",
			yaml: `
models:
  - model_name: a
    provider:
      type: openai-compatible
      base_url: http://vllm:8000/v1/
      api_key: sk-inline-secret
`,
			want: strings.Join([]string{
				`models[0].provider.type (line 5): unknown provider type "openai-compatible"; did you mean "openai_compatible"?`,
				`models[0].provider.base_url (line 6): must be an absolute http(s) URL without a trailing slash, as in http://vllm:8000/v1, got "http://vllm:8000/v1/"`,
				`models[0].provider.api_key (line 7): must be a reference "env.VAR" or "file:/path"; inline credentials are not accepted`,
			}, "\n"),
		},
		{
			name: "references to names nobody defined",
			yaml: `
models:
  - model_name: qwen
    provider: {type: sim}
  - model_name: qwen
    provider: {type: sim}
decisions:
  - name: d
    rules: {signal: nosuch}
    models: [{model: ghost}]
`,
			want: strings.Join([]string{
				`models[1].model_name (line 5): duplicate model_name "qwen" (first defined at models[0])`,
				`decisions[0].rules.signal (line 9): unknown signal "nosuch" (no signal is defined)`,
				`decisions[0].models[0].model (line 10): unknown model "ghost" (one of qwen)`,
			}, "\n"),
		},
		{
			name: "tracing",
			yaml: `
models:
  - model_name: a
    provider: {type: sim}
observability:
  tracing:
    enabled: true
    provider: zipkin
    sampling: {type: probabilistic, rate: "1.5"}
`,
			want: strings.Join([]string{
				`observability.tracing.provider (line 8): must be "opentelemetry", got "zipkin"`,
				`observability.tracing.sampling.rate (line 9): must be a number between 0 and 1 written as a string, as in "0.1", got "1.5"`,
			}, "\n"),
		},
		{
			name: "a tracing endpoint written as a URL",
			yaml: `
models:
  - model_name: a
    provider: {type: sim}
observability:
  tracing:
    enabled: true
    exporter: {type: otlp, endpoint: "http://otel-collector.observability:4317"}
`,
			want: `observability.tracing.exporter.endpoint (line 8): must be the collector's OTLP/gRPC address as host:port, as in "jaeger:4317", got "http://otel-collector.observability:4317"; write "otel-collector.observability:4317", without http:// (exporter.insecure says whether TLS is used)`,
		},
		{
			name: "a tracing endpoint without a port",
			yaml: `
models:
  - model_name: a
    provider: {type: sim}
observability:
  tracing:
    enabled: true
    exporter: {type: otlp, endpoint: otel-collector}
`,
			want: `observability.tracing.exporter.endpoint (line 8): must be the collector's OTLP/gRPC address as host:port, as in "jaeger:4317", got "otel-collector"`,
		},
		{
			name: "a second document",
			yaml: `
models:
  - model_name: a
    provider: {type: sim}
---
models:
  - model_name: b
    provider: {type: sim}
bogus: 1
`,
			want: `line 6: a second YAML document starts here; the config is one document: remove the --- before it or merge the two`,
		},
		{
			name: "a syntax error in a second document",
			yaml: "models: []\n---\na: 1\nb: [x\n",
			want: `line 3: invalid YAML: did not find expected ',' or ']'`,
		},
		{
			// The first value of a repeated key counts and is validated like any other, so
			// the problems beneath it are listed too.
			name: "repeated keys, with the other problems",
			yaml: `
routing:
  default_model: nosuch
models:
  - model_name: a
    model_name: b
    timeout: soon
    provider: {type: sim}
  - model_name: a
    provider: {type: sim}
models: []
decisions:
  - name: d
    rules: {signal: kw, signal: kw}
    models: [{model: a}]
    headers: {x-team: one, x-team: two}
signals:
  keywords:
    - {name: kw, keywords: [zzz]}
`,
			want: strings.Join([]string{
				`routing.default_model (line 3): unknown model "nosuch"`,
				`models[0].model_name (line 6): the key is repeated; line 5 sets it already`,
				`models[0].timeout (line 7): must be a duration such as "30s", not "soon"`,
				`models[1].model_name (line 9): duplicate model_name "a" (first defined at models[0])`,
				`models (line 11): the key is repeated; line 4 sets it already`,
				`decisions[0].rules.signal (line 14): the key is repeated; line 14 sets it already`,
				`decisions[0].headers.x-team (line 16): the key is repeated; line 16 sets it already`,
			}, "\n"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml))
			if err == nil {
				t.Fatal("Parse succeeded, want an error")
			}
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("error is %T, want Problems", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestParseSkipsEmptyDocuments: a "---" before or after the document, or two, changes nothing.
func TestParseSkipsEmptyDocuments(t *testing.T) {
	for _, doc := range []string{
		"---\nmodels: [{model_name: a, provider: {type: sim}}]\n",
		"models: [{model_name: a, provider: {type: sim}}]\n---\n",
		"---\n---\nmodels: [{model_name: a, provider: {type: sim}}]\n...\n---\n# done\n",
	} {
		cfg, err := Parse([]byte(doc))
		if err != nil {
			t.Errorf("%q: %v", doc, err)
			continue
		}
		if len(cfg.Models) != 1 || cfg.Models[0].Name != "a" {
			t.Errorf("%q: models %+v", doc, cfg.Models)
		}
	}
}

func TestParseAppliesDefaults(t *testing.T) {
	cfg, err := Parse([]byte(`
models:
  - model_name: general
    provider:
      type: openai_compatible
      base_url: http://vllm:8000/v1
  - model_name: hidden
    exposed: false
    provider: {type: sim}
`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Routing.VirtualModel != "auto" || cfg.Routing.DefaultModel != "general" {
		t.Errorf("routing = %+v, want virtual model auto and default general", cfg.Routing)
	}
	m := cfg.Models[0]
	if !m.IsExposed() || m.Provider.Model != "general" || m.Timeout.D() != DefaultModelTimeout || m.ConnectTimeout.D() != DefaultConnectTimeout {
		t.Errorf("model defaults not applied: %+v", m)
	}
	if cfg.Models[1].IsExposed() {
		t.Error("exposed: false was overridden")
	}
	if sim := cfg.Models[1].Provider.Sim; sim == nil || sim.FirstTokenLatency.D() != DefaultSimFirstToken {
		t.Errorf("sim defaults not applied: %+v", sim)
	}
	tr := cfg.Observability.Tracing
	if tr.Enabled || tr.Provider != "opentelemetry" || tr.Exporter.Type != "otlp" || tr.Exporter.Endpoint != "jaeger:4317" ||
		!*tr.Exporter.Insecure || tr.Sampling.Type != "always_on" {
		t.Errorf("tracing defaults = %+v", tr)
	}
	if cfg.Server.MaxRequestBodyBytes != DefaultMaxRequestBodyBytes {
		t.Errorf("max body = %d", cfg.Server.MaxRequestBodyBytes)
	}
}

func TestSimZeroLatencyIsKept(t *testing.T) {
	cfg, err := Parse([]byte(`
models:
  - model_name: a
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 0s}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.Models[0].Provider.Sim; s.FirstTokenLatency.D() != 0 || s.TokenLatency.D() != 0 {
		t.Errorf("explicit zero latencies replaced by defaults: %v %v", s.FirstTokenLatency, s.TokenLatency)
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("models: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	want := "config " + path + ":\nmodels (line 1): at least one model is required"
	if err == nil || err.Error() != want {
		t.Errorf("Load error = %v, want %q", err, want)
	}
}
