package faults

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/provider/sim"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/server"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// startEndpointsRouter serves the inference handler and the management API of a router
// with one model "primary" over the given endpoints.
func startEndpointsRouter(t *testing.T, provider string) (inference, management string, metrics *telemetry.Metrics) {
	t.Helper()
	cfg, err := config.Parse([]byte("management: {auth: disabled}\nmodels:\n  - model_name: primary\n    provider:\n" + provider))
	if err != nil {
		t.Fatal(err)
	}
	metrics = telemetry.NewMetrics(prometheus.NewRegistry())
	log := slog.New(slog.DiscardHandler)
	rt, err := router.New(cfg, router.Options{Logger: log, Metrics: metrics})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Close() })
	src := router.NewHolder(rt)
	inf := httptest.NewServer(server.NewInference(router.NewPipeline(src, router.PipelineOptions{Logger: log}), log, metrics))
	mgmt := httptest.NewServer(server.NewManagement(src, &server.Readiness{}, inf.URL, log, nil))
	t.Cleanup(inf.Close)
	t.Cleanup(mgmt.Close)
	return inf.URL, mgmt.URL, metrics
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestEndpointEjection: a model over a healthy endpoint and a refusing one. No client sees
// the refusal (an unreachable endpoint hands the call to the next at once), the refusing
// endpoint is ejected after two failures, gets no more calls, and /api/v1/models says so.
func TestEndpointEjection(t *testing.T) {
	t.Parallel()
	good, bad := newBadBackend(t, ok), newBadBackend(t, status500)
	dead := refusedURL(t)
	inf, mgmt, metrics := startEndpointsRouter(t, fmt.Sprintf(`      type: openai_compatible
      model: up
      endpoints: [{base_url: %s/v1}, {base_url: %s/v1}, {base_url: %s/v1}]
      outlier_detection: {consecutive_failures: 2, ejection_time: 1h}
    retry: {max_attempts: 3, initial_backoff: 1ms}
`, good.URL, dead, bad.URL))
	for i := range 12 {
		if o := call(t, inf, i%2 == 0); o.status != 200 {
			t.Fatalf("request %d: status %d: %s", i, o.status, o.body)
		}
	}
	if n := bad.calls.Load(); n != 2 {
		t.Errorf("the failing endpoint got %d calls, want 2 (then ejected)", n)
	}
	models := get(t, mgmt+"/api/v1/models")
	for _, want := range []string{
		fmt.Sprintf(`{"base_url":"%s/v1","weight":1,"in_flight":0,"consecutive_failures":0,"ejected":false}`, good.URL),
		fmt.Sprintf(`{"base_url":"%s/v1","weight":1,"in_flight":0,"consecutive_failures":0,"ejected":true,"ejected_until":"`, dead),
		fmt.Sprintf(`{"base_url":"%s/v1","weight":1,"in_flight":0,"consecutive_failures":0,"ejected":true,"ejected_until":"`, bad.URL),
	} {
		if !strings.Contains(models, want) {
			t.Errorf("/api/v1/models lacks %s:\n%s", want, models)
		}
	}
	if n := testutil.ToFloat64(metrics.EndpointEjections.WithLabelValues("primary", bad.URL+"/v1")); n != 1 {
		t.Errorf("ejections of the failing endpoint = %v, want 1", n)
	}
}

// TestEveryEndpointEjectedFallsBack: with every endpoint ejected the model fails at once,
// so the fallback serves without waiting for timeouts; without a fallback the client gets
// a 502 that says why.
func TestEveryEndpointEjectedFallsBack(t *testing.T) {
	t.Parallel()
	bad := newBadBackend(t, status500)
	backup := newBadBackend(t, ok)
	rt, _ := startRouter(t, fmt.Sprintf(`  - model_name: primary
    provider:
      type: openai_compatible
      model: up
      endpoints: [{base_url: %s/v1}]
      outlier_detection: {consecutive_failures: 1, ejection_time: 1h}
    fallbacks: [backup]
%s`, bad.URL, model("backup", backup.URL, "")))
	for range 3 {
		if o := call(t, rt.URL, false); o.status != 200 || o.served != "backup" {
			t.Fatalf("status %d served by %q", o.status, o.served)
		}
	}
	if n := bad.calls.Load(); n != 1 {
		t.Errorf("the ejected endpoint got %d calls, want 1", n)
	}
}

// TestHealthCheckReturnsAnEndpoint: a failing health check ejects an endpoint that gets no
// traffic, and a good one returns it before its ejection ends.
func TestHealthCheckReturnsAnEndpoint(t *testing.T) {
	t.Parallel()
	var healthy atomic.Bool
	good := sim.Handler(sim.Options{Model: "up"})
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/models" && !healthy.Load() {
			w.WriteHeader(503)
			return
		}
		good.ServeHTTP(w, r)
	}))
	t.Cleanup(be.Close)
	_, mgmt, _ := startEndpointsRouter(t, fmt.Sprintf(`      type: openai_compatible
      model: up
      endpoints: [{base_url: %s/v1}]
      outlier_detection: {consecutive_failures: 1, ejection_time: 1h}
      health_check: {interval: 100ms, timeout: 100ms}
`, be.URL))
	waitFor(t, func() bool { return strings.Contains(get(t, mgmt+"/api/v1/models"), `"ejected":true`) }, "ejected by the health check")
	healthy.Store(true)
	waitFor(t, func() bool { return strings.Contains(get(t, mgmt+"/api/v1/models"), `"ejected":false`) }, "returned by the health check")
}

// waitFor polls cond until it holds or 10 s pass.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
