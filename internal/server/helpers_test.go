package server

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// logBuffer is a log sink safe for concurrent writers.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// fixture is a router on a YAML config, served by the real inference and management
// handlers.
type fixture struct {
	inference, management string
	holder                *router.Holder
	reg                   *prometheus.Registry
	metrics               *telemetry.Metrics
	logs                  *logBuffer
}

func newFixture(t *testing.T, yaml string, env map[string]string) *fixture {
	t.Helper()
	cfg, err := config.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{reg: prometheus.NewRegistry(), logs: &logBuffer{}}
	metrics := telemetry.NewMetrics(f.reg)
	f.metrics = metrics
	log := slog.New(slog.NewJSONHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	rt, err := router.New(cfg, router.Options{Logger: log, Metrics: metrics, LookupEnv: func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}})
	if err != nil {
		t.Fatal(err)
	}
	f.holder = router.NewHolder(rt)
	t.Cleanup(func() { _ = f.holder.Close() })
	inf := httptest.NewServer(NewInference(f.holder, log, metrics))
	mgmt := httptest.NewServer(NewManagement(f.holder, &Readiness{}, inf.URL, log, nil))
	t.Cleanup(inf.Close)
	t.Cleanup(mgmt.Close)
	f.inference, f.management = inf.URL, mgmt.URL
	return f
}

type reply struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, method, url, token, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(b)}
}

func chat(model string, stream bool) string {
	if stream {
		return `{"model":"` + model + `","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`
	}
	return `{"model":"` + model + `","messages":[{"role":"user","content":"hi"}]}`
}

const simModels = `
models:
  - model_name: general
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 0s}}
  - model_name: reasoning
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 0s}}
`
