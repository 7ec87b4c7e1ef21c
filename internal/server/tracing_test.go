package server

import (
	"bufio"
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
	"github.com/semantic-router/semantic-router/internal/logtest"
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
	inf, exp, _ := tracedInference(t, `
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: `+be.URL+`/v1}
  - model_name: down
    provider: {type: openai_compatible, base_url: "http://127.0.0.1:1/v1"}
`)

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
			r := do(t, "POST", inf+"/v1/chat/completions", "", tt.body)
			if r.status != tt.status {
				t.Fatalf("status %d %s, want %d", r.status, r.body, tt.status)
			}
			want := strings.ReplaceAll(tt.desc, "{id}", r.header.Get(HeaderRequestID))
			server := serverSpan(t, exp)
			if server.Status.Code != tt.code || server.Status.Description != want {
				t.Errorf("server span status %v %q, want %v %q", server.Status.Code, server.Status.Description, tt.code, want)
			}
		})
	}
}

// TestClientGoneMidStream: a client that goes away in the middle of a stream is noted on the
// access line, at info, and is not an error of the server span: nothing failed on the
// router's side.
func TestClientGoneMidStream(t *testing.T) {
	t.Parallel()
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"up","choices":[{"index":0,"delta":{"content":"hel"},"finish_reason":null}]}`+"\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the rest never comes: the router cancels the call
	}))
	t.Cleanup(be.Close)
	inf, exp, logs := tracedInference(t, "models:\n  - model_name: m\n    provider: {type: openai_compatible, base_url: "+be.URL+"/v1}\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", inf+"/v1/chat/completions", strings.NewReader(chat("m", true)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(HeaderRequestID, "gone-1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
		t.Fatalf("first event: %v", err)
	}
	cancel()
	resp.Body.Close()

	server := serverSpan(t, exp)
	if server.Status.Code != codes.Unset {
		t.Errorf("server span status %v %q, want unset", server.Status.Code, server.Status.Description)
	}
	var line string
	waitFor(t, "the access line", func() bool {
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, `"msg":"request","request_id":"gone-1"`) {
				line = l
				return true
			}
		}
		return false
	})
	want := `{"level":"INFO","msg":"request","request_id":"gone-1","method":"POST","path":"/v1/chat/completions","status":200,"model":"m","selected_model":"m","stream":true,` +
		`"error":"upstream model server for model \"m\" was not waited for: the client went away (request id gone-1)"}`
	if line != want {
		t.Errorf("access line\n%s\nwant\n%s", line, want)
	}
}

// tracedInference serves the inference listener on yaml's models with every span recorded in
// memory and the log, at info, without times, in a buffer.
func tracedInference(t *testing.T, yaml string) (string, *tracetest.InMemoryExporter, *logtest.Buffer) {
	t.Helper()
	cfg, err := config.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	tracing := &telemetry.Tracing{Provider: tp, Propagator: propagation.TraceContext{}}
	logs := &logtest.Buffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey || a.Key == "latency_ms" || a.Key == "trace_id" {
			return slog.Attr{}
		}
		return a
	}}))
	rt, err := router.New(cfg, router.Options{Logger: log, Tracing: tracing})
	if err != nil {
		t.Fatal(err)
	}
	holder := router.NewHolder(rt)
	t.Cleanup(func() { _ = holder.Close() })
	inf := httptest.NewServer(NewInference(router.NewPipeline(holder, router.PipelineOptions{Logger: log, Tracing: tracing}), log, nil))
	t.Cleanup(inf.Close)
	return inf.URL, exp, logs
}

// serverSpan waits for the inference listener's span of a chat request and returns it.
func serverSpan(t *testing.T, exp *tracetest.InMemoryExporter) *tracetest.SpanStub {
	t.Helper()
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
	return server
}

// TestServerSpanNamesTheCacheOutcome: the server span of a request the cache applies to says
// whether the cache answered it, since a hit has no upstream span.
func TestServerSpanNamesTheCacheOutcome(t *testing.T) {
	t.Parallel()
	inf, exp, _ := tracedInference(t, simModels+"cache: {enabled: true, mode: exact}\n")
	body := `{"model":"general","temperature":0,"messages":[{"role":"user","content":"what is the capital of France?"}]}`
	// cacheAttr waits for the server span of request id and returns its vsr.cache.
	cacheAttr := func(id string) string {
		var got string
		waitFor(t, "the server span of "+id, func() bool {
			for _, s := range exp.GetSpans() {
				attrs := map[string]string{}
				for _, a := range s.Attributes {
					attrs[string(a.Key)] = a.Value.String()
				}
				if s.Name == "POST /v1/chat/completions" && attrs["vsr.request_id"] == id {
					got = attrs["vsr.cache"]
					return true
				}
			}
			return false
		})
		return got
	}
	r := do(t, "POST", inf+"/v1/chat/completions", "", body)
	if r.status != http.StatusOK || r.header.Get(router.HeaderCache) != "miss" {
		t.Fatalf("%d %s, x-vsr-cache %q; want 200, miss", r.status, r.body, r.header.Get(router.HeaderCache))
	}
	if got := cacheAttr(r.header.Get(HeaderRequestID)); got != "miss" {
		t.Errorf("server span vsr.cache = %q, want miss", got)
	}
	// The answer is stored once it has left: ask until the cache has it.
	waitFor(t, "a cache hit", func() bool {
		r = do(t, "POST", inf+"/v1/chat/completions", "", body)
		return r.header.Get(router.HeaderCache) == "hit"
	})
	if got := cacheAttr(r.header.Get(HeaderRequestID)); got != "hit" {
		t.Errorf("server span vsr.cache = %q, want hit", got)
	}
}
