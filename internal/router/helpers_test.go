package router

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// Helpers shared by the package's tests.

// buildRouter builds a router from a YAML configuration, with env as its whole environment;
// it is closed with t.
func buildRouter(t *testing.T, yaml string, env map[string]string, o Options) *Router {
	t.Helper()
	cfg, err := config.Parse([]byte(yaml))
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	o.LookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	r, err := New(cfg, o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// probeBody is a request body that records whether anyone read it.
type probeBody struct {
	r    io.Reader
	err  error // returned by every read when set
	read atomic.Bool
}

func (b *probeBody) Read(p []byte) (int, error) {
	b.read.Store(true)
	if b.err != nil {
		return 0, b.err
	}
	return b.r.Read(p)
}

func newBody(s string) *probeBody { return &probeBody{r: strings.NewReader(s)} }

// chatBody is the JSON body of a one-message chat request.
func chatBody(model, prompt string, stream bool) string {
	b, _ := json.Marshal(map[string]any{"model": model, "stream": stream,
		"messages": []map[string]string{{"role": "user", "content": prompt}}})
	return string(b)
}

// bearer returns headers carrying key as the client's API key ("" for none).
func bearer(key string) http.Header {
	h := http.Header{}
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	return h
}

// apiErr returns err as an *openai.APIError, failing the test when it is not one.
func apiErr(t *testing.T, err error) *openai.APIError {
	t.Helper()
	var e *openai.APIError
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *openai.APIError", err, err)
	}
	return e
}

// drain reads a stream to its end.
func drain(t *testing.T, s *Stream) [][]byte {
	t.Helper()
	var out [][]byte
	for {
		data, err := s.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		out = append(out, bytes.Clone(data))
	}
}

// newTracing returns tracing that records every span in memory, with W3C trace context.
func newTracing(t *testing.T) (*telemetry.Tracing, *tracetest.InMemoryExporter) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return &telemetry.Tracing{Provider: tp, Propagator: propagation.TraceContext{}}, exp
}

const simModels = `models:
  - model_name: m
    provider: {type: sim, sim: {first_token_latency: 1ms, token_latency: 1ms}}
`

// logLines decodes the JSON log lines in b.
func logLines(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}
