package vertex

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// ignoredFields change nothing in the answer (bookkeeping for OpenAI's own platform); they
// are not sent.
var ignoredFields = map[string]bool{"user": true, "metadata": true, "store": true, "service_tier": true,
	"prompt_cache_key": true, "safety_identifier": true}

// applyFields translates the request's fields beyond messages, sampling and tools into
// generationConfig: response_format (responseMimeType, responseSchema), seed, the
// penalties, logprobs and top_logprobs (responseLogprobs, logprobs; plain answers only),
// top_k and n (candidateCount; plain answers only). Any other field is refused with a 400
// naming it, since Gemini has no place for it and dropping it would answer a different
// question.
func applyFields(req *openai.ChatRequest, stream bool, gc *generationConfig) error {
	if req.N != nil {
		if stream && *req.N != 1 {
			return provider.Unsupported("n", "a streamed answer from Vertex AI has one candidate; ask for n > 1 without stream")
		}
		gc.CandidateCount = req.N
	}
	for _, name := range slices.Sorted(maps.Keys(req.Extra)) {
		raw := req.Extra[name]
		var err error
		switch {
		case name == "seed":
			// Checked before isUnset: a seed of 0 is a seed like any other.
			if !isNull(raw) {
				err = decodeField(name, raw, &gc.Seed)
			}
		case name == "parallel_tool_calls":
			// Gemini may call several functions in a turn, as true asks; it has no switch
			// to forbid it.
			if !isNull(raw) && string(bytes.TrimSpace(raw)) != "true" {
				return provider.Unsupported(name, "Vertex AI Gemini may call several functions in one turn and has no way to forbid it")
			}
		case ignoredFields[name] || isUnset(raw):
		case name == "response_format":
			err = responseFormat(raw, gc)
		case name == "presence_penalty":
			err = decodeField(name, raw, &gc.PresencePenalty)
		case name == "frequency_penalty":
			err = decodeField(name, raw, &gc.FrequencyPenalty)
		case name == "top_k":
			err = decodeField(name, raw, &gc.TopK)
		case name == "logprobs" || name == "top_logprobs":
			if stream {
				return provider.Unsupported(name, "this router sends Vertex AI streams without log probabilities; ask without stream")
			}
			if name == "logprobs" {
				err = decodeField(name, raw, &gc.ResponseLogprobs)
			} else {
				err = decodeField(name, raw, &gc.Logprobs)
			}
		case name == "logit_bias":
			return provider.Unsupported(name, "Vertex AI Gemini has no logit bias")
		default:
			return provider.Unsupported(name, "Vertex AI Gemini has no equivalent of this field")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// isUnset reports whether a field's value asks for nothing: null, false, 0 or {}.
func isUnset(raw json.RawMessage) bool {
	switch string(bytes.TrimSpace(raw)) {
	case "", "null", "false", "0", "0.0", "{}":
		return true
	}
	return false
}

func decodeField[T any](name string, raw json.RawMessage, dst **T) error {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return &provider.Refusal{Msg: name + ": " + err.Error(), Param: name}
	}
	*dst = &v
	return nil
}

// responseFormat maps OpenAI's response_format: json_object asks for JSON, json_schema
// for JSON following the schema (adapted to Gemini's OpenAPI subset), text for nothing.
func responseFormat(raw json.RawMessage, gc *generationConfig) error {
	var rf struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	}
	if err := json.Unmarshal(raw, &rf); err != nil {
		return &provider.Refusal{Msg: "response_format must be an object with a type", Param: "response_format"}
	}
	switch rf.Type {
	case "text":
	case "json_object":
		gc.ResponseMIMEType = "application/json"
	case "json_schema":
		if rf.JSONSchema == nil || len(rf.JSONSchema.Schema) == 0 || !json.Valid(rf.JSONSchema.Schema) {
			return &provider.Refusal{Msg: "response_format.json_schema.schema is required for type json_schema", Param: "response_format"}
		}
		gc.ResponseMIMEType = "application/json"
		gc.ResponseSchema = openAPISchema(rf.JSONSchema.Schema)
	default:
		return provider.Unsupported("response_format", "type \""+rf.Type+"\" is not one of text, json_object, json_schema")
	}
	return nil
}

// logprobsResult is Gemini's account of token probabilities for one candidate.
type logprobsResult struct {
	TopCandidates []struct {
		Candidates []tokenLogprob `json:"candidates"`
	} `json:"topCandidates"`
	ChosenCandidates []tokenLogprob `json:"chosenCandidates"`
}

type tokenLogprob struct {
	Token          string  `json:"token"`
	LogProbability float64 `json:"logProbability"`
}

// openaiLogprobs translates a logprobsResult into OpenAI's choice.logprobs object.
func (r *logprobsResult) openaiLogprobs() json.RawMessage {
	if r == nil {
		return nil
	}
	type top struct {
		Token   string  `json:"token"`
		Logprob float64 `json:"logprob"`
		Bytes   []int   `json:"bytes"`
	}
	type entry struct {
		top
		TopLogprobs []top `json:"top_logprobs"`
	}
	toTop := func(c tokenLogprob) top {
		b := make([]int, len(c.Token))
		for i := range len(c.Token) {
			b[i] = int(c.Token[i])
		}
		return top{Token: c.Token, Logprob: c.LogProbability, Bytes: b}
	}
	content := make([]entry, 0, len(r.ChosenCandidates))
	for i, c := range r.ChosenCandidates {
		e := entry{top: toTop(c), TopLogprobs: []top{}}
		if i < len(r.TopCandidates) {
			for _, alt := range r.TopCandidates[i].Candidates {
				e.TopLogprobs = append(e.TopLogprobs, toTop(alt))
			}
		}
		content = append(content, e)
	}
	b, _ := json.Marshal(map[string]any{"content": content}) // plain values cannot fail
	return b
}
