// Package extproc is the router's second front door: an Envoy external processor (ext_proc,
// gRPC, port 50051). It translates Envoy's messages to the pipeline's requests and the
// pipeline's plans and errors to Envoy's mutations, and nothing else: the pipeline
// (internal/router) admits, routes and refuses exactly as for the HTTP listener. Envoy, not
// the router, then calls the model.
//
// For a chat completion the processor replaces the body with the planned one, sets
// x-vsr-destination-endpoint (host:port, for an ORIGINAL_DST cluster) and
// x-vsr-selected-model for Envoy's route, replaces the client's Authorization with the
// model's credential (or removes it), asks for the answer uncompressed, and continues the
// trace in traceparent. In the response phase it adds the explanation headers, reads the
// answer's token usage, from the JSON body or the event stream, to charge token limits, and
// rewrites the answer as the HTTP listener would: the usage a client did not ask for
// removed, the credentials the router holds redacted (see answerFilter). The request holds
// its in-flight slot until its answer has ended. deploy/envoy holds a bootstrap that wires it.
package extproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"go.opentelemetry.io/otel/attribute"
	otelcodes "go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/stackgrow"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// HeaderDestination is the request header that tells Envoy's ORIGINAL_DST cluster the
// host:port of the chosen model server.
const HeaderDestination = "x-vsr-destination-endpoint"

const chatPath = "/v1/chat/completions"

// Pipeline is what the processor needs of the router.
type Pipeline interface {
	StartSpan(ctx context.Context, name string, h http.Header) (context.Context, trace.Span)
	Plan(ctx context.Context, req *router.Request) (*router.Plan, *router.Trail, error)
	Models(h http.Header) ([]string, error)
}

// Server implements Envoy's ExternalProcessor service.
type Server struct {
	extprocv3.UnimplementedExternalProcessorServer
	p       Pipeline
	start   time.Time // the created of the models GET /v1/models lists
	log     *slog.Logger
	metrics *telemetry.Metrics // nil: nothing counted here
	dns     *resolver
	// ending says the router's drain deadline passed: the exchanges cut now were ended by
	// the router's shutdown, not by Envoy.
	ending atomic.Bool
	// active counts the exchanges whose Process has not returned, ended and logged.
	active sync.WaitGroup
}

