package router

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// Pipeline is the request path both front doors drive, stage by stage: the router that serves
// now is held for the request's life; the client is authenticated and admitted before its
// body is read; the body is read within server.max_request_body_bytes and parsed; the model's
// limits are checked; signals and decisions pick the model; then Serve calls it (retries,
// fallbacks, endpoints) and Plan returns what Envoy needs to call it. Every error is an
// *openai.APIError whose status the pipeline chose; the front doors translate wire formats
// and nothing else. It is safe for concurrent use.
type Pipeline struct {
	src    *Holder
	log    *slog.Logger // nil: the router's
	tracer trace.Tracer
	prop   propagation.TextMapPropagator
	// passive: the tracer records nothing, so a span only carries a caller's trace context
	// on to the model server, and a request without one needs none.
	passive bool
	fields  []string // the header fields prop reads, canonical
}

// PipelineOptions are a pipeline's dependencies.
type PipelineOptions struct {
	// Logger writes the request path's lines; nil: each router's own.
	Logger *slog.Logger
	// Tracing traces requests; nil traces nothing.
	Tracing *telemetry.Tracing
}

// NewPipeline returns the pipeline serving each request with the router src holds when the
// request starts, to its end, whatever reloads happen meanwhile.
func NewPipeline(src *Holder, o PipelineOptions) *Pipeline {
	p := &Pipeline{src: src, log: o.Logger, tracer: noop.NewTracerProvider().Tracer(""), passive: true}
	if o.Tracing != nil {
		p.tracer, p.prop = o.Tracing.Tracer(), o.Tracing.Propagator
		_, p.passive = o.Tracing.Provider.(noop.TracerProvider)
	}
	if p.prop != nil {
		for _, f := range p.prop.Fields() {
			p.fields = append(p.fields, http.CanonicalHeaderKey(f))
		}
	}
	return p
}

// StartSpan starts a front door's server span for a request, continuing the caller's trace
// when h carries one (traceparent). The front door ends it once the answer is written.
func (p *Pipeline) StartSpan(ctx context.Context, name string, h http.Header) (context.Context, trace.Span) {
	if p.passive && !carriesAny(h, p.fields) {
		return ctx, trace.SpanFromContext(ctx) // a span that records nothing, as the tracer's would be
	}
	if p.prop != nil {
		ctx = p.prop.Extract(ctx, propagation.HeaderCarrier(h))
	}
	return p.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer))
}

// carriesAny reports whether h has any of the canonical fields.
func carriesAny(h http.Header, fields []string) bool {
	for _, f := range fields {
		if len(h[f]) > 0 {
			return true
		}
	}
	return false
}

// Request is a chat completion request as a front door received it.
type Request struct {
	// ID is the request's id, on every log line of the request and in its errors.
	ID string
	// Header holds the client's headers: Authorization carries the API key, the rest feed
	// header signals and x-vsr-debug.
	Header http.Header
	// Body is the JSON body. It is read only once the client is admitted, and no further
	// than server.max_request_body_bytes.
	Body io.Reader
	// Length is the body's length as the client announced it (Content-Length), or zero or
	// less when it did not. It sizes the buffer the body is read into, nothing more.
	Length int64
	// Waiter, when set, is told when a streamed request starts waiting for its model.
	Waiter StreamWaiter
}

// StreamWaiter is a front door that can keep a client's connection alive while a streamed
// request waits for its model's first event: a model that is slow to start (a long prompt,
// a queue, a thinking model) would otherwise leave the connection silent for longer than a
// proxy's idle timeout.
type StreamWaiter interface {
	// StreamWaiting is called once, on the request's goroutine, just before the model of a
	// streamed request that the cache did not answer is called, when keep-alives are on.
	// explain holds the explanation headers as routed (a fallback may change them by the
	// time Serve returns), keepAlive is server.stream_keepalive. From then until Serve
	// returns, the front door may send the stream's status, headers and keep-alive
	// comments; if it did, Serve's error must reach the client as an error event.
	StreamWaiting(explain [][2]string, keepAlive time.Duration)
}

