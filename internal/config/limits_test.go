package config

import (
	"strings"
	"testing"
	"time"
)

func TestParseLimitProblems(t *testing.T) {
	t.Parallel()
	yaml := `
models:
  - model_name: a
    max_response_body_bytes: 100
    provider: {type: sim}
signals:
  embedder:
    type: remote
    base_url: http://emb:8000/v1
    model: bge
    timeout: -1s
    connect_timeout: -2s
    ca_cert_pem: inline-pem
`
	want := strings.Join([]string{
		`models[0].max_response_body_bytes (line 4): must be at least 65536 (0: the default 32 MiB), got 100`,
		`signals.embedder.timeout (line 11): must not be negative`,
		`signals.embedder.connect_timeout (line 12): must not be negative`,
	}, "\n")
	_, err := Parse([]byte(yaml))
	if err == nil {
		t.Fatal("Parse succeeded, want an error")
	}
	got := err.Error()
	if !strings.HasPrefix(got, want) || !strings.Contains(got, "signals.embedder.ca_cert_pem (line 13): ") {
		t.Errorf("error:\n%s\nwant it to start with:\n%s\nand name signals.embedder.ca_cert_pem", got, want)
	}
}

func TestParseLimits(t *testing.T) {
	t.Parallel()
	cfg, err := Parse([]byte(`
models:
  - model_name: a
    max_response_body_bytes: 1048576
    provider: {type: sim}
signals:
  embedder: {type: remote, base_url: "http://emb:8000/v1", model: bge, timeout: 3s, connect_timeout: 1s, ca_cert_pem: env.EMB_CA}
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Models[0].MaxResponseBodyBytes; got != 1<<20 {
		t.Errorf("max_response_body_bytes = %d", got)
	}
	e := cfg.Signals.Embedder
	if e.Timeout.D() != 3*time.Second || e.ConnectTimeout.D() != time.Second || e.CACertPEM != "env.EMB_CA" {
		t.Errorf("embedder connection = %+v", e.EmbedderConnection)
	}
}
