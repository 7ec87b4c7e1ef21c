package telemetry

import "github.com/prometheus/client_golang/prometheus"

// CacheMetrics are the cache stage's metrics.
type CacheMetrics struct {
	// CacheRequests counts the cache's outcome per request: hit_exact, hit_semantic, miss or
	// bypass (not cacheable: a stream, a temperature above the bound, cache-control).
	CacheRequests *prometheus.CounterVec
	// CacheLookup is the time a lookup took (exact, then semantic with the embedding).
	CacheLookup prometheus.Histogram
	// CacheErrors counts failed cache operations (the backend unreachable), by operation.
	CacheErrors *prometheus.CounterVec
	// CacheEvictions counts entries evicted to stay within max_entries.
	CacheEvictions prometheus.Counter
}

func newCacheMetrics(reg prometheus.Registerer) *CacheMetrics {
	m := &CacheMetrics{
		CacheRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "cache_requests_total",
			Help: "Requests by the cache's outcome: hit_exact, hit_semantic, miss or bypass.",
		}, []string{"outcome"}),
		CacheLookup: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: namespace, Name: "cache_lookup_seconds",
			Help:    "Time of a cache lookup, the embedding of a semantic lookup included.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1},
		}),
		CacheErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "cache_errors_total",
			Help: "Cache operations that failed (the backend unreachable), by operation: get, nearest, put, embed, and redis for every failure of the Redis backend (its reads, stores, loads and subscription).",
		}, []string{"operation"}),
		CacheEvictions: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "cache_evictions_total",
			Help: "Cache entries evicted to stay within cache.max_entries and cache.max_bytes.",
		}),
	}
	reg.MustRegister(m.CacheRequests, m.CacheLookup, m.CacheErrors, m.CacheEvictions)
	return m
}
