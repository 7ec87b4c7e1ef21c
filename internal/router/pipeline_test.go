package router

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// serve sends req through the whole pipeline over r and returns the whole answer.
func serve(r *Router, req *openai.ChatRequest) (*provider.Response, Route, error) {
	return serveOn(NewPipeline(NewHolder(r), PipelineOptions{}), req)
}

// serveOn sends req through p with the request id "test" and returns the whole answer.
func serveOn(p *Pipeline, req *openai.ChatRequest) (*provider.Response, Route, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, Route{}, err
	}
	res, trail, err := p.Serve(context.Background(), &Request{ID: "test", Header: http.Header{}, Body: bytes.NewReader(body)})
	if err != nil {
		return nil, trail.Route, err
	}
	defer res.Close()
	return res.Response, trail.Route, nil
}

// TestRefusedBeforeTheBodyIsRead: a client without a valid key, over its key's request
// limit, or beyond max_in_flight is refused before a byte of its body is read.
func TestRefusedBeforeTheBodyIsRead(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, `admission:
  api_keys: [{name: team, key: env.TEAM_KEY, requests_per_minute: 1}]
`+simModels, map[string]string{"TEAM_KEY": "sk-team"}, Options{})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	body := chatBody("m", "hi", false)

	res, trail, err := p.Serve(context.Background(), &Request{ID: "r0", Header: bearer("sk-team"), Body: newBody(body)})
	if err != nil {
		t.Fatalf("the first request: %v", err)
	}
	res.Close()
	if trail.Client != "team" {
		t.Errorf("Trail.Client = %q, want team", trail.Client)
	}

	for _, tt := range []struct {
		name, key  string
		status     int
		code, msg  string
		client     string
		retryAfter bool
	}{
		{"no key", "", 401, "invalid_api_key", "missing API key: send it as Authorization: Bearer <key>", "", false},
		{"a wrong key", "sk-wrong", 401, "invalid_api_key", "the API key is not valid", "", false},
		{"the key's requests per minute spent", "sk-team", 429, "rate_limit_exceeded",
			`API key "team" is at its limit of 1 requests per minute; retry after the Retry-After header's seconds`, "team", true},
	} {
		b := newBody(body)
		res, trail, err := p.Serve(context.Background(), &Request{ID: "r1", Header: bearer(tt.key), Body: b})
		if res != nil {
			t.Fatalf("%s: served", tt.name)
		}
		e := apiErr(t, err)
		if e.Status != tt.status || e.Code != tt.code || e.Message != tt.msg || (e.RetryAfter > 0) != tt.retryAfter {
			t.Errorf("%s: got %d %s %q retry-after %v; want %d %s %q", tt.name, e.Status, e.Code, e.Message, e.RetryAfter, tt.status, tt.code, tt.msg)
		}
		if b.read.Load() {
			t.Errorf("%s: the body was read", tt.name)
		}
		if trail.Client != tt.client || trail.Model != "" || trail.Stream || trail.Route.Model != "" {
			t.Errorf("%s: Trail = %+v, want only the client %q", tt.name, trail, tt.client)
		}
	}
}

// TestMaxInFlight: with max_in_flight 1, a request holds the slot until its Result is
// closed; another is refused with 503 before its body is read, and one after Close is served.
func TestMaxInFlight(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, "admission: {max_in_flight: 1}\n"+simModels, nil, Options{})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	first, _, err := p.Serve(context.Background(), &Request{ID: "a", Header: http.Header{}, Body: newBody(chatBody("m", "hi", true))})
	if err != nil {
		t.Fatalf("first: %v", err)
	}
	b := newBody(chatBody("m", "hi", false))
	_, _, err = p.Serve(context.Background(), &Request{ID: "b", Header: http.Header{}, Body: b})
	e := apiErr(t, err)
	want := "the router is serving its maximum of 1 requests (admission.max_in_flight) and every in-flight slot and queue place is taken; retry shortly"
	if e.Status != http.StatusServiceUnavailable || e.Code != "overloaded" || e.Message != want || e.RetryAfter != time.Second {
		t.Errorf("second: %d %s %q %v; want 503 overloaded %q 1s", e.Status, e.Code, e.Message, e.RetryAfter, want)
	}
	if b.read.Load() {
		t.Error("the refused request's body was read")
	}
	drain(t, first.Stream)
	first.Close()
	first.Close() // a second Close frees nothing more
	third, _, err := p.Serve(context.Background(), &Request{ID: "c", Header: http.Header{}, Body: newBody(chatBody("m", "hi", false))})
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	third.Close()
}

