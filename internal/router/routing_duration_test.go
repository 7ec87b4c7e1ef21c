package router

import (
	"net/http"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// TestRoutingDuration: routing_duration_seconds takes one observation for each request that
// reached its model (whole or streamed) or, planned for Envoy, its routing answer; none for a
// refused request; and the model's own time is not in it.
func TestRoutingDuration(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	metrics := telemetry.NewMetrics(reg)
	r := buildRouter(t, `models:
  - model_name: slow
    provider: {type: sim, sim: {first_token_latency: 300ms, token_latency: 0s}}
`, nil, Options{Metrics: metrics})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	serve := func(body string) error {
		res, _, err := p.Serve(t.Context(), &Request{ID: "d", Header: http.Header{}, Body: newBody(body)})
		if err == nil {
			res.Close()
		}
		return err
	}
	start := time.Now()
	for _, stream := range []bool{false, true} {
		if err := serve(chatBody("slow", "hi", stream)); err != nil {
			t.Fatal(err)
		}
	}
	took := time.Since(start)
	for _, body := range []string{chatBody("gpt-9", "hi", false), `{"model":`} {
		if err := serve(body); err == nil {
			t.Fatalf("%s was served", body)
		}
	}
	n, sum := routingDuration(t, reg)
	if n != 2 || sum <= 0 || sum >= 0.3 || took < 600*time.Millisecond {
		t.Errorf("routing duration: %d observations summing to %gs over requests that took %s; "+
			"want 2 (the refused requests not counted), each less than the model's 300ms", n, sum, took)
	}

	reg = prometheus.NewRegistry()
	r = buildRouter(t, planConfig, map[string]string{"UP_KEY": "sk-up-0001"}, Options{PlanOnly: true, Metrics: telemetry.NewMetrics(reg)})
	p = NewPipeline(NewHolder(r), PipelineOptions{})
	pl, _, err := p.Plan(t.Context(), &Request{ID: "e", Header: http.Header{}, Body: newBody(chatBody("auto", "prove it", false))})
	if err != nil {
		t.Fatal(err)
	}
	pl.Done(http.StatusOK, nil, nil)
	if n, sum := routingDuration(t, reg); n != 1 || sum <= 0 {
		t.Errorf("routing duration of a planned request: %d observations summing to %gs, want 1", n, sum)
	}
}

// routingDuration returns the observations of routing_duration_seconds in reg and their sum.
func routingDuration(t *testing.T, reg *prometheus.Registry) (uint64, float64) {
	t.Helper()
	return histogramIn(t, reg, "semantic_router_routing_duration_seconds", "", "")
}

// histogramIn returns the observations and their sum of the histogram family in reg: its
// series whose label is value, or its first series when label is "".
func histogramIn(t *testing.T, reg *prometheus.Registry, family, label, value string) (uint64, float64) {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != family {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == label && l.GetValue() == value {
					return m.GetHistogram().GetSampleCount(), m.GetHistogram().GetSampleSum()
				}
			}
			if label == "" {
				return m.GetHistogram().GetSampleCount(), m.GetHistogram().GetSampleSum()
			}
		}
	}
	t.Fatalf("%s has no series with %s %q", family, label, value)
	return 0, 0
}
