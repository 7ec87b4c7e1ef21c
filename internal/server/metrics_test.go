package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
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