// TestReadBody: the body is read up to server.max_request_body_bytes; past it 413, a read
// deadline 408 and any other read error 400, with exact messages.
func TestReadBody(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		body   io.Reader
		want   string
		status int
		code   string
		msg    string
		cause  error
	}{
		{"at the limit", strings.NewReader(strings.Repeat("x", 1024)), strings.Repeat("x", 1024), 0, "", "", nil},
		{"no body", nil, "", 0, "", "", nil},
		{"one byte past the limit", strings.NewReader(strings.Repeat("x", 1025)), "", 413, "request_too_large",
			"the request body is larger than 1024 bytes (server.max_request_body_bytes)", nil},
		{"the read deadline passed", &probeBody{err: fmt.Errorf("read tcp 127.0.0.1:8801: %w", os.ErrDeadlineExceeded)}, "", 408, "request_timeout",
			"the request body did not arrive in time (server.read_timeout)", os.ErrDeadlineExceeded},
		{"the connection broke", &probeBody{err: errors.New("connection reset by peer")}, "", 400, "",
			"reading the request body: connection reset by peer", nil},
	} {
		got, err := ReadBody(tt.body, -1, 1024)
		if tt.status == 0 {
			if err != nil || string(got) != tt.want {
				t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
			}
			continue
		}
		e := apiErr(t, err)
		if got != nil || e.Status != tt.status || e.Code != tt.code || e.Message != tt.msg || e.Type != openai.TypeInvalidRequest {
			t.Errorf("%s: %q, %d %s %s %q; want %d %s %q", tt.name, got, e.Status, e.Type, e.Code, e.Message, tt.status, tt.code, tt.msg)
		}
		if tt.cause != nil && !errors.Is(err, tt.cause) {
			t.Errorf("%s: the cause is lost", tt.name)
		}
	}
}

// TestServeRefusesBadBodies: the body limit and the parser apply through Serve, and the
// Trail says what is known of the request.
func TestServeRefusesBadBodies(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, "server: {max_request_body_bytes: 1024}\n"+simModels+`  - model_name: hidden
    exposed: false
    provider: {type: sim}
`, nil, Options{})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	b := &probeBody{err: fmt.Errorf("read tcp 127.0.0.1:8801->127.0.0.1:50000: i/o timeout: %w", os.ErrDeadlineExceeded)}
	_, trail, err := p.Serve(context.Background(), &Request{ID: "x", Header: http.Header{}, Body: b})
	if e := apiErr(t, err); e.Status != http.StatusRequestTimeout || e.Message != "the request body did not arrive in time (server.read_timeout)" ||
		trail.Model != "" {
		t.Errorf("a body past its deadline: %d %q, Trail %+v", e.Status, e.Message, trail)
	}
	for _, tt := range []struct {
		name, body string
		status     int
		msg        string
		trail      Trail
	}{
		{"too large", chatBody("m", strings.Repeat("y", 1100), false), 413,
			"the request body is larger than 1024 bytes (server.max_request_body_bytes)", Trail{}},
		{"not JSON", `{"model": "m", "messages": [`, 400,
			"the request body is not valid JSON (at byte 28): unexpected end of JSON input", Trail{}},
		{"an unknown model", chatBody("gpt-9", "hi", true), 404,
			`the model "gpt-9" does not exist; GET /v1/models lists the models you can use, or send "auto" to let the router choose`,
			Trail{Model: "unknown", Stream: true}},
		{"a hidden model", chatBody("hidden", "hi", false), 404,
			`the model "hidden" does not exist; GET /v1/models lists the models you can use, or send "auto" to let the router choose`,
			Trail{Model: "hidden"}},
	} {
		_, trail, err := p.Serve(context.Background(), &Request{ID: "x", Header: http.Header{}, Body: newBody(tt.body)})
		e := apiErr(t, err)
		if e.Status != tt.status || e.Message != tt.msg {
			t.Errorf("%s: %d %q; want %d %q", tt.name, e.Status, e.Message, tt.status, tt.msg)
		}
		if trail.Client != tt.trail.Client || trail.Model != tt.trail.Model || trail.Stream != tt.trail.Stream {
			t.Errorf("%s: Trail = %+v, want %+v", tt.name, trail, tt.trail)
		}
	}
}

