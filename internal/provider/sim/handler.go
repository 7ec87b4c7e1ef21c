package sim

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// Handler serves the simulated model over HTTP as an OpenAI-compatible server:
// POST /v1/chat/completions (JSON and SSE) and GET /v1/models. The answer carries the model
// named in the request. It is the mock backend of tests and benchmarks.
func Handler(o Options) http.Handler {
	m := New(o)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", m.serveChat)
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(openai.ModelList{Object: openai.ObjectList,
			Data: []openai.Model{{ID: o.Model, Object: openai.ObjectModel, Created: time.Now().Unix(), OwnedBy: "sim"}}})
	})
	return mux
}

func (m *Model) serveChat(w http.ResponseWriter, r *http.Request) {
	var req openai.ChatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		openai.WriteError(w, openai.BadRequest("", "invalid JSON body: "+err.Error()))
		return
	}
	model := req.Model
	if model == "" {
		model = m.opts.Model
	}
	if !req.Stream {
		a := m.answer(&req, model)
		if err := sleep(r.Context(), m.opts.FirstTokenLatency+time.Duration(len(a.tokens))*m.opts.TokenLatency); err != nil {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(a.response())
		return
	}
	s := &stream{ctx: r.Context(), m: m, a: m.answer(&req, model),
		usage: req.StreamOptions != nil && req.StreamOptions.IncludeUsage}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	rc := http.NewResponseController(w)
	for {
		data, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return
		}
		if _, err := w.Write(append(append([]byte("data: "), data...), '\n', '\n')); err != nil {
			return
		}
		_ = rc.Flush()
	}
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
	_ = rc.Flush()
}