// Trail is what is known of a request, for the front door's access log and request
// metrics, whether or not it was served.
type Trail struct {
	// Client is the API key's name; empty on an open listener or before authentication.
	Client string
	// Model is the requested model as a metric label: a configured name, the virtual
	// model, or "unknown"; empty when the body was never parsed.
	Model string
	// Stream is whether the client asked for a stream.
	Stream bool
	// Route is the routing decision, once taken.
	Route Route
	// Cache is the cache's outcome (hit, miss, bypass), or "" when the cache is off for it.
	Cache string
	// ModelFailed says the error is the model's failure after retries and fallbacks, which
	// semantic_router_errors_total has counted by its reason; a 4xx is then not the client's.
	ModelFailed bool
}

// Result is a served request: the whole answer or a stream whose first event has arrived.
// Close must be called once the answer is written (or abandoned).
type Result struct {
	// Response is the whole answer; nil for a stream.
	Response *provider.Response
	// Stream is the streamed answer; nil for a whole one.
	Stream *Stream

	explain [][2]string
	end     *exchange
	lookup  cacheLookup // a miss to store
}

// Explain returns the headers that explain the routing decision (see Route.Explain).
func (res *Result) Explain() [][2]string { return res.explain }

// Settle charges the answer's token usage to the client's and the model's rate limits and
// frees the in-flight slot. A front door calls it before the answer's last bytes leave, so
// that the client's next request finds the slot free, and Close after they have left: the
// client need not wait for the cache. Close settles a request that was not.
func (res *Result) Settle() {
	if res.end.ticket == nil {
		return
	}
	if res.Stream != nil {
		res.end.ticket.Done(res.Stream.Usage())
	} else if res.Response != nil {
		res.end.ticket.Done(res.Response.Usage)
	}
}

// Close ends the request: it closes the stream, stores a whole answer in the cache when the
// cache missed it, settles the request (see Settle) and lets go of the router.
func (res *Result) Close() {
	var u *openai.Usage
	if res.Stream != nil {
		_ = res.Stream.Close()
		u = res.Stream.Usage()
		if st := res.Stream; st.record != nil && st.complete && st.err == nil {
			if body, ok := st.record.Body(); ok {
				res.end.r.cacheStore(res.end.ctx, res.lookup, body)
			}
		}
	} else if res.Response != nil {
		u = res.Response.Usage
		res.end.r.cacheStore(res.end.ctx, res.lookup, res.Response.Body)
	}
	res.end.finish(u)
}

// Serve runs the whole pipeline for req and calls the chosen model. It always returns the
// request's Trail; the Result is nil when err is non-nil. err is an *openai.APIError: a
// refusal (401, 403, 404, 413, 429, 503, a policy's block), a bad request, or the model's
// failure after retries and fallbacks, carrying the explanation headers once routed.
func (p *Pipeline) Serve(ctx context.Context, req *Request) (*Result, *Trail, error) {
	// Serve and the steps it calls keep small frames, with the request's state in the
	// exchange: they run on the client connection's goroutine, whose stack, once grown,
	// is held for as long as the connection lives; a stream holds it for minutes.
	x, err := p.begin(ctx, req)
	if err != nil {
		return nil, &x.trail, err
	}
	if err := x.route(req.Header); err != nil {
		return nil, &x.trail, err
	}
	debug := debugRequested(req.Header.Get)
	res := x.fromCache(req.Header, debug)
	x.decided()
	if res != nil {
		return res, &x.trail, nil
	}
	res, err = x.call(req.Waiter, debug)
	return res, &x.trail, err
}

// route runs the signals and decisions, and keeps their outcome in x.rd. A refusal (unknown
// model, a block, a policy that could not be checked) ends the exchange and carries the
// explanation headers.
func (x *exchange) route(h http.Header) error {
	err := x.r.tracedRoute(x.ctx, x.chat, h, &x.rd)
	x.trail.Route = x.rd.rt
	if err != nil {
		x.finish(nil)
		return x.explained(err, x.rd.rt.Explain(debugRequested(h.Get)))
	}
	x.routed(&x.rd.rt)
	return nil
}