// TestTrailOfServedRequests: the Trail carries the model label, the stream flag and the
// route as served.
func TestTrailOfServedRequests(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, simModels, nil, Options{})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	for _, tt := range []struct {
		model    string
		stream   bool
		decision string
		explain  string
	}{
		{"m", false, "", "x-vsr-selected-model=m"},
		{"m", true, "", "x-vsr-selected-model=m"},
		{"auto", true, "default", "x-vsr-selected-model=m x-vsr-selected-decision=default x-vsr-selected-confidence=1.00"},
	} {
		res, trail, err := p.Serve(context.Background(), &Request{ID: "x", Header: http.Header{}, Body: newBody(chatBody(tt.model, "hi", tt.stream))})
		if err != nil {
			t.Fatalf("%s: %v", tt.model, err)
		}
		if trail.Model != tt.model || trail.Stream != tt.stream || trail.Route.Model != "m" || trail.Route.Decision != tt.decision {
			t.Errorf("%s stream=%v: Trail = %+v", tt.model, tt.stream, trail)
		}
		if got := joinHeaders(res.Explain()); got != tt.explain {
			t.Errorf("%s stream=%v: Explain() = %s, want %s", tt.model, tt.stream, got, tt.explain)
		}
		if (res.Stream != nil) != tt.stream || (res.Response != nil) == tt.stream {
			t.Errorf("%s stream=%v: Result has stream %v, response %v", tt.model, tt.stream, res.Stream != nil, res.Response != nil)
		}
		if res.Stream != nil {
			drain(t, res.Stream)
		}
		res.Close()
	}
}

// TestRefusalsAfterRoutingAreExplained: a block and an upstream failure carry the headers
// that explain the route in APIError.Header; refusals before routing carry none.
func TestRefusalsAfterRoutingAreExplained(t *testing.T) {
	t.Parallel()
	up := newUpstream(t)
	up.failAlways(http.StatusInternalServerError)
	r := buildRouter(t, `models:
  - model_name: m
    provider: {type: openai_compatible, base_url: `+up.URL+`/v1}
signals:
  keywords:
    - {name: secret, keywords: [classified]}
decisions:
  - {name: no_secrets, priority: 10, rules: {signal: secret}, headers: {X-Policy: Secrets}, block: {status: 451, message: "not here"}}
`, nil, Options{})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	debug := http.Header{}
	debug.Set(HeaderDebug, "true")
	for _, tt := range []struct {
		name, body string
		h          http.Header
		status     int
		header     map[string]string
	}{
		{"a block", chatBody("auto", "classified plans", false), debug, 451, map[string]string{
			"x-policy": "Secrets", "x-vsr-selected-decision": "no_secrets", "x-vsr-selected-confidence": "1.00", "x-vsr-matched-signals": "secret"}},
		{"an upstream failure", chatBody("auto", "hello", false), http.Header{}, 502, map[string]string{
			"x-vsr-selected-model": "m", "x-vsr-selected-decision": "default", "x-vsr-selected-confidence": "1.00"}},
		{"an upstream failure of a stream", chatBody("m", "hello", true), http.Header{}, 502, map[string]string{"x-vsr-selected-model": "m"}},
		{"an unknown model", chatBody("gpt-9", "hello", false), debug, 404, map[string]string{"x-vsr-matched-signals": ""}},
		{"bad JSON", "{", debug, 400, nil},
	} {
		_, _, err := p.Serve(context.Background(), &Request{ID: "x", Header: tt.h, Body: newBody(tt.body)})
		e := apiErr(t, err)
		if e.Status != tt.status || fmt.Sprint(e.Header) != fmt.Sprint(tt.header) {
			t.Errorf("%s: %d %v; want %d %v", tt.name, e.Status, e.Header, tt.status, tt.header)
		}
	}
}

// TestCloseChargesTheUsage: a key's tokens_per_minute is charged with the answer's usage
// when the Result is closed, whole answers and streams alike; the next request gets 429.
func TestCloseChargesTheUsage(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		r := buildRouter(t, `admission:
  api_keys: [{name: team, key: env.TEAM_KEY, tokens_per_minute: 10}]
`+simModels, map[string]string{"TEAM_KEY": "sk-team"}, Options{})
		p := NewPipeline(NewHolder(r), PipelineOptions{})
		req := func() (*Result, error) {
			res, _, err := p.Serve(context.Background(), &Request{ID: "x", Header: bearer("sk-team"),
				Body: newBody(chatBody("m", "count every one of these words please", stream))})
			return res, err
		}
		first, err := req()
		if err != nil {
			t.Fatalf("stream=%v: first: %v", stream, err)
		}
		// Nothing is charged until the answer is done: a second request is admitted.
		second, err := req()
		if err != nil {
			t.Fatalf("stream=%v: second before Close: %v", stream, err)
		}
		for _, res := range []*Result{first, second} {
			if res.Stream != nil {
				drain(t, res.Stream)
			}
			res.Close()
		}
		_, err = req()
		e := apiErr(t, err)
		want := `API key "team" is at its limit of 10 tokens per minute; retry after the Retry-After header's seconds`
		if e.Status != http.StatusTooManyRequests || e.Message != want || e.RetryAfter < time.Second {
			t.Errorf("stream=%v: after Close: %d %q %v; want 429 %q", stream, e.Status, e.Message, e.RetryAfter, want)
		}
	}
}