// Wait waits, at most d, for every exchange to have returned: after the gRPC server was
// stopped, so that the exchanges it cut have written their access lines before the router
// exits.
func (s *Server) Wait(d time.Duration) {
	done := make(chan struct{})
	go func() { s.active.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// EndingAll tells the processor that the exchanges still running are about to be cut by
// the router's shutdown (its drain deadline passed), so that each is logged as such.
func (s *Server) EndingAll() { s.ending.Store(true) }

// New returns a processor that plans each chat completion with p, and counts each in m's
// request metrics as the HTTP listener counts its own (m may be nil).
func New(p Pipeline, log *slog.Logger, m *telemetry.Metrics) *Server {
	return &Server{p: p, start: time.Now(), log: log, metrics: m, dns: newResolver()}
}

// exchange is the state of one HTTP request as Envoy reports it.
type exchange struct {
	start  time.Time
	header http.Header
	path   string
	id     string
	span   trace.Span
	trail  router.Trail
	plan   *router.Plan // nil until planned
	status int          // the answer's status, once its headers came
	usage  usageReader
	filter *answerFilter // set when the answer is rewritten: its usage dropped, or redacted
	// sawHeaders is set once the request's headers came (or the exchange was refused
	// without them).
	sawHeaders bool
	// answered is set once the answer's headers, or its first chunk, came.
	answered bool
	// replacement, when not nil, is what the answer's body is replaced by: an error in the
	// OpenAI envelope for an answer that is not one (see gatewayFailure); empty once sent.
	replacement []byte
	err         error         // the refusal sent, if any
	modes       exchangeModes // Envoy's processing modes, when it says them
	over        bool          // the response being sent is the exchange's last
	ended       bool
}

func newExchange() *exchange { return &exchange{start: time.Now(), header: http.Header{}} }

// Process handles one HTTP request's messages, in order, until Envoy closes the stream.
func (s *Server) Process(srv extprocv3.ExternalProcessor_ProcessServer) error {
	// Each exchange has a goroutine of its own, which decoding the request's body would grow
	// from 8 to 16 KiB forty frames deep, where the copy costs most (see stackgrow).
	stackgrow.To16KiB()
	s.active.Add(1)
	defer s.active.Done() // last: after the exchange has ended
	x := newExchange()
	// Envoy ends the exchange after the answer's last chunk, or when the HTTP request ends
	// early (the client went away): either way the request lets go of its slot.
	defer s.end(x, context.Canceled)
	for {
		req, err := srv.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if status.Code(err) == codes.Canceled {
				return nil
			}
			return err
		}
		resp := s.handle(srv.Context(), x, req)
		if err := srv.Send(resp); err != nil {
			return err
		}
		if x.over { // the client's answer is on its way: the cache and the log line now
			s.end(x, nil)
		}
	}
}

func (s *Server) handle(ctx context.Context, x *exchange, req *extprocv3.ProcessingRequest) *extprocv3.ProcessingResponse {
	x.modes.observe(req)
	if _, ok := req.Request.(*extprocv3.ProcessingRequest_RequestHeaders); !ok && !x.sawHeaders {
		// request_header_mode SKIP: the processor cannot tell a chat completion from the
		// rest, so none goes on unchecked.
		x.sawHeaders, x.id = true, router.NewRequestID("")
		return s.refuseMode(ctx, x, noHeaders)
	}
	switch r := req.Request.(type) {
	case *extprocv3.ProcessingRequest_RequestHeaders:
		x.sawHeaders = true
		for _, h := range r.RequestHeaders.GetHeaders().GetHeaders() {
			v := h.GetValue()
			if len(h.GetRawValue()) > 0 {
				v = string(h.GetRawValue())
			}
			x.header.Add(h.GetKey(), v)
		}
		x.path = servedPath(x.header.Get(":path"))
		x.id = router.NewRequestID(x.header.Get(router.HeaderRequestID))
		// Only the processor sets x-vsr-* headers: a client's own destination header would
		// let it make Envoy connect anywhere, a selected model pick a route, and the others
		// would reach the access log and the model as the router's word. The router has
		// read them (x-vsr-debug, the cache's opt-in) from x.header already.
		var remove []string
		for k := range x.header {
			if k := strings.ToLower(k); strings.HasPrefix(k, "x-vsr-") {
				remove = append(remove, k)
			}
		}
		slices.Sort(remove)
		if x.path == "" { // not a chat request, or one that would go on unchecked: none passes
			return s.refuseMode(ctx, x, noPath)
		}
		if x.path == modelsPath && x.header.Get(":method") == http.MethodGet {
			return s.models(ctx, x)
		}
		if x.path == chatPath {
			if resp := s.chatHeaders(ctx, x, r.RequestHeaders.GetEndOfStream()); resp != nil {
				return resp
			}
		}
		return headersResponse(true, nil, remove)
	case *extprocv3.ProcessingRequest_RequestBody:
		// x.span is set once the request was planned or refused: a chunk after that (which
		// only a mode refused here sends) is never planned a second time.
		if x.path != chatPath || x.span != nil {
			return bodyResponse(true, nil)
		}
		if e := x.modes.partialProblem(); !r.RequestBody.GetEndOfStream() && e != nil {
			return s.refuseMode(ctx, x, e)
		}
		return s.requestBody(ctx, x, r.RequestBody.GetBody())
	case *extprocv3.ProcessingRequest_ResponseHeaders:
		var ctype string
		for _, h := range r.ResponseHeaders.GetHeaders().GetHeaders() {
			v := h.GetValue()
			if len(h.GetRawValue()) > 0 {
				v = string(h.GetRawValue())
			}
			switch h.GetKey() {
			case ":status":
				x.status, _ = strconv.Atoi(v)
			case "content-type":
				ctype = v
				x.usage.sse = strings.HasPrefix(v, "text/event-stream")
			}
		}
		set := []*corev3.HeaderValueOption{header(router.HeaderRequestID, x.id)}
		if x.plan != nil {
			set = append(set, headers(x.plan.Explain())...)
		}
		remove := x.answering()
		if e := gatewayFailure(x, ctype); e != nil && !r.ResponseHeaders.GetEndOfStream() {
			// Its body is replaced by the envelope, chunk by chunk (see the body's case).
			x.replacement, x.filter = e.Body(), nil
			set = append(set, headers(e.Headers())...)
			remove = []string{"content-length"}
		}
		if r.ResponseHeaders.GetEndOfStream() {
			s.last(x)
		}
		return headersResponse(false, set, remove)
	case *extprocv3.ProcessingRequest_ResponseBody:
		body := r.ResponseBody
		if !x.answered { // response_header_mode SKIP: the first chunk says what the answer is
			x.usage.sse = looksLikeEvents(body.GetBody())
			x.answering() // Envoy removes content-length itself when it sends no headers
		}
		if x.plan != nil {
			x.usage.Write(body.GetBody())
		}
		var cr *extprocv3.CommonResponse
		if x.replacement != nil { // the first chunk carries the envelope, the others nothing
			cr = &extprocv3.CommonResponse{BodyMutation: replaceBody(x.replacement)}
			x.replacement = []byte{}
		} else if x.filter != nil {
			if out, changed := x.filter.filter(body.GetBody(), body.GetEndOfStream() || x.modes.lastAnswerChunk()); changed {
				cr = &extprocv3.CommonResponse{BodyMutation: replaceBody(out)}
			}
		}
		if body.GetEndOfStream() {
			s.last(x)
		}
		return bodyResponse(false, cr)
	case *extprocv3.ProcessingRequest_RequestTrailers:
		return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_RequestTrailers{
			RequestTrailers: &extprocv3.TrailersResponse{}}}
	case *extprocv3.ProcessingRequest_ResponseTrailers:
		s.last(x)
		return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ResponseTrailers{
			ResponseTrailers: &extprocv3.TrailersResponse{}}}
	default:
		return immediate(x.id, openai.BadRequest("", fmt.Sprintf("unexpected ext_proc message %T", r)))
	}
}

