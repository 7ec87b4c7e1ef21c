package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// TestServerSpanStatus: the server span of a failed request is an error whose description
// says what failed, also for a stream that failed after its 200 was sent.
func TestServerSpanStatus(t *testing.T) {
	t.Parallel()
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		// One event, then the backend ends its answer with neither a finish_reason nor [DONE].
		fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"up","choices":[{"index":0,"delta":{"content":"hel"},"finish_reason":null}]}`+"\n\n")
	}))
	t.Cleanup(be.Close)
	cfg, err := config.Parse([]byte(`
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: ` + be.URL + `/v1}
  - model_name: down
    provider: {type: openai_compatible, base_url: "http://127.0.0.1:1/v1"}
`))
	if err != nil {
		t.Fatal(err)
	}
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	tracing := &telemetry.Tracing{Provider: tp, Propagator: propagation.TraceContext{}}
	log := slog.New(slog.DiscardHandler)
	rt, err := router.New(cfg, router.Options{Logger: log, Tracing: tracing})
	if err != nil {
		t.Fatal(err)
	}
	holder := router.NewHolder(rt)
	t.Cleanup(func() { _ = holder.Close() })
	inf := httptest.NewServer(NewInference(router.NewPipeline(holder, router.PipelineOptions{Logger: log, Tracing: tracing}), log, nil))
	t.Cleanup(inf.Close)

	for _, tt := range []struct {
		name, body string
		status     int
		code       codes.Code
		desc       string
	}{
		{"a whole answer that failed", chat("down", false), http.StatusBadGateway, codes.Error, "Bad Gateway"},
		{"a stream that failed after its 200", chat("m", true), http.StatusOK, codes.Error,
			`upstream model server for model "m" sent a malformed stream (request id {id})`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			exp.Reset()
			r := do(t, "POST", inf.URL+"/v1/chat/completions", "", tt.body)
			if r.status != tt.status {
				t.Fatalf("status %d %s, want %d", r.status, r.body, tt.status)
			}
			want := strings.ReplaceAll(tt.desc, "{id}", r.header.Get(HeaderRequestID))
			var server *tracetest.SpanStub
			waitFor(t, "the server span", func() bool {
				for _, s := range exp.GetSpans() {
					if s.Name == "POST /v1/chat/completions" {
						server = &s
						return true
					}
				}
				return false
			})
			if server.Status.Code != tt.code || server.Status.Description != want {
				t.Errorf("server span status %v %q, want %v %q", server.Status.Code, server.Status.Description, tt.code, want)
			}
		})
	}
}