// TestReloadWaitsForTheRequest: a router replaced while a request holds it is closed only
// when that request's Result is closed; new requests get the new router, and a refused
// request holds nothing.
func TestReloadWaitsForTheRequest(t *testing.T) {
	t.Parallel()
	old := buildRouter(t, simModels, nil, Options{})
	next := buildRouter(t, strings.ReplaceAll(simModels, "model_name: m", "model_name: n"), nil, Options{})
	h := NewHolder(old)
	p := NewPipeline(h, PipelineOptions{})
	res, _, err := p.Serve(context.Background(), &Request{ID: "x", Header: http.Header{}, Body: newBody(chatBody("m", "hi", true))})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Serve(context.Background(), &Request{ID: "y", Header: http.Header{}, Body: newBody("{")}); err == nil {
		t.Fatal("bad JSON was served")
	}
	drained := h.Swap(next)
	if closed(drained) {
		t.Fatal("the old router was closed under a running request")
	}
	_, trail, err := p.Serve(context.Background(), &Request{ID: "z", Header: http.Header{}, Body: newBody(chatBody("m", "hi", false))})
	if e := apiErr(t, err); e.Status != http.StatusNotFound || trail.Model != "unknown" {
		t.Errorf("a request after the swap: %d, model label %q; want 404 from the new router, which has no m", e.Status, trail.Model)
	}
	if got := drain(t, res.Stream); len(got) == 0 {
		t.Error("the running stream got no chunk")
	}
	if closed(drained) {
		t.Fatal("the old router was closed before the request's Close")
	}
	res.Close()
	if !closed(drained) {
		t.Fatal("the old router was not closed after the request's Close")
	}
}

// TestEveryLogLineNamesTheRequest: each line a request logs carries its request_id and,
// with a span in the context, its trace_id; after routing, the model and the decision.
func TestEveryLogLineNamesTheRequest(t *testing.T) {
	t.Parallel()
	up := newUpstream(t)
	up.failAlways(http.StatusBadGateway)
	r := buildRouter(t, `models:
  - model_name: a
    provider: {type: openai_compatible, base_url: `+up.URL+`/v1}
    retry: {max_attempts: 2, initial_backoff: 1ms, max_backoff: 1ms}
    fallbacks: [b]
  - model_name: b
    provider: {type: sim, sim: {first_token_latency: 1ms, token_latency: 1ms}}
routing: {default_model: b}
signals:
  keywords:
    - {name: urgent, keywords: [urgent]}
decisions:
  - {name: urgent, priority: 10, rules: {signal: urgent}, models: [{model: a}]}
`, nil, Options{})
	var buf bytes.Buffer
	var mu sync.Mutex
	log := slog.New(slog.NewJSONHandler(&lockedWriter{w: &buf, mu: &mu}, nil))
	tracing, _ := newTracing(t)
	p := NewPipeline(NewHolder(r), PipelineOptions{Logger: log, Tracing: tracing})
	ctx, span := tracing.Tracer().Start(context.Background(), "request")
	defer span.End()
	res, trail, err := p.Serve(ctx, &Request{ID: "req-42", Header: http.Header{}, Body: newBody(chatBody("auto", "urgent: hi", false))})
	if err != nil {
		t.Fatal(err)
	}
	res.Close()
	if trail.Route.Model != "b" || trail.Route.FallbackFrom != "a" {
		t.Fatalf("route = %+v, want b after a", trail.Route)
	}
	// The answer explains the route as served.
	if got, want := joinHeaders(res.Explain()), "x-vsr-selected-model=b x-vsr-fallback-from=a x-vsr-selected-decision=urgent x-vsr-selected-confidence=1.00"; got != want {
		t.Errorf("Explain() = %s, want %s", got, want)
	}
	mu.Lock()
	lines := logLines(t, buf.Bytes())
	mu.Unlock()
	var msgs []string
	traceID := span.SpanContext().TraceID().String()
	for _, l := range lines {
		msgs = append(msgs, fmt.Sprint(l["msg"]))
		if l[LogKeyRequestID] != "req-42" || l[LogKeyTraceID] != traceID || l[LogKeyModel] != "a" || l[LogKeyDecision] != "urgent" {
			t.Errorf("log line %v lacks request_id req-42, trace_id %s, model a or decision urgent", l, traceID)
		}
	}
	if got := strings.Join(msgs, "|"); got != "retrying|falling back" {
		t.Errorf("log messages = %q, want retrying|falling back", got)
	}

	// Without a span there is no trace_id, and a request naming its model has no decision.
	buf.Reset()
	res, _, err = p.Serve(context.Background(), &Request{ID: "req-43", Header: http.Header{}, Body: newBody(chatBody("a", "urgent", false))})
	if err != nil {
		t.Fatal(err)
	}
	res.Close()
	mu.Lock()
	lines = logLines(t, buf.Bytes())
	mu.Unlock()
	if len(lines) == 0 {
		t.Fatal("a retried request logged nothing")
	}
	for _, l := range lines {
		if _, ok := l[LogKeyTraceID]; ok || l[LogKeyRequestID] != "req-43" || l[LogKeyModel] != "a" {
			t.Errorf("log line %v: want request_id req-43, model a and no trace_id", l)
		}
		if _, ok := l[LogKeyDecision]; ok {
			t.Errorf("log line %v of a request naming its model has a decision", l)
		}
	}
}

