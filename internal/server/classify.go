package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
)

// classifyRequest is the body of POST /api/v1/classify: one prompt ("text") or a batch
// ("texts", at most maxClassifyBatch).
type classifyRequest struct {
	Text  *string  `json:"text"`
	Texts []string `json:"texts"`
}

const maxClassifyBatch = 100

// classify answers with every signal's value, the decision and the model for each prompt,
// without calling a model.
func classify(src *router.Holder) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rt, release := src.Acquire()
		defer release()
		raw, length, err := decodedBody(r)
		if err != nil {
			writeError(w, err)
			return
		}
		body, err := router.ReadBody(raw, length, rt.Config().Server.MaxRequestBodyBytes)
		if err != nil {
			writeError(w, err)
			return
		}
		var req classifyRequest
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			writeError(w, openai.BadRequest("", `the body must be {"text": "..."} or {"texts": ["...", ...]}: `+err.Error()))
			return
		}
		switch {
		case (req.Text == nil) == (req.Texts == nil):
			writeError(w, openai.BadRequest("", `send exactly one of "text" or "texts"`))
			return
		case len(req.Texts) > maxClassifyBatch:
			writeError(w, openai.BadRequest("texts", fmt.Sprintf("at most %d texts per request, got %d", maxClassifyBatch, len(req.Texts))))
			return
		}
		if req.Text != nil {
			c, err := rt.Classify(r.Context(), *req.Text, r.Header)
			if err != nil {
				writeError(w, classifyError(err))
				return
			}
			writeJSON(w, http.StatusOK, c)
			return
		}
		out := make([]*router.Classification, len(req.Texts))
		for i, t := range req.Texts {
			var err error
			if out[i], err = rt.Classify(r.Context(), t, r.Header); err != nil {
				writeError(w, classifyError(err))
				return
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"results": out})
	}
}

func classifyError(err error) *openai.APIError {
	return &openai.APIError{Status: http.StatusBadGateway, Type: openai.TypeUpstream, Code: "signals_failed",
		Message: "computing the signals failed: " + err.Error(), Err: err}
}