// clip shortens what a client sent before it is quoted back in an error message.
func clip(s string) string {
	const maxLen = 64
	if len(s) <= maxLen {
		return s
	}
	return s[:maxLen] + "…"
}

// requestBody plans a chat completion: the body to send, where, and with which credential;
// or an immediate answer when the pipeline refuses it.
func (s *Server) requestBody(ctx context.Context, x *exchange, body []byte) *extprocv3.ProcessingResponse {
	ctx, x.span = s.p.StartSpan(ctx, "ext_proc POST "+chatPath, x.header)
	pl, trail, err := s.p.Plan(ctx, &router.Request{ID: x.id, Header: x.header, Body: bytes.NewReader(body)})
	x.trail = *trail
	if err != nil {
		x.err = err
		s.last(x)
		return immediate(x.id, asAPIError(err))
	}
	x.plan = pl
	if pl.Cached != nil {
		return s.cached(x, pl)
	}
	if pl.Stream && pl.WantsAnswer() {
		x.usage.answer = &router.StreamAnswer{}
	}
	t := pl.Target
	// The body goes to Envoy in this answer; the exchange keeps the plan for as long as the
	// model's answer lasts, not the request.
	up := pl.Body
	pl.Body = nil
	// The explanation goes on the request too, for Envoy's routes and access log and the
	// model server's, as it goes on the answer.
	set := append(headers(pl.Explain()),
		header(router.HeaderSelectedModel, t.Model),
		header("content-length", strconv.Itoa(len(up))),
	)
	if t.Endpoint != "" {
		dest, err := s.dns.destination(ctx, t.Endpoint)
		if err != nil {
			return s.unresolved(x, pl, err)
		}
		set = append(set, header(HeaderDestination, dest))
	}
	// The processor reads the answer (its usage, the credentials to redact), so the model
	// server is asked for it uncompressed, as the HTTP listener asks; Envoy's compressor, if
	// any, compresses it for the client after this filter.
	remove := []string{"accept-encoding"}
	if pl.Authorization != "" {
		set = append(set, header("authorization", pl.Authorization))
	} else {
		remove = append(remove, "authorization") // the client's key is for the router only
	}
	for k, v := range pl.Trace {
		set = append(set, header(k, v))
	}
	s.log.Debug("planned for envoy", router.LogKeyRequestID, x.id, router.LogKeyModel, t.Model, "endpoint", t.Endpoint)
	return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_RequestBody{
		RequestBody: &extprocv3.BodyResponse{Response: &extprocv3.CommonResponse{
			Status:          extprocv3.CommonResponse_CONTINUE_AND_REPLACE,
			HeaderMutation:  &extprocv3.HeaderMutation{SetHeaders: set, RemoveHeaders: remove},
			BodyMutation:    &extprocv3.BodyMutation{Mutation: &extprocv3.BodyMutation_Body{Body: up}},
			ClearRouteCache: true, // the route may depend on the headers just set
		}}}}
}

// cached answers a request from the cache: Envoy sends this answer and calls no model. A
// streaming client gets the answer replayed as events.
func (s *Server) cached(x *exchange, pl *router.Plan) *extprocv3.ProcessingResponse {
	x.status = http.StatusOK
	body, ctype := pl.Cached, "application/json"
	if x.trail.Stream {
		if events, ok := pl.CachedEvents(); ok {
			var b bytes.Buffer
			for _, e := range events {
				b.WriteString("data: ")
				b.Write(e)
				b.WriteString("\n\n")
			}
			b.WriteString("data: [DONE]\n\n")
			body, ctype = b.Bytes(), "text/event-stream"
		}
	}
	set := append(headers(pl.Explain()), header("content-type", ctype), header(router.HeaderRequestID, x.id))
	s.last(x)
	return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ImmediateResponse{
		ImmediateResponse: &extprocv3.ImmediateResponse{
			Status:  &typev3.HttpStatus{Code: typev3.StatusCode_OK},
			Headers: &extprocv3.HeaderMutation{SetHeaders: set},
			Body:    body,
		}}}
}

