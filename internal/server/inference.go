// Package server holds the router's HTTP front doors: the OpenAI-compatible inference
// listener (8801), the management API (8080) and the metrics endpoint (9190). Handlers are
// thin: they parse, call the router and write; the router does the rest.
package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// Response headers that explain a routing decision.
const (
	HeaderRequestID          = "X-Request-Id"
	HeaderSelectedModel      = "X-Vsr-Selected-Model"
	HeaderSelectedDecision   = "X-Vsr-Selected-Decision"
	HeaderSelectedConfidence = "X-Vsr-Selected-Confidence"
	HeaderFallbackFrom       = "X-Vsr-Fallback-From"
	HeaderDebug              = "X-Vsr-Debug"
	HeaderMatchedSignals     = "X-Vsr-Matched-Signals"
)

// Inference serves the OpenAI-compatible API.
type Inference struct {
	src     *router.Holder
	log     *slog.Logger
	metrics *telemetry.Metrics
}

// NewInference returns the handler of the inference listener. Each request is served by the
// router src holds when it starts, to its end, whatever reloads happen meanwhile.
func NewInference(src *router.Holder, log *slog.Logger, m *telemetry.Metrics) http.Handler {
	h := &Inference{src: src, log: log, metrics: m}
	rs := newRoutes(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, openai.NotFound("unknown_url",
			fmt.Sprintf("unknown path %s %s; this listener serves POST /v1/chat/completions and GET /v1/models", clip(r.Method), clip(r.URL.Path))))
	})
	rs.handle(http.MethodPost, "/v1/chat/completions", h.chat)
	rs.handle(http.MethodGet, "/v1/models", h.models)
	return withRequestContext(rs, log, m, "inference")
}

func (h *Inference) models(w http.ResponseWriter, r *http.Request) {
	rt, release := h.src.Acquire()
	defer release()
	client, err := rt.Authenticate(openai.BearerToken(r.Header.Get("Authorization")))
	if err != nil {
		writeError(w, err)
		return
	}
	// A key limited to some models sees only those.
	list := openai.ModelList{Object: openai.ObjectList, Data: []openai.Model{}}
	created := startTime.Unix()
	for _, n := range rt.ExposedModels() {
		if client.Allows(n) {
			list.Data = append(list.Data, openai.Model{ID: n, Object: openai.ObjectModel, Created: created, OwnedBy: "semantic-router"})
		}
	}
	writeJSON(w, http.StatusOK, list)
}

var startTime = time.Now()

func (h *Inference) chat(w http.ResponseWriter, r *http.Request) {
	info := requestInfoFrom(r.Context())
	rt, release := h.src.Acquire()
	defer release()
	ctx, span := rt.StartRequestSpan(r.Context(), "POST /v1/chat/completions", r.Header)
	info.span = span // ended by the middleware, which knows the final status
	r = r.WithContext(ctx)
	// Who is asking is settled before the body is read: a stranger's 10 MiB is not read.
	client, err := rt.Authenticate(openai.BearerToken(r.Header.Get("Authorization")))
	if err != nil {
		writeError(w, err)
		return
	}
	info.client = client.Name()
	// The key's rate limit and an in-flight slot too: a request over the limits is refused
	// before its body is read, so slow bodies do not get past max_in_flight. The model's
	// limits need the body.
	ticket, err := rt.AdmitClient(r.Context(), client)
	if err != nil {
		writeError(w, err)
		return
	}
	// The slot is freed even if serving panics; the Done calls below, with the usage, come
	// first, and Done acts once.
	defer ticket.Done(nil)
	// Writing the answer while the request body may still be arriving is normal for
	// streaming; without full duplex Go's server can cut such responses.
	_ = http.NewResponseController(w).EnableFullDuplex()

	body, apiErr := readBody(w, r, rt.Config().Server.MaxRequestBodyBytes)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	req, apiErr := openai.ParseChatRequest(body)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	info.model = rt.MetricModel(req.Model)
	info.stream = req.Stream
	if err := rt.AdmitModel(ticket, req.Model); err != nil {
		writeError(w, err)
		return
	}
	if req.Stream {
		h.stream(w, r, rt, ticket, req, info)
		return
	}
	resp, route, err := rt.Complete(r.Context(), req, r.Header)
	info.selected = route.Model
	setRouteHeaders(w, r, route)
	if err != nil {
		ticket.Done(nil)
		writeError(w, err)
		return
	}
	ticket.Done(resp.Usage)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(resp.Body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(resp.Body)
}

var (
	dataPrefix = []byte("data: ")
	eventEnd   = []byte("\n\n")
	doneEvent  = []byte("data: [DONE]\n\n")
)

// stream relays the answer event by event, flushing each as it arrives. Once the first byte
// is out the status is fixed, so a later failure is sent as an error event in the OpenAI
// format and the stream ends without [DONE], which clients read as incomplete.
func (h *Inference) stream(w http.ResponseWriter, r *http.Request, rt *router.Router, ticket *router.Ticket, req *openai.ChatRequest, info *requestInfo) {
	s, route, err := rt.Stream(r.Context(), req, r.Header)
	info.selected = route.Model
	setRouteHeaders(w, r, route)
	if err != nil {
		ticket.Done(nil)
		writeError(w, err)
		return
	}
	defer func() { ticket.Done(s.Usage()) }()
	defer s.Close()
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no") // tell buffering proxies in front of us not to
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	next := s.Next
	if ka := rt.Config().Server.StreamKeepAlive; ka != nil && *ka > 0 {
		var stop func()
		next, stop = h.withKeepAlive(r.Context(), w, rc, s, ka.D())
		defer stop()
	}
	for {
		data, err := next()
		if errors.Is(err, io.EOF) {
			_, _ = w.Write(doneEvent)
			_ = rc.Flush()
			return
		}
		if err != nil {
			info.streamErr = err
			var apiErr *openai.APIError
			if errors.As(err, &apiErr) {
				if b, merr := json.Marshal(apiErr.Envelope()); merr == nil {
					_, _ = w.Write(dataPrefix)
					_, _ = w.Write(b)
					_, _ = w.Write(eventEnd)
					_ = rc.Flush()
				}
			}
			return
		}
		_, _ = w.Write(dataPrefix)
		_, _ = w.Write(data)
		if _, err := w.Write(eventEnd); err != nil {
			return // the client went away; Close cancels the upstream call
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}

// setRouteHeaders explains the routing decision. With "x-vsr-debug: true" on the request it
// also lists the signals that matched (names only: values such as PII findings stay out of
// headers).
func setRouteHeaders(w http.ResponseWriter, r *http.Request, rt router.Route) {
	h := w.Header()
	for k, v := range rt.Headers {
		h.Set(k, v)
	}
	if rt.Model != "" {
		h.Set(HeaderSelectedModel, rt.Model)
	}
	if rt.FallbackFrom != "" {
		h.Set(HeaderFallbackFrom, rt.FallbackFrom)
	}
	if rt.Decision != "" {
		h.Set(HeaderSelectedDecision, rt.Decision)
		h.Set(HeaderSelectedConfidence, strconv.FormatFloat(rt.Confidence, 'f', 2, 64))
	}
	if r.Header.Get(HeaderDebug) == "true" {
		var matched []string
		for _, s := range rt.Signals {
			if s.Matched {
				matched = append(matched, s.Name)
			}
		}
		h.Set(HeaderMatchedSignals, strings.Join(matched, ","))
	}
}
