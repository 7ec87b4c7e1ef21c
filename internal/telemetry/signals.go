package telemetry

import "github.com/prometheus/client_golang/prometheus"

// SignalMetrics count signals that could not be computed.
type SignalMetrics struct {
	// SignalErrors counts signals that could not be computed for a request (their embedder
	// failed), by signal and outcome: refused (a decision that reads it refused the request,
	// its on_error), allowed (a policy read it as not matched, on_error allow) or not_matched
	// (routing read it as not matched).
	SignalErrors *prometheus.CounterVec
}

func newSignalMetrics(reg prometheus.Registerer) *SignalMetrics {
	m := &SignalMetrics{
		SignalErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "signal_errors_total",
			Help: "Signals that could not be computed for a request, by signal and outcome (refused, allowed, not_matched).",
		}, []string{"signal", "outcome"}),
	}
	reg.MustRegister(m.SignalErrors)
	return m
}
