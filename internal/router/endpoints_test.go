package router

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/semantic-router/semantic-router/internal/balancer"
	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/sim"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// endpointWait bounds the waits of these tests; it is never reached when they pass.
const endpointWait = 10 * time.Second

// waitUntil polls cond until it holds, failing the test after endpointWait.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(endpointWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, endpointWait)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// modelBackend is an OpenAI-compatible server (the simulator) that wants the key sk-pool and
// whose GET /v1/models answers 503 while it is unhealthy. It counts the completions it serves.
type modelBackend struct {
	*httptest.Server
	healthy     atomic.Bool
	completions atomic.Int64
}

func newModelBackend(t *testing.T) *modelBackend {
	t.Helper()
	b := &modelBackend{}
	b.healthy.Store(true)
	serve := sim.Handler(sim.Options{Model: "up"})
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sk-pool" {
			http.Error(w, `{"error":{"message":"invalid api key"}}`, http.StatusUnauthorized)
			return
		}
		if r.URL.Path == "/v1/models" && !b.healthy.Load() {
			http.Error(w, `{"error":{"message":"loading"}}`, http.StatusServiceUnavailable)
			return
		}
		if r.URL.Path == "/v1/chat/completions" {
			b.completions.Add(1)
		}
		serve.ServeHTTP(w, r)
	}))
	t.Cleanup(b.Close)
	return b
}

