package server

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/redact"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// BenchmarkInference is a chat request through the front door as the router serves it: the
// listener's guard, the request id, the pipeline, the answer's headers and body, the access
// line (JSON, through the redacting handler, to a discarded output) and the request metrics.
// The model is simulated and answers at once, so what is measured is the router's own work
// for a request naming its model (no signals); BenchmarkCompleteDirect in internal/router is
// the pipeline alone, and the difference is the front door's.
func BenchmarkInference(b *testing.B) {
	cfg, err := config.Parse([]byte(`
models:
  - model_name: general
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 0s, reply: ok}}
`))
	if err != nil {
		b.Fatal(err)
	}
	redactor := redact.New()
	// Formatted as in production, then dropped: the line's cost is part of the front door's.
	log := slog.New(redact.Handler(slog.NewJSONHandler(io.Discard, nil), redactor)) //nolint:sloglint // see above
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	rt, err := router.New(cfg, router.Options{Logger: log, Metrics: metrics, Redactor: redactor})
	if err != nil {
		b.Fatal(err)
	}
	holder := router.NewHolder(rt)
	b.Cleanup(func() { _ = holder.Close() })
	h := guard(NewInference(router.NewPipeline(holder, router.PipelineOptions{Logger: log}), log, metrics), cfg.Server.ServerLimits)
	body := []byte(`{"model":"general","messages":[{"role":"user","content":"What is the capital city of France today?"}]}`)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := &connWriter{httptest.NewRecorder()}
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}

// connWriter is a recorder with the connection controls a server's ResponseWriter has, which
// the router uses (deadlines, full duplex): without them each use would be an error made and
// dropped, which a served request does not pay.
type connWriter struct{ *httptest.ResponseRecorder }

func (connWriter) SetReadDeadline(time.Time) error  { return nil }
func (connWriter) SetWriteDeadline(time.Time) error { return nil }
func (connWriter) EnableFullDuplex() error          { return nil }