// fromCache looks the routed request up in the cache, keeping the outcome in x.lookup, and
// returns the answer of a hit; nil when the model is to be called.
func (x *exchange) fromCache(h http.Header, debug bool) *Result {
	x.lookup = x.r.cacheLookup(x.ctx, x.trail.Client, x.rd, h)
	if x.lookup.hit == nil {
		return nil
	}
	rt := x.rd.rt
	rt.Model = x.lookup.hit.Entry.Model
	res := &Result{Response: &provider.Response{Body: x.lookup.hit.Entry.Body}, end: x}
	if x.chat.Stream {
		so := x.chat.StreamOptions
		st, ok := x.r.replayStream(x.ctx, rt.Model, x.lookup.hit.Entry.Body, so != nil && so.IncludeUsage)
		if !ok {
			x.lookup = cacheLookup{outcome: CacheMiss} // an entry that cannot be replayed: call the model
			return nil
		}
		res.Response, res.Stream = nil, st
	}
	x.trail.Route, x.trail.Cache = rt, CacheHit
	res.explain = append(rt.Explain(debug), x.lookup.explain()...)
	return res
}

// call calls the routed model for the whole answer, or for a stream up to its first event.
// A fallback changes x.rd.rt to the route as served.
func (x *exchange) call(w StreamWaiter, debug bool) (*Result, error) {
	res := &Result{end: x}
	var err error
	if x.chat.Stream {
		if ka := x.r.keepAlive(); w != nil && ka > 0 {
			w.StreamWaiting(x.rd.rt.Explain(debug), ka)
		}
		res.Stream, err = x.r.stream(x.ctx, &x.rd)
	} else {
		res.Response, err = x.r.complete(x.ctx, &x.rd)
	}
	return x.called(res, err, debug)
}

// called completes the Result of a call to the model, or ends the exchange on its failure.
func (x *exchange) called(res *Result, err error, debug bool) (*Result, error) {
	// Sent: the request, often a whole conversation, is not kept for as long as a stream
	// lasts.
	x.chat, x.rd.req = nil, nil
	// A fallback changes the model: explain the route as served.
	x.trail.Route, x.trail.Cache = x.rd.rt, x.lookup.outcome
	res.explain = append(x.rd.rt.Explain(debug), x.lookup.explain()...)
	// The signals' results are in the explanation now; a stream does not keep them.
	x.rd.rt.Signals, x.trail.Route.Signals = nil, nil
	if err != nil {
		x.finish(nil)
		// A request the provider refused to translate is the client's error, counted as one.
		x.trail.ModelFailed = !errors.Is(err, provider.ErrRefused)
		return nil, x.explained(err, res.explain)
	}
	if x.lookup.entry != nil && x.rd.rt.FallbackFrom == "" {
		res.lookup = x.lookup // stored by Close, once the client has its answer
		if res.Stream != nil {
			res.Stream.record = &StreamAnswer{}
		}
	}
	return res, nil
}

// ModelOwner is the owned_by of the models GET /v1/models lists, on both front doors.
const ModelOwner = "semantic-router"