// poolRouter builds a router over models, with KEY=sk-pool in its environment.
func poolRouter(t *testing.T, classifyOnly bool, models string, log *slog.Logger) (*Router, *telemetry.Metrics) {
	t.Helper()
	cfg, err := config.Parse([]byte("models:\n" + models))
	if err != nil {
		t.Fatal(err)
	}
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	r, err := New(cfg, Options{PlanOnly: classifyOnly, Logger: log, Metrics: metrics, LookupEnv: func(k string) (string, bool) {
		return "sk-pool", k == "KEY"
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r, metrics
}

// endpointModel is a model over endpoints a and b.
func endpointModel(name, a, b, extra string) string {
	return fmt.Sprintf(`  - model_name: %s
    provider:
      type: openai_compatible
      model: up
      api_key: env.KEY
      endpoints: [{base_url: %s/v1}, {base_url: %s/v1}]
      outlier_detection: {consecutive_failures: 2, ejection_time: 1h}
%s`, name, a, b, extra)
}

// pickUntil picks endpoints of m until it gets url, reporting the other picks as
// successes, and returns url's report.
func pickUntil(t *testing.T, m *model, url string) func(int, error) {
	t.Helper()
	for range 10 {
		got, report, err := m.endpoint()
		if err != nil {
			t.Fatalf("endpoint: %v", err)
		}
		if got == url {
			return report
		}
		report(http.StatusOK, nil)
	}
	t.Fatalf("%s was never picked", url)
	return nil
}

// picked returns the base URLs of n picks of m, each reported with status 200.
func picked(t *testing.T, m *model, n int) []string {
	t.Helper()
	var urls []string
	for range n {
		u, report, err := m.endpoint()
		if err != nil {
			t.Fatalf("endpoint: %v", err)
		}
		report(http.StatusOK, nil)
		urls = append(urls, u)
	}
	return urls
}

func endpointsOf(r *Router, name string) []balancer.Status {
	for _, mi := range r.Models() {
		if mi.Name == name {
			return mi.Endpoints
		}
	}
	return nil
}

// TestEndpointInPlanOnlyMode: a router that builds no providers (Envoy calls the
// models) balances over a model's endpoints with outlier detection: failures that Envoy
// reports eject an endpoint, the picks go to the other, and a health check (with the
// model's key) returns it.
func TestEndpointInPlanOnlyMode(t *testing.T) {
	t.Parallel()
	a, b := newModelBackend(t), newModelBackend(t)
	b.healthy.Store(false) // its probes fail until it is returned below
	r, metrics := poolRouter(t, true,
		endpointModel("passive", a.URL, b.URL, "")+
			endpointModel("probed", a.URL, b.URL, "      health_check: {interval: 500ms, timeout: 500ms}\n")+
			"  - model_name: single\n    provider: {type: openai_compatible, base_url: http://single.internal/v1}\n", nil)
	aURL, bURL := a.URL+"/v1", b.URL+"/v1"

	// Without health checks, only reports count: a 4xx says nothing, a 503 and a call
	// that got no answer are failures, two in a row eject.
	passive := r.models["passive"]
	pickUntil(t, passive, bURL)(http.StatusTooManyRequests, nil)
	pickUntil(t, passive, bURL)(http.StatusServiceUnavailable, nil)
	if st := endpointsOf(r, "passive")[1]; st.Ejected || st.ConsecutiveFailures != 1 || st.InFlight != 0 {
		t.Fatalf("after a 429 and a 503, b = %+v, want 1 failure, not ejected, nothing in flight", st)
	}
	report := pickUntil(t, passive, bURL)
	report(0, errors.New("upstream connect error or disconnect/reset before headers"))
	report(0, errors.New("reported twice")) // a second report of one call does nothing
	st := endpointsOf(r, "passive")
	if !st[1].Ejected || st[1].InFlight != 0 || st[0].InFlight != 0 {
		t.Fatalf("after two failures in a row, endpoints = %+v, want b ejected and nothing in flight", st)
	}
	if got := picked(t, passive, 4); strings.Join(got, " ") != strings.Repeat(aURL+" ", 3)+aURL {
		t.Errorf("picks with b ejected = %q, want a only", got)
	}
	if n := testutil.ToFloat64(metrics.EndpointEjections.WithLabelValues("passive", bURL)); n != 1 {
		t.Errorf("ejections of passive's b = %v, want 1", n)
	}

	// With health checks, b is ejected (by the reports, or by its failing probes) and a
	// passing probe returns it before its hour is up.
	probed := r.models["probed"]
	pickUntil(t, probed, bURL)(http.StatusBadGateway, nil)
	waitUntil(t, "probed's b ejected", func() bool { return endpointsOf(r, "probed")[1].Ejected })
	if got := picked(t, probed, 2); got[0] != aURL || got[1] != aURL {
		t.Errorf("picks with b ejected = %q, want a twice", got)
	}
	b.healthy.Store(true)
	waitUntil(t, "probed's b returned by a health check", func() bool { return !endpointsOf(r, "probed")[1].Ejected })
	if got := picked(t, probed, 2); !strings.Contains(strings.Join(got, " "), bURL) {
		t.Errorf("picks after b returned = %q, want b among them", got)
	}

	// A model with one base_url and no outlier detection has no pool.
	u, report, err := r.models["single"].endpoint()
	report(http.StatusServiceUnavailable, nil)
	if u != "http://single.internal/v1" || err != nil || endpointsOf(r, "single") != nil {
		t.Errorf("single: endpoint() = %q, %v; endpoints %+v; want its base_url and no pool", u, err, endpointsOf(r, "single"))
	}
}

// TestEveryEndpointEjected: with both endpoints out, endpoint() says when the first returns.
func TestEveryEndpointEjected(t *testing.T) {
	t.Parallel()
	r, _ := poolRouter(t, true, endpointModel("m", "http://a.internal", "http://b.internal", ""), nil)
	m := r.models["m"]
	for range 4 {
		_, report, err := m.endpoint()
		if err != nil {
			t.Fatalf("endpoint: %v", err)
		}
		report(http.StatusInternalServerError, nil)
	}
	u, report, err := m.endpoint()
	report(http.StatusOK, nil) // a no-op, not a Done for a pick that never happened
	var pe *provider.Error
	if u != "" || !errors.As(err, &pe) || pe.Kind != provider.KindConnect || !errors.Is(err, balancer.ErrAllEjected) ||
		!strings.HasPrefix(pe.Message, "every endpoint is ejected after consecutive failures; the first returns in ") ||
		!strings.HasSuffix(pe.Message, " (provider.outlier_detection)") {
		t.Fatalf("endpoint() = %q, %v; want a connect error saying every endpoint is ejected", u, err)
	}
	for _, st := range endpointsOf(r, "m") {
		if st.InFlight != 0 {
			t.Errorf("%s has %d in flight, want 0", st.ID, st.InFlight)
		}
	}
}

// TestHealthChecksOffWithoutTheKey: a PlanOnly router needs no model credentials, so a
// key it cannot read turns the health checks off, with a warning, instead of failing; the
// pool still balances.
func TestHealthChecksOffWithoutTheKey(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	var mu sync.Mutex
	log := slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, nil))
	r, _ := poolRouter(t, true, strings.Replace(endpointModel("m", "http://a.internal", "http://b.internal",
		"      health_check: {interval: 100ms}\n"), "env.KEY", "env.MISSING", 1), log)
	mu.Lock()
	logged := buf.String()
	mu.Unlock()
	want := `level=WARN msg="endpoint health checks off" model=m error="provider.api_key env.MISSING: environment variable MISSING is not set`
	if !strings.Contains(logged, want) {
		t.Errorf("log = %q, want a line with %q", logged, want)
	}
	if got := picked(t, r.models["m"], 2); got[0] != "http://a.internal/v1" || got[1] != "http://b.internal/v1" {
		t.Errorf("picks = %q, want a then b", got)
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestOnePoolForBothFrontDoors: in a router that calls the models, the picks of endpoint()
// and the calls of the balanced provider share one pool: failures reported for b keep the
// provider's calls off it.
func TestOnePoolForBothFrontDoors(t *testing.T) {
	t.Parallel()
	a, b := newModelBackend(t), newModelBackend(t)
	r, _ := poolRouter(t, false, endpointModel("m", a.URL, b.URL, ""), nil)
	m := r.models["m"]
	bURL := b.URL + "/v1"
	pickUntil(t, m, bURL)(http.StatusBadGateway, nil)
	pickUntil(t, m, bURL)(0, errors.New("connection refused"))
	for range 3 {
		if _, _, err := serve(r, chat("m", "hello")); err != nil {
			t.Fatalf("serve: %v", err)
		}
	}
	if na, nb := a.completions.Load(), b.completions.Load(); na != 3 || nb != 0 {
		t.Errorf("completions: a %d, b %d; want 3 and 0 (b was ejected by the reports)", na, nb)
	}
	if st := endpointsOf(r, "m"); !st[1].Ejected || st[0].InFlight != 0 {
		t.Errorf("endpoints = %+v, want b ejected and a idle", st)
	}
}

func TestStatusOutcome(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		err    error
		want   balancer.Outcome
	}{
		{"2xx answer", 200, nil, balancer.Success},
		{"5xx answer", 503, nil, balancer.Failure},
		{"5xx with an error", 500, context.Canceled, balancer.Failure},
		{"4xx answer", 404, nil, balancer.Neutral},
		{"429 answer", 429, nil, balancer.Neutral},
		{"no answer: the call failed", 0, errors.New("connection refused"), balancer.Failure},
		{"no answer: the client went away", 0, context.Canceled, balancer.Neutral},
		{"no answer: a provider error of an endpoint's fault", 0, &provider.Error{Kind: provider.KindTimeout}, balancer.Failure},
		{"no answer: a provider error of the client's", 0, &provider.Error{Kind: provider.KindCanceled}, balancer.Neutral},
		{"2xx cut short", 200, errors.New("stream reset"), balancer.Failure},
		{"2xx abandoned by the client", 200, fmt.Errorf("reading: %w", context.Canceled), balancer.Neutral},
		{"a redirect", 302, nil, balancer.Failure},
		{"nothing known", 0, nil, balancer.Neutral},
	}
	for _, tt := range tests {
		if got := statusOutcome(tt.status, tt.err); got != tt.want {
			t.Errorf("%s: statusOutcome(%d, %v) = %v, want %v", tt.name, tt.status, tt.err, got, tt.want)
		}
	}
}
