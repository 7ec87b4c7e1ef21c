package router

import (
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/semantic-router/semantic-router/internal/admission"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// TestRouteMetricsFromTheStart: every signal's duration and every decision's count is a
// series from the moment the router is built, at 0, and a routed request moves the ones it
// touched.
func TestRouteMetricsFromTheStart(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	metrics := telemetry.NewMetrics(reg)
	r := buildRouter(t, routeConfig, nil, Options{ClassifyOnly: true, Metrics: metrics})

	// Five keyword and PII signals; five decisions and the default.
	if n := testutil.CollectAndCount(metrics.SignalDuration); n != 5 {
		t.Errorf("signal duration series before any request: %d, want 5", n)
	}
	if n := testutil.CollectAndCount(metrics.Decisions); n != 6 {
		t.Errorf("decision series before any request: %d, want 6", n)
	}
	for _, name := range []string{"math", "chat", "default"} {
		if got := testutil.ToFloat64(metrics.Decisions.WithLabelValues(name)); got != 0 {
			t.Errorf("decisions_total{%s} before any request = %v, want 0", name, got)
		}
	}

	if _, _, _, err := routeOf(r, chat("auto", "prove it"), http.Header{}); err != nil {
		t.Fatal(err)
	}
	if got := testutil.ToFloat64(metrics.Decisions.WithLabelValues("math")); got != 1 {
		t.Errorf("decisions_total{math} = %v, want 1", got)
	}
	if got := testutil.CollectAndCount(metrics.SignalDuration); got != 5 {
		t.Errorf("signal duration series after a request: %d, want 5", got)
	}
	count := func(signal string) uint64 {
		n, _ := histogramIn(t, reg, "semantic_router_signal_duration_seconds", "signal", signal)
		return n
	}
	if got := count("proof"); got != 1 {
		t.Errorf("signal_duration{proof} samples = %d, want 1", got)
	}
	if got := count("casual"); got != 0 {
		t.Errorf("signal_duration{casual} samples = %d, want 0", got)
	}
}

// TestEventCountersFromTheStart: the counters of events an alert waits for (an endpoint
// ejected, a request refused) have each of their series at 0 from the moment the router is
// built, so that the first event is an increase and not a series born at 1.
func TestEventCountersFromTheStart(t *testing.T) {
	t.Parallel()
	_, metrics := poolRouter(t, true, endpointModel("pooled", "http://10.0.0.1:8000", "http://10.0.0.2:8000", ""), nil)
	want := `
# HELP semantic_router_endpoint_ejections_total Endpoints ejected after consecutive failures, by model and endpoint.
# TYPE semantic_router_endpoint_ejections_total counter
semantic_router_endpoint_ejections_total{endpoint="http://10.0.0.1:8000/v1",model="pooled"} 0
semantic_router_endpoint_ejections_total{endpoint="http://10.0.0.2:8000/v1",model="pooled"} 0
`
	if err := testutil.CollectAndCompare(metrics.EndpointEjections, strings.NewReader(want)); err != nil {
		t.Error(err)
	}
	// Counted before reading them: WithLabelValues would create the series.
	if n, want := testutil.CollectAndCount(metrics.AdmissionRejections), len(admission.Reasons()); n != want {
		t.Errorf("admission rejection series before any request: %d, want %d", n, want)
	}
	for _, r := range admission.Reasons() {
		if got := testutil.ToFloat64(metrics.AdmissionRejections.WithLabelValues(string(r))); got != 0 {
			t.Errorf("admission_rejections_total{%s} = %v, want 0", r, got)
		}
	}
}
