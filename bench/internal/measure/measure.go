// Package measure holds what the load generators and the benchmark orchestrator share: the
// result a load generator prints as one JSON line, and the order statistics behind it.
package measure

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"
)

// Result is one measurement of one target, printed by a load generator as a JSON line on
// stdout. Durations are in microseconds.
type Result struct {
	// Requests counts the requests (or streams) that completed.
	Requests int `json:"requests"`
	// Errors counts the requests that failed; FirstError is the first failure's text.
	Errors     int    `json:"errors"`
	FirstError string `json:"first_error,omitempty"`
	// P50 and P99 are the latency percentiles, in µs: of the whole response, of the first SSE
	// event, or of a whole ext_proc exchange, by mode.
	P50 float64 `json:"p50_us,omitempty"`
	P99 float64 `json:"p99_us,omitempty"`
	// RPS is the completed requests per second of a throughput run.
	RPS float64 `json:"rps,omitempty"`
	// CPUPerRequest is the CPU time, in µs, the target's process used per request it served
	// (user and system; the warm-up counted). The harness fills it in; the tools do not.
	CPUPerRequest float64 `json:"cpu_us_per_request,omitempty"`
	// ReadsPerRequest and WritesPerRequest are the system calls that read and that wrote
	// (sockets included) the target's process made per request it served; the harness fills
	// them in.
	ReadsPerRequest  float64 `json:"reads_per_request,omitempty"`
	WritesPerRequest float64 `json:"writes_per_request,omitempty"`
	// Held is, in a streams run, how many streams had their first event at the same time.
	Held int `json:"held,omitempty"`
}

// HeldEvent is the line a streams run prints when every stream has been opened (or has
// failed), before it lets them finish.
type HeldEvent struct {
	Event  string `json:"event"` // "held"
	Held   int    `json:"held"`
	Failed int    `json:"failed"`
}

// Print writes r as one JSON line.
func Print(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// Percentile returns the p-quantile (0 < p ≤ 1) of ds in µs by the nearest-rank method, or 0
// for no samples. ds is sorted in place.
func Percentile(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	i := int(float64(len(ds))*p+0.999999) - 1
	i = max(0, min(len(ds)-1, i))
	return float64(ds[i].Nanoseconds()) / 1e3
}

// Median returns the median of xs (the mean of the middle two for an even count), or 0 for
// none. xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