// Models returns the names the client of a request with headers h may use, the virtual
// model first: a key limited to some models sees only those. Errors are as Serve's 401.
func (p *Pipeline) Models(h http.Header) ([]string, error) {
	r, release := p.src.Acquire()
	defer release()
	client, err := r.Authenticate(openai.BearerToken(h.Get("Authorization")))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range r.ExposedModels() {
		if client.Allows(n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// Model checks that the client of a request with headers h may use the model name, as
// GET /v1/models/{model} asks: nil when Models would list it, else Serve's 401 or the 404
// model_not_found of a request for it.
func (p *Pipeline) Model(h http.Header, name string) error {
	names, err := p.Models(h)
	if err != nil {
		return err
	}
	if slices.Contains(names, name) {
		return nil
	}
	r, release := p.src.Acquire()
	defer release()
	return r.modelNotFound(name)
}

// exchange is one request's hold on the pipeline: the router, the admission ticket and the
// request's logger.
type exchange struct {
	r       *Router
	release func()
	ticket  *Ticket
	ctx     context.Context
	chat    *openai.ChatRequest
	trail   Trail
	rd      routed      // the routing decision, once taken
	lookup  cacheLookup // the cache's outcome for it
	read    time.Time   // when the body had been read
	once    sync.Once
}

// begin runs the stages every request shares, up to routing: hold the router, authenticate,
// admit the client, read and parse the body, admit the model. On error everything it took
// is given back.
func (p *Pipeline) begin(ctx context.Context, req *Request) (x *exchange, err error) {
	r, release := p.src.Acquire()
	x = &exchange{r: r, release: release}
	defer func() {
		if err != nil {
			x.finish(nil)
		}
	}()
	rl := &requestLog{base: p.log, id: req.ID}
	if sc := trace.SpanContextFromContext(ctx); sc.HasTraceID() {
		rl.traceID = sc.TraceID().String()
	}
	ctx = withRequestLog(ctx, rl)
	x.ctx = ctx

	// Who is asking, and whether they may, is settled before the body is read: a stranger's
	// 10 MiB is not read, and slow bodies do not get past max_in_flight.
	client, err := r.Authenticate(openai.BearerToken(req.Header.Get("Authorization")))
	if err != nil {
		return x, err
	}
	x.trail.Client = client.Name()
	if x.ticket, err = r.AdmitClient(ctx, client); err != nil {
		return x, err
	}
	body, err := ReadBody(req.Body, req.Length, r.cfg.Server.MaxRequestBodyBytes)
	if err != nil {
		return x, err
	}
	x.read = time.Now()
	chat, apiErr := openai.ParseChatRequest(body)
	if apiErr != nil {
		return x, apiErr
	}
	x.chat = chat
	x.trail.Model, x.trail.Stream = r.MetricModel(chat.Model), chat.Stream
	if err := r.AdmitModel(x.ticket, chat.Model); err != nil {
		return x, err
	}
	return x, nil
}

// decided observes the router's own time for the request, from its body read to now, when
// the model is about to be called or the request is answered without one.
func (x *exchange) decided() {
	if m := x.r.metrics; m != nil {
		m.RoutingDuration.Observe(time.Since(x.read).Seconds())
	}
}

// routed adds the routing decision to the request's log attributes.
func (x *exchange) routed(rt *Route) {
	// The request's own attributes: no other goroutine of the request reads them until it
	// is routed.
	if rl, ok := x.ctx.Value(loggerKey{}).(*requestLog); ok {
		rl.model, rl.decision = rt.Model, rt.Decision
	}
}

// explained returns err with the explanation headers, for a refusal after routing.
func (x *exchange) explained(err error, explain [][2]string) error {
	var e *openai.APIError
	if !errors.As(err, &e) || len(explain) == 0 {
		return err
	}
	out := *e
	out.Header = make(map[string]string, len(explain))
	for _, kv := range explain {
		out.Header[kv[0]] = kv[1]
	}
	return &out
}

// finish charges u, frees the slot and lets go of the router, once.
func (x *exchange) finish(u *openai.Usage) {
	x.once.Do(func() {
		if x.ticket != nil {
			x.ticket.Done(u)
		}
		x.release()
	})
}

// ReadBody reads a request body of at most limit bytes; size is its announced length
// (Content-Length; zero or less when unknown), which sizes the buffer. Errors are
// *openai.APIError: 413 past the limit, 408 when the listener's read deadline passed, else 400.
func ReadBody(body io.Reader, size, limit int64) ([]byte, error) {
	if body == nil {
		body = http.NoBody
	}
	var b []byte
	var err error
	if sized, ok := body.(interface{ Len() int }); ok { // a body already in memory (ext_proc)
		if n := sized.Len(); int64(n) <= limit {
			b = make([]byte, n)
			_, err = io.ReadFull(body, b)
			return b, err
		}
	}
	b, err = transport.ReadAll(body, size, limit)
	switch {
	case err == nil && int64(len(b)) > limit:
		return nil, refuse(KindTooLarge, fmt.Sprintf("the request body is larger than %d bytes (server.max_request_body_bytes)", limit), nil)
	case err == nil:
		return b, nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, refuse(KindBodyTimeout, "the request body did not arrive in time (server.read_timeout)", err)
	default:
		return nil, refuse(KindBadBody, "reading the request body: "+err.Error(), err)
	}
}
