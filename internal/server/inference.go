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
	rs := newRoutes(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, openai.NotFound("unknown_url",
			fmt.Sprintf("unknown path %s %s; this listener serves POST /v1/chat/completions and GET /v1/models", clip(r.Method), clip(r.URL.Path))))
	})
	rs.handle(http.MethodPost, "/v1/chat/completions", h.chat)
	rs.handle(http.MethodGet, "/v1/models", h.models)
	return withRequestContext(rs, log, m, "inference")
}

func (h *Inference) models(w http.ResponseWriter, r *http.Request) {
	names, err := h.p.Models(r.Header)
	if err != nil {
		writeError(w, err)
		return
	}
	list := openai.ModelList{Object: openai.ObjectList, Data: make([]openai.Model, 0, len(names))}
	created := startTime.Unix()
	for _, n := range names {
		list.Data = append(list.Data, openai.Model{ID: n, Object: openai.ObjectModel, Created: created, OwnedBy: "semantic-router"})
	}
	writeJSON(w, http.StatusOK, list)
}

var startTime = time.Now()

func (h *Inference) chat(w http.ResponseWriter, r *http.Request) {
	info := requestInfoFrom(r.Context())
	ctx, span := h.p.StartSpan(r.Context(), "POST /v1/chat/completions", r.Header)
	info.span = span // ended by the middleware, which knows the final status
	res, trail, err := h.p.Serve(ctx, &router.Request{ID: info.id, Header: r.Header, Body: r.Body})
	info.client, info.model, info.stream, info.selected, info.cache = trail.Client, trail.Model, trail.Stream, trail.Route.Model, trail.Cache
	if err != nil {
		writeError(w, err)
		return
	}
	defer res.Close()
	// The pipeline has read the body to its end; full duplex keeps Go's server from cutting
	// a long answer written while the client's side of the connection is still open.
	_ = http.NewResponseController(w).EnableFullDuplex()
	for _, kv := range res.Explain() {
		w.Header().Set(kv[0], kv[1])
	}
	if res.Stream != nil {
		h.stream(w, r.WithContext(ctx), res, info)
		return
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

var (
	dataPrefix = []byte("data: ")
	eventEnd   = []byte("\n\n")
	doneEvent  = []byte("data: [DONE]\n\n")
)

// stream relays the answer event by event, flushing each as it arrives. Once the first byte
// is out the status is fixed, so a later failure is sent as an error event in the OpenAI
// format and the stream ends without [DONE], which clients read as incomplete.
func (h *Inference) stream(w http.ResponseWriter, r *http.Request, res *router.Result, info *requestInfo) {
	s := res.Stream
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no") // tell buffering proxies in front of us not to
	// The status and headers leave with the first event, or the first keep-alive comment
	// when the model is slow to start: one write, not two, before the first token.
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	sw := newStreamWriter(w, rc, s.KeepAlive(), h.countKeepAlive)
	defer sw.stop()
	for {
		data, err := s.Next()
		if err != nil {
			res.Settle() // before the last event, as for a whole answer
		}
		if errors.Is(err, io.EOF) {
			_ = sw.event(doneEvent, nil, nil)
			return
		}
		if err != nil {
			info.streamErr = err
			var apiErr *openai.APIError
			if errors.As(err, &apiErr) {
				if b, merr := json.Marshal(apiErr.Envelope()); merr == nil {
					_ = sw.event(dataPrefix, b, eventEnd)
				}
			}
			return
		}
		if err := sw.event(dataPrefix, data, eventEnd); err != nil {
			return // the client went away; Close cancels the upstream call
		}
	}
}

func (h *Inference) countKeepAlive() {
	if h.metrics != nil {
		h.metrics.StreamKeepAlives.Inc()
	}
}
