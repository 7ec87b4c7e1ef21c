package telemetry

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/semantic-router/semantic-router/internal/config"
)

// TestLatencyBucketsReachTheTimeouts: an answer as long as a model's default timeout or the
// default request budget lands in a finite bucket, so quantiles of long answers are not
// capped below them.
func TestLatencyBucketsReachTheTimeouts(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	for _, d := range []float64{config.DefaultModelTimeout.Seconds(), config.DefaultRequestBudget.Seconds()} {
		m.RequestDuration.WithLabelValues("m", "true").Observe(d)
		m.UpstreamDuration.WithLabelValues("m", "ok").Observe(d)
		m.TimeToFirstToken.WithLabelValues("m").Observe(d)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		switch mf.GetName() {
		case "semantic_router_request_duration_seconds", "semantic_router_upstream_duration_seconds", "semantic_router_time_to_first_token_seconds":
		default:
			continue
		}
		h := mf.GetMetric()[0].GetHistogram()
		buckets := h.GetBucket()
		top := buckets[len(buckets)-1]
		if top.GetCumulativeCount() != h.GetSampleCount() {
			t.Errorf("%s: %d of %d observations above its highest bucket, %gs", mf.GetName(),
				h.GetSampleCount()-top.GetCumulativeCount(), h.GetSampleCount(), top.GetUpperBound())
		}
	}
}