// unresolved answers a planned request whose model server's host does not resolve: the
// endpoint is reported as failed (so outlier detection can eject it) and the client gets a
// 502 that names the model.
func (s *Server) unresolved(x *exchange, pl *router.Plan, err error) *extprocv3.ProcessingResponse {
	t := pl.Target
	s.log.Warn("upstream failure", router.LogKeyRequestID, x.id, router.LogKeyModel, t.Model, "kind", "connect",
		"endpoint", t.Endpoint, router.LogKeyError, err.Error())
	pl.Done(0, nil, err)
	x.plan = nil // done
	e := &openai.APIError{Status: http.StatusBadGateway, Type: openai.TypeUpstream, Code: "upstream_unreachable", Err: err,
		Message: fmt.Sprintf("upstream model server for model %q could not be reached: its host name does not resolve (request id %s)", t.Model, x.id),
		Header:  map[string]string{}}
	for _, kv := range pl.Explain() {
		e.Header[kv[0]] = kv[1]
	}
	x.err = e
	s.last(x)
	return immediate(x.id, e)
}

// last marks the response being prepared as the exchange's last: the request is settled
// now (its slot freed, its usage charged), so that the client's next request finds the slot
// free, and ended once the response is sent.
func (s *Server) last(x *exchange) {
	x.over = true
	if x.plan != nil {
		x.plan.Settle(x.usage.Usage())
	}
}

// end ends the exchange once: the plan learns the answer's status and usage (and frees the
// slot), the span ends and the access line is written. cause is why an answer that never
// ended did not (the client went away); nil for one that ended.
func (s *Server) end(x *exchange, cause error) {
	if x.ended || x.span == nil {
		return
	}
	x.ended = true
	status := x.status
	if x.err != nil {
		status = asAPIError(x.err).Status
	}
	shutdown := cause != nil && s.ending.Load() // cut by the router's drain deadline
	if shutdown {
		cause = router.ErrShuttingDown
	}
	if x.plan != nil {
		var err error
		if x.status == 0 || shutdown {
			err = cause
		}
		if body, whole := x.usage.Whole(); whole && len(body) > 0 && cause == nil && x.status == http.StatusOK && x.plan.WantsAnswer() {
			x.plan.Answer(body)
		}
		x.plan.Done(x.status, x.usage.Usage(), err)
	}
	if x.span.IsRecording() {
		x.span.SetAttributes(attribute.Int("http.response.status_code", status), attribute.String("vsr.request_id", x.id),
			attribute.String("vsr.requested_model", x.trail.Model), attribute.String("vsr.selected_model", x.trail.Route.Model))
		if status >= 500 {
			x.span.SetStatus(otelcodes.Error, http.StatusText(status))
		}
	}
	defer x.span.End()
	s.count(x, status, cause)
	// Envoy's access log records every request; the processor's line adds the routing, at
	// debug level for an answer the model gave, at info for one the processor gave itself (a
	// block, a refusal: the client has its request id, and only this line says why), and at
	// warn for a server-side failure. Status 0: no answer passed through the processor (the
	// client went away, or Envoy sends no response phase).
	level := slog.LevelDebug
	switch {
	case status >= 500 || shutdown:
		level = slog.LevelWarn
	case x.err != nil:
		level = slog.LevelInfo
	}
	if !s.log.Enabled(context.Background(), level) {
		return
	}
	attrs := []any{router.LogKeyRequestID, x.id, "path", x.path, "status", status,
		"latency_ms", float64(time.Since(x.start).Microseconds()) / 1000, router.LogKeyModel, x.trail.Model,
		"selected_model", x.trail.Route.Model, "stream", x.trail.Stream}
	if sc := x.span.SpanContext(); sc.HasTraceID() {
		attrs = append(attrs, router.LogKeyTraceID, sc.TraceID().String())
	}
	if x.trail.Client != "" {
		attrs = append(attrs, "client", x.trail.Client)
	}
	if d := x.trail.Route.Decision; d != "" {
		attrs = append(attrs, router.LogKeyDecision, d)
	}
	if shutdown {
		attrs = append(attrs, router.LogKeyError, "ended before its answer did: "+router.ErrShuttingDown.Error())
	}
	s.log.Log(context.Background(), level, "request", attrs...)
}

func asAPIError(err error) *openai.APIError {
	var e *openai.APIError
	if !errors.As(err, &e) {
		e = &openai.APIError{Status: http.StatusInternalServerError, Type: openai.TypeServer, Message: "internal error", Err: err}
	}
	return e
}
