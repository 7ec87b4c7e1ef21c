// Package server holds the router's HTTP front doors: the OpenAI-compatible inference
// listener (8801), the management API (8080) and the metrics endpoint (9190). Handlers are
// thin: they parse, call the router and write; the router does the rest.
package server

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// Response headers of the inference listener; the routing explanation's are the router's
// (router.HeaderSelectedModel and the rest), sent by both front doors.
const (
	HeaderRequestID = "X-Request-Id"
	HeaderDebug     = "X-Vsr-Debug"
)

// Inference serves the OpenAI-compatible API.
type Inference struct {
	p       *router.Pipeline
	log     *slog.Logger
	metrics *telemetry.Metrics
}

// NewInference returns the handler of the inference listener: it translates HTTP to the
// pipeline's requests and the pipeline's results and errors to HTTP.
func NewInference(p *router.Pipeline, log *slog.Logger, m *telemetry.Metrics) http.Handler {
	h := &Inference{p: p, log: log, metrics: m}
	notFound := func(w http.ResponseWriter, r *http.Request) {
		writeError(w, openai.NotFound("unknown_url",
			fmt.Sprintf("unknown path %s %s; this listener serves POST /v1/chat/completions, GET /v1/models and GET /v1/models/{model}", clip(r.Method), clip(r.URL.Path))))
	}
	rs := newRoutes(notFound)
	rs.handle(http.MethodPost, "/v1/chat/completions", h.chat)
	rs.handle(http.MethodGet, "/v1/models", h.models)
	rs.handlePrefix(modelPrefix, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == modelPrefix { // a trailing slash is unknown, as everywhere
			notFound(w, r)
			return
		}
		h.model(w, r)
	})
	return withRequestContext(rs, log, m, "inference")
}

// modelPrefix is the path of one model, GET /v1/models/{model}. The name is the rest of the
// path, slashes included ("Qwen/Qwen3-8B"), percent-decoded.
const modelPrefix = "/v1/models/"

// model answers GET /v1/models/{model} (the SDKs' models.retrieve) with the model object of
// a name GET /v1/models would list to this client, and with the 404 model_not_found of a
// chat request for it otherwise.
func (h *Inference) model(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, &openai.APIError{Status: http.StatusMethodNotAllowed, Type: openai.TypeInvalidRequest,
			Message: fmt.Sprintf("method %s is not allowed on %s; use GET", clip(r.Method), clip(r.URL.Path))})
		return
	}
	name := r.URL.Path[len(modelPrefix):]
	if err := h.p.Model(r.Header, name); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, openai.Model{ID: name, Object: openai.ObjectModel, Created: startTime.Unix(), OwnedBy: "semantic-router"})
}

func (h *Inference) models(w http.ResponseWriter, r *http.Request) {
	names, err := h.p.Models(r.Header)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, openai.NewModelList(names, startTime.Unix(), router.ModelOwner))
}

var startTime = time.Now()

func (h *Inference) chat(w http.ResponseWriter, r *http.Request) {
	info := requestInfoFrom(r.Context())
	reqBody, length, err := decodedBody(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ctx, span := h.p.StartSpan(r.Context(), "POST /v1/chat/completions", r.Header)
	info.span = span // ended by the middleware, which knows the final status
	wait := &streamWaiter{w: w, h: h}
	res, trail, err := h.p.Serve(ctx, &router.Request{ID: info.id, Header: r.Header, Body: reqBody, Length: length, Waiter: wait})
	info.client, info.model, info.stream, info.selected, info.cache = trail.Client, trail.Model, trail.Stream, trail.Route.Model, trail.Cache
	info.modelFailed, info.decision = trail.ModelFailed, trail.Route.Decision
	if err != nil {
		answerFailure(w, wait, info, err)
		return
	}
	defer res.Close()
	if res.Stream != nil {
		sw := wait.sw
		if sw == nil { // a stream the cache answered
			sw = newStreamWriter(w, res.Stream.KeepAlive(), nil, h.countKeepAlive)
		}
		h.stream(sw, res, info)
		return
	}
	answer(w, res)
}

// answerFailure answers a chat request the pipeline could not serve.
func answerFailure(w http.ResponseWriter, wait *streamWaiter, info *requestInfo, err error) {
	if errors.Is(err, router.ErrShuttingDown) {
		info.err = err // for the log line: the router ended it, the client did not go away
	}
	if wait.sw != nil && wait.sw.stop() {
		// A keep-alive has sent the stream's status while the model was slow to start.
		info.err = err
		wait.sw.errorEvent(err)
		return
	}
	writeError(w, err)
}

// answer writes a whole answer.
func answer(w http.ResponseWriter, res *router.Result) {
	_ = http.NewResponseController(w).EnableFullDuplex() // as for a stream (newStreamWriter)
	for _, kv := range res.Explain() {
		w.Header().Set(kv[0], kv[1])
	}
	body := res.Response.Body
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
	// The slot is free before the answer leaves, and the answer leaves before Close stores
	// it in the cache.
	res.Settle()
	_ = http.NewResponseController(w).Flush()
}

// streamWaiter starts a stream's keep-alives when the pipeline starts waiting for the
// model's first event (router.StreamWaiter).
type streamWaiter struct {
	w  http.ResponseWriter
	h  *Inference
	sw *streamWriter
}

func (s *streamWaiter) StreamWaiting(explain [][2]string, keepAlive time.Duration) {
	s.sw = newStreamWriter(s.w, keepAlive, explain, s.h.countKeepAlive)
}

var (
	dataPrefix = []byte("data: ")
	eventEnd   = []byte("\n\n")
	doneEvent  = []byte("data: [DONE]\n\n")
)

// stream relays the answer event by event as it arrives: it flushes once the stream holds no
// further event it can send without waiting for the model, so that events that arrived
// together leave in one write and none waits for a later one. Once the first byte
// is out the status is fixed, so a later failure is sent as an error event in the OpenAI
// format and the stream ends without [DONE], which clients read as incomplete.
func (h *Inference) stream(sw *streamWriter, res *router.Result, info *requestInfo) {
	// The status and headers leave with the first event, unless a keep-alive comment sent
	// them while the model was slow to start: one write, not two, before the first token.
	sw.begin(res.Explain())
	defer sw.stop()
	s := res.Stream
	for first := true; ; first = false {
		data, err := s.Next()
		if err != nil {
			res.Settle() // before the last event, as for a whole answer
		}
		if errors.Is(err, io.EOF) {
			_ = sw.event(doneEvent, nil, nil)
			return
		}
		if err != nil {
			info.err = err
			sw.errorEvent(err)
			return
		}
		// data is the stream's until the next call, which Buffered may make: it is written first.
		if err := sw.write(dataPrefix, data, eventEnd); err != nil {
			return // the client went away; Close cancels the upstream call
		}
		if !s.Buffered() {
			if err := sw.flush(); err != nil {
				return
			}
		}
		if first && h.metrics != nil {
			// As the client waits for it: routing, queueing, retries and fallbacks included.
			h.metrics.TimeToFirstToken.WithLabelValues(info.selected).Observe(time.Since(info.start).Seconds())
		}
	}
}

func (h *Inference) countKeepAlive() {
	if h.metrics != nil {
		h.metrics.StreamKeepAlives.Inc()
	}
}
