// Package telemetry holds the router's Prometheus metrics. Metrics are a struct registered
// on an injected Registerer, never globals, so tests and embedders get their own.
package telemetry

import (
	"github.com/prometheus/client_golang/prometheus"
)

const namespace = "semantic_router"

// Metrics are the router's core metrics. All label values come from the configuration or
// from fixed sets, so cardinality is bounded: a model name a client made up is "unknown".
type Metrics struct {
	// Requests counts finished requests by front door path, model and HTTP status code.
	Requests *prometheus.CounterVec
	// RequestDuration is the time from request start to the last byte, by model and stream.
	RequestDuration *prometheus.HistogramVec
	// UpstreamDuration is the time a backend call took, by model and outcome.
	UpstreamDuration *prometheus.HistogramVec
	// TimeToFirstToken is the time from a streamed request's arrival to the relay of its first
	// chunk, as the client waits for it, by the model that answered (the cache's included).
	// The HTTP listener observes it; with ext_proc, Envoy relays the chunks.
	TimeToFirstToken *prometheus.HistogramVec
	// InFlight is the number of calls to a model in progress, by model: a stream's until its
	// end, a cached stream's while it is replayed. Requests still being routed or waiting
	// for an admission slot are not in it (admission_queue_wait_seconds has the latter).
	InFlight *prometheus.GaugeVec
	// Errors counts failed requests, once each, by model and reason (a provider.Kind name, or
	// client_error). The model is the one that failed last; an attempt that a retry or a
	// fallback cured is not a failed request (upstream_duration_seconds has its outcome).
	Errors *prometheus.CounterVec
	// Tokens counts tokens reported by backends, by model and type (prompt, completion).
	Tokens *prometheus.CounterVec
	// ModelRegistered is 1 for each model of the configuration serving now (a start-up with a
	// model that cannot be registered stops, and a reload with one is refused).
	ModelRegistered *prometheus.GaugeVec
	// Retries counts repeated calls to a model, by model and the reason of the failure.
	Retries *prometheus.CounterVec
	// Fallbacks counts requests handed from one model to the next, by both and the reason.
	Fallbacks *prometheus.CounterVec
	// CredentialRotations counts credentials re-read after their file changed, by reference
	// (such as file:/var/run/secrets/vllm/api-key), never by value.
	CredentialRotations *prometheus.CounterVec
	// SignalDuration is the time each signal took, by signal name and kind.
	SignalDuration *prometheus.HistogramVec
	// RoutingDuration is the router's own time before the model: from a request's body read
	// to its call to a model, its answer from the cache, or (extproc) its routing answer to
	// Envoy. Requests refused before then are not in it.
	RoutingDuration prometheus.Histogram
	// Decisions counts routing decisions taken, by decision ("default" when none matched).
	Decisions *prometheus.CounterVec
	// Blocks counts requests refused by a blocking decision, by decision.
	Blocks *prometheus.CounterVec
	// Planned counts requests routed for Envoy to forward (extproc mode), by target model.
	Planned *prometheus.CounterVec
	// BuildInfo is always 1; its labels carry the version.
	BuildInfo *prometheus.GaugeVec
	// Reliability are endpoint health, admission and reload metrics; see reliability.go.
	*Reliability
	// SignalMetrics count signals that could not be computed; see signals.go.
	*SignalMetrics
	// CacheMetrics are the cache stage's; see cache.go.
	*CacheMetrics
}

// Latency buckets from 1 ms to 10 min: gateway overhead is milliseconds, model calls are
// seconds to minutes, up to a model's default timeout (300 s) and the default request budget
// (600 s), so that a long answer still falls in a bucket that bounds it.
var latencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600}

// NoModel is the model label of a request that names no model (GET /v1/models, an unknown
// path) or was answered before one was read from it (a bad or large body, a refused key).
const NoModel = "none"

// NewMetrics creates the metrics and registers them on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "requests_total",
			Help: "Requests served, by endpoint, model and HTTP status code.",
		}, []string{"endpoint", "model", "code"}),
		RequestDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "request_duration_seconds", Buckets: latencyBuckets,
			Help: "Time from receiving a request to sending its last byte.",
		}, []string{"model", "stream"}),
		UpstreamDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "upstream_duration_seconds", Buckets: latencyBuckets,
			Help: "Time a backend call took, to the end of the answer, by outcome (ok or an error reason).",
		}, []string{"model", "outcome"}),
		TimeToFirstToken: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "time_to_first_token_seconds", Buckets: latencyBuckets,
			Help: "Time from receiving a streaming request to relaying its first chunk, by the model that answered.",
		}, []string{"model"}),
		InFlight: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: namespace, Name: "in_flight_requests",
			Help: "Calls to a model in progress (a stream until its end), by model.",
		}, []string{"model"}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "errors_total",
			Help: "Failed requests, once each, by the model that failed last and the reason; attempts cured by a retry or a fallback are not counted.",
		}, []string{"model", "reason"}),
		Tokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "tokens_total",
			Help: "Tokens reported by backends, by model and type (prompt or completion).",
		}, []string{"model", "type"}),
		ModelRegistered: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: namespace, Name: "model_registered",
			Help: "1 for each model of the configuration serving now.",
		}, []string{"model", "provider"}),
		Retries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "retries_total",
			Help: "Calls to a model repeated after a failure, by model and reason.",
		}, []string{"model", "reason"}),
		Fallbacks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "fallbacks_total",
			Help: "Requests handed to a fallback model, by the failed model, the next one and the reason.",
		}, []string{"from", "to", "reason"}),
		CredentialRotations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "credential_rotations_total",
			Help: "Credentials re-read after their file changed, by reference.",
		}, []string{"ref"}),
		SignalDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "signal_duration_seconds",
			Buckets: []float64{.00001, .000025, .00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .1},
			Help:    "Time each signal took for a request, by signal and kind.",
		}, []string{"signal", "kind"}),
		RoutingDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: namespace, Name: "routing_duration_seconds",
			// From microseconds (no signals) to beyond a remote embedder's timeout (10 s by default),
			// which a request may wait out before its signal is given up.
			Buckets: []float64{.00001, .000025, .00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
			Help:    "Time from reading a request's body to calling its model, answering it from the cache or, with extproc, answering Envoy: decoding, signals, decisions and the cache lookup.",
		}),
		Decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "decisions_total",
			Help: "Routing decisions taken, by decision (default when none matched).",
		}, []string{"decision"}),
		Blocks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "blocks_total",
			Help: "Requests refused by a blocking decision, by decision.",
		}, []string{"decision"}),
		Planned: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "planned_requests_total",
			Help: "Requests routed for Envoy to forward (extproc mode), by target model.",
		}, []string{"model"}),
		BuildInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: namespace, Name: "build_info",
			Help: "Always 1; the labels carry the build's version.",
		}, []string{"version"}),
	}
	reg.MustRegister(m.Requests, m.RequestDuration, m.UpstreamDuration, m.TimeToFirstToken,
		m.InFlight, m.Errors, m.Tokens, m.ModelRegistered, m.Retries, m.Fallbacks, m.CredentialRotations, m.SignalDuration, m.RoutingDuration, m.Decisions, m.Blocks, m.Planned, m.BuildInfo)
	m.Reliability = newReliability(reg)
	m.SignalMetrics = newSignalMetrics(reg)
	m.CacheMetrics = newCacheMetrics(reg)
	return m
}
