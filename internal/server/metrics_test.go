package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestMetricsListener: the metrics listener serves GET /metrics only; every other answer is
// the error envelope.
func TestMetricsListener(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: "probe_total", Help: "A probe."})
	reg.MustRegister(c)
	c.Inc()
	srv := httptest.NewServer(NewMetrics(promhttp.HandlerFor(reg, promhttp.HandlerOpts{})))
	defer srv.Close()

	for _, tt := range []struct {
		method, path string
		status       int
		allow, body  string
	}{
		{http.MethodGet, "/metrics", http.StatusOK, "", "probe_total 1"},
		{http.MethodPost, "/metrics", http.StatusMethodNotAllowed, "GET, HEAD", `"message":"method POST is not allowed on /metrics; use GET"`},
		{http.MethodGet, "/", http.StatusNotFound, "", `"message":"unknown path /; the metrics listener serves GET /metrics"`},
		{http.MethodGet, "/v1/chat/completions", http.StatusNotFound, "", `unknown path /v1/chat/completions`},
	} {
		req, err := http.NewRequest(tt.method, srv.URL+tt.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || resp.Header.Get("Allow") != tt.allow || !strings.Contains(string(b), tt.body) {
			t.Errorf("%s %s = %d (Allow %q) %s, want %d (Allow %q) with %s", tt.method, tt.path, resp.StatusCode,
				resp.Header.Get("Allow"), b, tt.status, tt.allow, tt.body)
		}
		if tt.status != http.StatusOK && !json.Valid(b) {
			t.Errorf("%s %s: body is not JSON: %s", tt.method, tt.path, b)
		}
	}
}

// TestErrorsCountEachFailureOnce: a model's failure that reaches the client as a 4xx (a
// backend that throttles the router) counts once, by its reason, not also as the client's
// error; a client's own mistake counts as client_error.
func TestErrorsCountEachFailureOnce(t *testing.T) {
	t.Parallel()
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "30")
		http.Error(w, `{"error":{"message":"slow down"}}`, http.StatusTooManyRequests)
	}))
	t.Cleanup(be.Close)
	f := newFixture(t, `
models:
  - model_name: m
    retry: {max_attempts: 1}
    provider: {type: openai_compatible, base_url: `+be.URL+`/v1}
`, nil)
	if r := do(t, "POST", f.inference+"/v1/chat/completions", "", chat("m", false)); r.status != http.StatusTooManyRequests {
		t.Fatalf("a throttled model: %d %s", r.status, r.body)
	}
	if r := do(t, "POST", f.inference+"/v1/chat/completions", "", chat("nope", false)); r.status != http.StatusNotFound {
		t.Fatalf("an unknown model: %d %s", r.status, r.body)
	}
	for _, c := range []struct {
		model, reason string
		want          float64
	}{{"m", "rate_limited", 1}, {"m", "client_error", 0}, {"unknown", "client_error", 1}} {
		if got := testutil.ToFloat64(f.metrics.Errors.WithLabelValues(c.model, c.reason)); got != c.want {
			t.Errorf("errors_total{model=%s, reason=%s} = %v, want %v", c.model, c.reason, got, c.want)
		}
	}
}

// TestRequestsWithoutAModelAreCounted: answers given before a model was read count in
// requests_total under model "none", so that an error rate computed from it sees them.
func TestRequestsWithoutAModelAreCounted(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "server: {max_request_body_bytes: 1024}\n"+simModels, nil)
	for _, tt := range []struct {
		method, path, body string
		status             int
	}{
		{"POST", "/v1/chat/completions", "not json", 400},
		{"POST", "/v1/chat/completions", `{"model":"general","messages":[{"role":"user","content":"` + strings.Repeat("a", 2000) + `"}]}`, 413},
		{"GET", "/v2/things", "", 404},
		{"GET", "/v1/chat/completions", "", 405},
		{"GET", "/v1/models", "", 200},
		{"POST", "/v1/chat/completions", chat("general", false), 200},
	} {
		if r := do(t, tt.method, f.inference+tt.path, "", tt.body); r.status != tt.status {
			t.Fatalf("%s %s: %d %s, want %d", tt.method, tt.path, r.status, r.body, tt.status)
		}
	}
	for _, c := range []struct {
		model, code string
	}{{"none", "400"}, {"none", "413"}, {"none", "404"}, {"none", "405"}, {"none", "200"}, {"general", "200"}} {
		// Counted once the answer has left: the client may read it first.
		counter := f.metrics.Requests.WithLabelValues("inference", c.model, c.code)
		waitFor(t, fmt.Sprintf("requests_total{endpoint=inference, model=%s, code=%s} is 1", c.model, c.code),
			func() bool { return testutil.ToFloat64(counter) == 1 })
	}
}

// TestTimeToFirstTokenIsTheClients: time_to_first_token_seconds runs from the request's
// arrival, so a model that failed before the fallback answered counts in it.
func TestTimeToFirstTokenIsTheClients(t *testing.T) {
	t.Parallel()
	const slow = 100 * time.Millisecond
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(slow) // a model that takes its time to fail
		http.Error(w, `{"error":{"message":"down"}}`, http.StatusBadGateway)
	}))
	t.Cleanup(failing.Close)
	f := newFixture(t, `
models:
  - model_name: a
    fallbacks: [b]
    provider: {type: openai_compatible, base_url: `+failing.URL+`/v1}
  - model_name: b
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 0s}}
`, nil)
	if r := do(t, "POST", f.inference+"/v1/chat/completions", "", chat("a", true)); r.status != http.StatusOK || r.header.Get("X-Vsr-Selected-Model") != "b" {
		t.Fatalf("%d %s (model %s), want 200 from b", r.status, r.body, r.header.Get("X-Vsr-Selected-Model"))
	}
	mfs, err := f.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() == "semantic_router_time_to_first_token_seconds" {
			for _, m := range mf.GetMetric() {
				n, sum = n+m.GetHistogram().GetSampleCount(), sum+m.GetHistogram().GetSampleSum()
				if l := m.GetLabel(); len(l) != 1 || l[0].GetValue() != "b" {
					t.Errorf("time_to_first_token_seconds labels %v, want model b", l)
				}
			}
		}
	}
	if n != 1 || sum < slow.Seconds() {
		t.Errorf("time_to_first_token_seconds: %d samples, %.3fs; want 1 of at least %s", n, sum, slow)
	}
}