// TestStartSpanContinuesTheCallersTrace: with tracing, the front door's span joins the
// trace of the request's traceparent; without, it records nothing.
func TestStartSpanContinuesTheCallersTrace(t *testing.T) {
	t.Parallel()
	tracing, exp := newTracing(t)
	p := NewPipeline(NewHolder(newSimRouter(t)), PipelineOptions{Tracing: tracing})
	h := http.Header{"Traceparent": {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}
	_, span := p.StartSpan(context.Background(), "chat", h)
	span.End()
	spans := exp.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans, want 1", len(spans))
	}
	s := spans[0]
	if s.Name != "chat" || s.SpanKind != trace.SpanKindServer || s.SpanContext.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" ||
		s.Parent.SpanID().String() != "00f067aa0ba902b7" {
		t.Errorf("span %s kind %v trace %s parent %s; want chat, server, the caller's trace and span", s.Name, s.SpanKind, s.SpanContext.TraceID(), s.Parent.SpanID())
	}
	_, span = NewPipeline(NewHolder(newSimRouter(t)), PipelineOptions{}).StartSpan(context.Background(), "chat", h)
	if span.IsRecording() || span.SpanContext().IsValid() {
		t.Error("a pipeline without tracing recorded a span")
	}
	span.End()

	// Tracing off, as the router runs without a tracing section: nothing is recorded, and
	// the caller's trace context, when there is one, is carried on to the model server.
	passive := &telemetry.Tracing{Provider: tracenoop.NewTracerProvider(), Propagator: propagation.TraceContext{}}
	pp := NewPipeline(NewHolder(newSimRouter(t)), PipelineOptions{Tracing: passive})
	ctx, span := pp.StartSpan(context.Background(), "chat", h)
	if span.IsRecording() || trace.SpanContextFromContext(ctx).TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("tracing off, with a traceparent: recording %v, trace %s in the context; want the caller's, not recording",
			span.IsRecording(), trace.SpanContextFromContext(ctx).TraceID())
	}
	ctx, span = pp.StartSpan(context.Background(), "chat", http.Header{"Content-Type": {"application/json"}})
	if span.IsRecording() || trace.SpanContextFromContext(ctx).IsValid() {
		t.Error("tracing off, without a traceparent: a span context appeared")
	}
}

// TestModelsForAKey: a key limited to some models sees only those, the virtual model first.
func TestModelsForAKey(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, `admission:
  api_keys:
    - {name: narrow, key: env.NARROW, models: [auto, n]}
    - {name: wide, key: env.WIDE}
models:
  - {model_name: m, provider: {type: sim}}
  - {model_name: n, provider: {type: sim}}
  - {model_name: h, exposed: false, provider: {type: sim}}
`, map[string]string{"NARROW": "sk-narrow", "WIDE": "sk-wide"}, Options{})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	for key, want := range map[string]string{"sk-narrow": "auto n", "sk-wide": "auto m n"} {
		got, err := p.Models(bearer(key))
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("%s: %q, %v; want %q", key, got, err, want)
		}
	}
	_, err := p.Models(bearer("sk-other"))
	if e := apiErr(t, err); e.Status != 401 || e.Message != "the API key is not valid" {
		t.Errorf("a wrong key: %d %q", e.Status, e.Message)
	}
}
