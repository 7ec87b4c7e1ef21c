package telemetry

import "github.com/prometheus/client_golang/prometheus"

// Reliability are the metrics of endpoint health, admission and configuration reloads.
type Reliability struct {
	// EndpointEjections counts endpoints taken out of rotation after consecutive failures,
	// by model and endpoint (a base_url from the configuration).
	EndpointEjections *prometheus.CounterVec
	// AdmissionRejections counts inference requests refused before routing, by reason
	// (unauthenticated, model_not_allowed, key_rate_limited, model_rate_limited, overloaded).
	// Keys are never labels: their names are in the log line of each refusal.
	AdmissionRejections *prometheus.CounterVec
	// QueueWait is how long admitted requests waited for an in-flight slot.
	QueueWait prometheus.Histogram
	// ConfigReloads counts configuration reloads by result (applied, unchanged, invalid).
	ConfigReloads *prometheus.CounterVec
	// StreamKeepAlives counts ": keep-alive" comments written into silent streams.
	StreamKeepAlives prometheus.Counter
}

func newReliability(reg prometheus.Registerer) *Reliability {
	r := &Reliability{
		EndpointEjections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "endpoint_ejections_total",
			Help: "Endpoints ejected after consecutive failures, by model and endpoint.",
		}, []string{"model", "endpoint"}),
		AdmissionRejections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "admission_rejections_total",
			Help: "Inference requests refused before routing, by reason.",
		}, []string{"reason"}),
		QueueWait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: namespace, Name: "admission_queue_wait_seconds", Buckets: latencyBuckets,
			Help: "Time admitted requests waited for an in-flight slot.",
		}),
		ConfigReloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "config_reloads_total",
			Help: "Configuration reloads, by result: applied, unchanged or invalid.",
		}, []string{"result"}),
		StreamKeepAlives: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "stream_keepalives_total",
			Help: "Keep-alive comments written into streams waiting for their next event.",
		}),
	}
	reg.MustRegister(r.EndpointEjections, r.AdmissionRejections, r.QueueWait, r.ConfigReloads, r.StreamKeepAlives)
	return r
}
