package telemetry

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/embed/remote"
)

// TestLatencyBucketsReachTheTimeouts: an answer as long as a model's default timeout or the
// default request budget, and routing as long as a remote embedder's default timeout, land in
// a finite bucket, so quantiles of long ones are not capped below them.
func TestLatencyBucketsReachTheTimeouts(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	for _, d := range []float64{config.DefaultModelTimeout.Seconds(), config.DefaultRequestBudget.Seconds()} {
		m.RequestDuration.WithLabelValues("m", "true").Observe(d)
		m.UpstreamDuration.WithLabelValues("m", "ok").Observe(d)
		m.TimeToFirstToken.WithLabelValues("m").Observe(d)
	}
	// Routing that waited out a remote embedder's call.
	m.RoutingDuration.Observe(remote.DefaultTimeout.Seconds())
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		switch mf.GetName() {
		case "semantic_router_request_duration_seconds", "semantic_router_upstream_duration_seconds", "semantic_router_time_to_first_token_seconds",
			"semantic_router_routing_duration_seconds":
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

// TestMetricsAreDocumented: docs/observability.md lists every metric the router registers,
// with its type, and no metric that does not exist.
func TestMetricsAreDocumented(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/observability.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]string{} // name → type
	for _, m := range regexp.MustCompile("(?m)^\\| `(semantic_router_\\w+)` \\| (\\w+) \\|").FindAllSubmatch(doc, -1) {
		documented[string(m[1])] = string(m[2])
	}
	registered := map[string]string{}
	for _, f := range gatherAll(t) {
		registered[f.name] = f.typ
	}
	for name, typ := range registered {
		if got, ok := documented[name]; !ok {
			t.Errorf("%s (%s) is not in docs/observability.md", name, typ)
		} else if got != typ {
			t.Errorf("docs/observability.md says %s is a %s; it is a %s", name, got, typ)
		}
	}
	for name := range documented {
		if _, ok := registered[name]; !ok {
			t.Errorf("docs/observability.md lists %s, which the router does not register", name)
		}
	}
}

var update = flag.Bool("update", false, "rewrite testdata/help.golden")

// TestMetricsHelp: the HELP text of every metric, as Prometheus shows it, is the one in
// testdata/help.golden, so that a change of what a metric counts changes its text on
// purpose (go test -update rewrites the file).
func TestMetricsHelp(t *testing.T) {
	var b strings.Builder
	for _, f := range gatherAll(t) {
		fmt.Fprintf(&b, "%s %s: %s\n", f.name, f.typ, f.help)
	}
	const golden = "testdata/help.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("HELP texts:\n%s\nwant (%s):\n%s", b.String(), golden, want)
	}
}

// family is what a metric family says of itself, and the labels of its series.
type family struct {
	name, typ, help string
	labels          []string
}

// gatherAll returns every metric family the router registers, and those of extra, in name
// order.
func gatherAll(t *testing.T, extra ...prometheus.Collector) []family {
	t.Helper()
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	reg.MustRegister(extra...)
	// A vector shows up in Gather once it has a series.
	m.Requests.WithLabelValues("inference", "m", "200")
	m.RequestDuration.WithLabelValues("m", "false")
	m.UpstreamDuration.WithLabelValues("m", "ok")
	m.TimeToFirstToken.WithLabelValues("m")
	m.InFlight.WithLabelValues("m")
	m.Errors.WithLabelValues("m", "upstream")
	m.Tokens.WithLabelValues("m", "prompt")
	m.ModelRegistered.WithLabelValues("m", "sim")
	m.Retries.WithLabelValues("m", "upstream")
	m.Fallbacks.WithLabelValues("m", "n", "upstream")
	m.CredentialRotations.WithLabelValues("file:/k")
	m.SignalDuration.WithLabelValues("s", "keyword")
	m.Decisions.WithLabelValues("d")
	m.Blocks.WithLabelValues("d")
	m.Planned.WithLabelValues("m")
	m.BuildInfo.WithLabelValues("v")
	m.EndpointEjections.WithLabelValues("m", "http://e")
	m.AdmissionRejections.WithLabelValues("overloaded")
	m.ConfigReloads.WithLabelValues("applied")
	m.SignalErrors.WithLabelValues("s", "refused")
	m.CacheRequests.WithLabelValues("miss")
	m.CacheErrors.WithLabelValues("get")
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]family, 0, len(mfs))
	for _, mf := range mfs {
		f := family{name: mf.GetName(), typ: strings.ToLower(mf.GetType().String()), help: mf.GetHelp()}
		for _, l := range mf.GetMetric()[0].GetLabel() {
			f.labels = append(f.labels, l.GetName())
		}
		out = append(out, f)
	}
	return out
}
