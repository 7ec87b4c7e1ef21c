package providertest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// OpenAIFake is an OpenAI-compatible upstream at Server.URL+"/v1". It accepts only the
// bearer API keys it was given, as a real server does, and the set can change while it
// serves: a rotation test accepts old and new key, then revokes the old one.
type OpenAIFake struct {
	Server *httptest.Server
	script *Script

	mu   sync.RWMutex
	keys map[string]bool
}

// NewOpenAIFake starts a fake that accepts the given API keys; it is closed with t.
func NewOpenAIFake(t testing.TB, script *Script, keys ...string) *OpenAIFake {
	f := &OpenAIFake{script: script}
	f.SetKeys(keys...)
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Server.Close)
	return f
}

// SetKeys replaces the accepted API keys.
func (f *OpenAIFake) SetKeys(keys ...string) {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	f.mu.Lock()
	f.keys = m
	f.mu.Unlock()
}

func (f *OpenAIFake) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == FollowedPath {
		serveFollowed(w, f.script)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		openai.WriteError(w, openai.NotFound("", "no route "+r.URL.Path))
		return
	}
	key, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	f.mu.RLock()
	valid := ok && f.keys[key]
	f.mu.RUnlock()
	if !valid {
		openai.WriteError(w, &openai.APIError{Status: http.StatusUnauthorized, Type: openai.TypeAuthentication,
			Code: "invalid_api_key", Message: "Incorrect API key provided."})
		return
	}
	var req openai.ChatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		openai.WriteError(w, openai.BadRequest("", "invalid JSON body: "+err.Error()))
		return
	}
	seen, err := seenFromOpenAI(&req)
	if err != nil {
		openai.WriteError(w, openai.BadRequest("messages", err.Error()))
		return
	}
	seen.Credential, seen.Model = key, req.Model
	reply := f.script.Answer(seen)
	if serveCommon(w, r, f.script, reply) {
		return
	}
	switch {
	case reply.Misbehave == EchoCredentials:
		openai.WriteError(w, &openai.APIError{Status: cmp.Or(reply.Status, 500), Type: openai.TypeServer, Message: echoed(r)})
		return
	case reply.Hang:
		<-r.Context().Done()
		return
	case reply.Status != 0:
		if reply.Status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "2")
		}
		openai.WriteError(w, &openai.APIError{Status: reply.Status, Type: openai.TypeServer, Message: FailureMessage})
		return
	}
	usage := &openai.Usage{PromptTokens: reply.PromptTokens, CompletionTokens: reply.CompletionTokens,
		TotalTokens: reply.PromptTokens + reply.CompletionTokens}
	if reply.CachedTokens > 0 {
		usage.PromptTokensDetails = &openai.PromptTokensDetails{CachedTokens: reply.CachedTokens}
	}
	if reply.ReasoningTokens > 0 {
		usage.CompletionTokensDetails = &openai.CompletionTokensDetails{ReasoningTokens: reply.ReasoningTokens}
	}
	const id = "chatcmpl-fake"
	if !req.Stream {
		msg := openai.Message{Role: "assistant", Content: openai.TextContent(reply.Text)}
		finish := "stop"
		if reply.Call != nil {
			msg.Content = openai.Content{IsNull: true}
			msg.ToolCalls = []openai.ToolCall{{ID: "call_fake_1", Type: "function",
				Function: openai.FunctionCall{Name: reply.Call.Name, Arguments: reply.Call.Arguments}}}
			finish = "tool_calls"
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(openai.ChatResponse{ID: id, Object: openai.ObjectChatCompletion, Model: req.Model,
			Choices: []openai.Choice{{Message: msg, FinishReason: finish}}, Usage: usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	rc := http.NewResponseController(w)
	send := func(ch openai.ChatChunk) {
		ch.ID, ch.Object, ch.Model = id, openai.ObjectChatCompletionChunk, req.Model
		b, _ := json.Marshal(ch)
		fmt.Fprintf(w, "data: %s\n\n", b)
		_ = rc.Flush()
	}
	delta := func(d openai.Delta) openai.ChatChunk {
		return openai.ChatChunk{Choices: []openai.ChunkChoice{{Delta: d}}}
	}
	send(delta(openai.Delta{Role: "assistant"}))
	finish := "stop"
	if reply.Call != nil {
		zero := 0
		send(delta(openai.Delta{ToolCalls: []openai.ToolCall{{Index: &zero, ID: "call_fake_1", Type: "function",
			Function: openai.FunctionCall{Name: reply.Call.Name}}}}))
		send(delta(openai.Delta{ToolCalls: []openai.ToolCall{{Index: &zero, Function: openai.FunctionCall{Arguments: reply.Call.Arguments}}}}))
		finish = "tool_calls"
	}
	for i, word := range Words(reply.Text) {
		send(delta(openai.Delta{Content: word}))
		if i == 0 && reply.HoldAfterFirst {
			f.script.Hold(r.Context().Done())
		}
		if i > 0 {
			continue
		}
		switch reply.Misbehave {
		case StreamCut:
			return
		case StreamGarbage:
			fmt.Fprint(w, "data: {not json\n\n")
		case EchoInStream:
			b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": echoed(r), "type": "server_error"}})
			fmt.Fprintf(w, "data: %s\n\n", b)
			return
		}
	}
	end := delta(openai.Delta{})
	end.Choices[0].FinishReason = &finish
	send(end)
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		send(openai.ChatChunk{Choices: []openai.ChunkChoice{}, Usage: usage})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// seenFromOpenAI translates an OpenAI request into the neutral form.
func seenFromOpenAI(req *openai.ChatRequest) (Seen, error) {
	s := Seen{Stream: req.Stream, Temperature: req.Temperature, Stop: req.Stop.Values}
	if req.MaxTokens != nil {
		s.MaxTokens = *req.MaxTokens
	}
	if req.N != nil {
		s.setField("n", *req.N)
	}
	for name, raw := range req.Extra {
		if name != "response_format" {
			s.setField(name, raw)
			continue
		}
		var rf struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		}
		if err := json.Unmarshal(raw, &rf); err != nil {
			return Seen{}, fmt.Errorf("response_format: %w", err)
		}
		switch rf.Type {
		case "json_object":
			s.setField(name, "json_object")
		case "json_schema":
			s.setField(name, rf.JSONSchema.Schema)
		}
	}
	for _, t := range req.Tools {
		s.Tools = append(s.Tools, t.Function.Name)
	}
	for _, m := range req.Messages {
		switch m.Role {
		case "system", "developer":
			s.System = joinText(s.System, m.Content.String())
		case "tool":
			res := Result{CallID: m.ToolCallID, Content: m.Content.String()}
			if n := len(s.Turns); n > 0 && len(s.Turns[n-1].Results) > 0 {
				s.Turns[n-1].Results = append(s.Turns[n-1].Results, res)
			} else {
				s.Turns = append(s.Turns, Turn{Role: "user", Results: []Result{res}})
			}
		case "user", "assistant":
			turn := Turn{Role: m.Role, Text: m.Content.String()}
			for _, p := range m.Content.Parts {
				if p.Type == "image_url" {
					turn.Images++
				}
			}
			for _, c := range m.ToolCalls {
				turn.Calls = append(turn.Calls, Call{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
			}
			s.Turns = append(s.Turns, turn)
		default:
			return Seen{}, fmt.Errorf("unknown role %q", m.Role)
		}
	}
	return s, nil
}

func joinText(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}
