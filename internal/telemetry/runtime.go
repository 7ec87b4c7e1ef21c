package telemetry

import (
	"regexp"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// collectorMetrics are the Go runtime metrics served besides client_golang's defaults: what
// the garbage collector costs and what it aims at. The router sets the collector's target
// itself (internal/heapfloor), so an operator should be able to see it work: the live heap
// and the goal (go_gc_heap_live_bytes, go_gc_heap_goal_bytes), how much of the heap each
// cycle reads (go_gc_scan_heap_bytes), and the CPU the collector took
// (go_cpu_classes_gc_total_cpu_seconds_total, to set against process_cpu_seconds_total).
var collectorMetrics = regexp.MustCompile(`^/(gc/heap/(live|goal):bytes|gc/scan/heap:bytes|cpu/classes/gc/total:cpu-seconds)$`)

// NewRuntimeCollectors returns the collectors of the Go runtime's and the process's metrics
// (go_*, process_*), to register beside NewMetrics.
func NewRuntimeCollectors() []prometheus.Collector {
	return []prometheus.Collector{
		collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(collectors.GoRuntimeMetricsRule{Matcher: collectorMetrics})),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	}
}
