package router

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// routeMetrics holds the per-signal and per-decision series of one configuration, looked up
// once when the router is built: finding a series by its label values hashes them and takes
// the vector's lock, which a request paid once for each signal it computed.
type routeMetrics struct {
	m         *telemetry.Metrics
	signals   map[string]prometheus.Observer // by signal name
	decisions map[string]prometheus.Counter  // by decision name, and "default"
}

// newRouteMetrics creates the series of every signal (kinds, by name) and decision, so that
// they read 0 before the first request.
func newRouteMetrics(m *telemetry.Metrics, kinds map[string]string, decisions []config.Decision) *routeMetrics {
	rm := &routeMetrics{
		m:         m,
		signals:   make(map[string]prometheus.Observer, len(kinds)),
		decisions: make(map[string]prometheus.Counter, len(decisions)+1),
	}
	for name, kind := range kinds {
		rm.signals[name] = m.SignalDuration.WithLabelValues(name, kind)
	}
	rm.decisions["default"] = m.Decisions.WithLabelValues("default")
	for _, d := range decisions {
		rm.decisions[d.Name] = m.Decisions.WithLabelValues(d.Name)
	}
	return rm
}

// signal returns the duration series of the signal name of kind.
func (rm *routeMetrics) signal(name, kind string) prometheus.Observer {
	if o, ok := rm.signals[name]; ok {
		return o
	}
	return rm.m.SignalDuration.WithLabelValues(name, kind)
}

// decision returns the counter of the decision name.
func (rm *routeMetrics) decision(name string) prometheus.Counter {
	if c, ok := rm.decisions[name]; ok {
		return c
	}
	return rm.m.Decisions.WithLabelValues(name)
}
