package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/semantic-router/semantic-router/internal/provider/sim"
)

// backend is an OpenAI-compatible server (the simulated model over HTTP) that checks the
// bearer key like a real vLLM started with --api-key, and keeps the last request body.
type backend struct {
	*httptest.Server
	key string

	mu    sync.Mutex
	last  []byte
	count int
}

func newBackend(t *testing.T, key string, o sim.Options) *backend {
	t.Helper()
	b := &backend{key: key}
	h := sim.Handler(o)
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b.key != "" && r.Header.Get("Authorization") != "Bearer "+b.key {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":{"message":"Unauthorized","type":"invalid_request_error"}}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		b.last = body
		b.count++
		b.mu.Unlock()
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(b.Close)
	return b
}

func (b *backend) lastRequest(t *testing.T) map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var m map[string]any
	if err := json.Unmarshal(b.last, &m); err != nil {
		t.Fatalf("backend got no JSON request: %v", err)
	}
	return m
}

// requests is the number of requests the backend has answered.
func (b *backend) requests() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.count
}

func compatConfig(baseURL, keyRef string) string {
	key := ""
	if keyRef != "" {
		key = "\n      api_key: " + keyRef
	}
	return fmt.Sprintf(`
routing:
  default_model: chat
models:
  - model_name: chat
    provider:
      type: openai_compatible
      base_url: %s/v1
      model: upstream/chat-8b%s
  - model_name: hidden
    exposed: false
    provider:
      type: sim
`, baseURL, key)
}

func sdk(r *router) openai.Client {
	return openai.NewClient(option.WithBaseURL(r.Inference+"/v1/"), option.WithAPIKey("client-key"), option.WithMaxRetries(0))
}

func TestSDKAgainstTheDemoConfig(t *testing.T) {
	t.Parallel()
	r := startRouter(t, "")
	client := sdk(r)
	ctx := context.Background()

	var httpResp *http.Response
	resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    "auto",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hello there")},
	}, option.WithResponseInto(&httpResp))
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.Content; !strings.Contains(got, "hello there") {
		t.Errorf("content = %q, want the sim's echo of the prompt", got)
	}
	// A short greeting is small talk: the demo sends it to the small (hidden) model.
	if got := httpResp.Header.Get("x-vsr-selected-model"); got != "small" {
		t.Errorf("x-vsr-selected-model = %q, want small", got)
	}
	if got := httpResp.Header.Get("x-vsr-selected-decision"); got != "small_talk" {
		t.Errorf("x-vsr-selected-decision = %q, want small_talk", got)
	}
	if httpResp.Header.Get("x-request-id") == "" {
		t.Error("no x-request-id header")
	}

	stream := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{
		Model:         "reasoning",
		Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage("why is the sky blue")},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	})
	var text strings.Builder
	chunks, usage := 0, int64(0)
	for stream.Next() {
		c := stream.Current()
		chunks++
		if len(c.Choices) > 0 {
			text.WriteString(c.Choices[0].Delta.Content)
		}
		usage += c.Usage.CompletionTokens
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text.String(), "Let me think this through step by step.") || chunks < 5 || usage == 0 {
		t.Errorf("stream: %d chunks, usage %d, text %q", chunks, usage, text.String())
	}

	models, err := client.Models.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range models.Data {
		ids = append(ids, m.ID)
	}
	if got := strings.Join(ids, ","); got != "auto,general,reasoning" {
		t.Errorf("/v1/models = %s, want auto,general,reasoning (small is hidden)", got)
	}

	// models.retrieve finds what the list shows, and nothing else.
	m, err := client.Models.Get(ctx, "reasoning")
	if err != nil || m.ID != "reasoning" || m.OwnedBy != "semantic-router" {
		t.Errorf("models.retrieve reasoning = %+v, %v", m, err)
	}
	var apiErr *openai.Error
	if _, err := client.Models.Get(ctx, "small"); !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Code != "model_not_found" {
		t.Errorf("models.retrieve of a hidden model: %v, want a 404 model_not_found", err)
	}
}

// TestTheTourRoutesAsTheREADMESays: the quick tour's prompts reach the decisions and models
// its comments name, on the embedded demo config.
func TestTheTourRoutesAsTheREADMESays(t *testing.T) {
	t.Parallel()
	client := sdk(startRouter(t, ""))
	for _, tt := range []struct{ prompt, decision, model string }{
		{"How does a B-tree index speed up database queries?", "code", "general"},
		{"hi, how are you?", "small_talk", "small"},
	} {
		var httpResp *http.Response
		if _, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model:    "auto",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(tt.prompt)},
		}, option.WithResponseInto(&httpResp)); err != nil {
			t.Fatal(err)
		}
		if d, m := httpResp.Header.Get("x-vsr-selected-decision"), httpResp.Header.Get("x-vsr-selected-model"); d != tt.decision || m != tt.model {
			t.Errorf("%q: decision %q, model %q; the README says %q, %q", tt.prompt, d, m, tt.decision, tt.model)
		}
	}
}

func TestSDKThroughAnOpenAICompatibleBackend(t *testing.T) {
	t.Parallel()
	be := newBackend(t, "backend-secret-0001", sim.Options{Model: "upstream/chat-8b", TokenLatency: time.Millisecond})
	r := startRouter(t, compatConfig(be.URL, "env.CHAT_API_KEY"), "CHAT_API_KEY=backend-secret-0001")
	client := sdk(r)
	ctx := context.Background()

	resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    "chat",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage("be brief"), openai.UserMessage("ping")},
	}, option.WithJSONSet("top_k", 20), option.WithJSONSet("repetition_penalty", 1.05))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Model != "upstream/chat-8b" || !strings.Contains(resp.Choices[0].Message.Content, "ping") {
		t.Errorf("response model %q content %q", resp.Model, resp.Choices[0].Message.Content)
	}
	sent := be.lastRequest(t)
	if sent["model"] != "upstream/chat-8b" {
		t.Errorf("upstream got model %v, want the upstream id", sent["model"])
	}
	if sent["top_k"] != float64(20) || sent["repetition_penalty"] != 1.05 {
		t.Errorf("unknown fields not passed through: %v", sent)
	}

	stream := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{
		Model:    "auto",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("stream please")},
	})
	var text strings.Builder
	for stream.Next() {
		if c := stream.Current(); len(c.Choices) > 0 {
			text.WriteString(c.Choices[0].Delta.Content)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if want := "This is upstream/chat-8b answering: stream please"; text.String() != want {
		t.Errorf("streamed text %q, want %q", text.String(), want)
	}
	if sent := be.lastRequest(t); sent["stream"] != true {
		t.Errorf("upstream request was not streaming: %v", sent)
	}
}

func TestModelListingsAndPorts(t *testing.T) {
	t.Parallel()
	r := startRouter(t, "")

	resp, body := do(t, "GET", r.Inference+"/v1/models", "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("/v1/models: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var list struct {
		Object string
		Data   []struct{ ID, Object string }
	}
	if err := json.Unmarshal(body, &list); err != nil || list.Object != "list" || len(list.Data) != 3 || list.Data[0].Object != "model" {
		t.Errorf("/v1/models body: %s", body)
	}

	resp, body = do(t, "GET", r.API+"/api/v1/models", "")
	var all struct {
		VirtualModel string `json:"virtual_model"`
		Models       []struct {
			Name       string
			Exposed    bool
			Provider   string
			Registered bool
		}
	}
	if err := json.Unmarshal(body, &all); err != nil || resp.StatusCode != 200 {
		t.Fatalf("/api/v1/models: %d %s", resp.StatusCode, body)
	}
	if len(all.Models) != 3 || all.VirtualModel != "auto" {
		t.Fatalf("/api/v1/models lists %d models: %s", len(all.Models), body)
	}
	for _, m := range all.Models {
		if !m.Registered || m.Provider != "sim" || m.Exposed != (m.Name != "small") {
			t.Errorf("model %+v", m)
		}
	}

	for _, path := range []string{"/health", "/ready"} {
		if resp, _ := do(t, "GET", r.API+path, ""); resp.StatusCode != 200 {
			t.Errorf("%s = %d", path, resp.StatusCode)
		}
	}

	resp, body = do(t, "POST", r.API+"/v1/chat/completions", `{"model":"auto","messages":[{"role":"user","content":"hi"}]}`)
	msg, _, _ := errorEnvelope(t, resp, body)
	if resp.StatusCode != 404 || !strings.Contains(msg, "inference is served on the OpenAI-compatible listener") {
		t.Errorf("completion on the management API: %d %s", resp.StatusCode, msg)
	}

	resp, body = do(t, "GET", r.Metrics+"/metrics", "")
	if resp.StatusCode != 200 || !strings.Contains(string(body), "semantic_router_model_registered{model=\"general\",provider=\"sim\"} 1") {
		t.Errorf("metrics: %d\n%s", resp.StatusCode, body)
	}
}

func TestRequestErrorsUseTheEnvelope(t *testing.T) {
	t.Parallel()
	r := startRouter(t, `
server:
  max_request_body_bytes: 2048
models:
  - model_name: general
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 0s}}
  - model_name: secret-model
    exposed: false
    provider: {type: sim}
`)
	big := `{"model":"general","messages":[{"role":"user","content":"` + strings.Repeat("x", 4096) + `"}]}`
	tests := []struct {
		name, method, path, body string
		status                   int
		code, message            string
	}{
		{"malformed JSON", "POST", "/v1/chat/completions", `{"model":`, 400, "",
			"the request body is not valid JSON (at byte 9): unexpected end of JSON input"},
		{"no model", "POST", "/v1/chat/completions", `{"messages":[{"role":"user","content":"hi"}]}`, 400, "",
			"you must provide a model parameter"},
		{"no messages", "POST", "/v1/chat/completions", `{"model":"general","messages":[]}`, 400, "",
			"messages must be a non-empty array"},
		{"wrong type", "POST", "/v1/chat/completions", `{"model":"general","messages":"hi"}`, 400, "",
			"messages must be an array, not a JSON string"},
		{"bad role", "POST", "/v1/chat/completions", `{"model":"general","messages":[{"role":"robot","content":"hi"}]}`, 400, "",
			`messages[0].role must be one of system, developer, user, assistant, tool; got "robot"`},
		{"unknown model", "POST", "/v1/chat/completions", `{"model":"gpt-9","messages":[{"role":"user","content":"hi"}]}`, 404, "model_not_found",
			`the model "gpt-9" does not exist; GET /v1/models lists the models you can use, or send "auto" to let the router choose`},
		{"hidden model named directly", "POST", "/v1/chat/completions", `{"model":"secret-model","messages":[{"role":"user","content":"hi"}]}`, 404, "model_not_found",
			`the model "secret-model" does not exist; GET /v1/models lists the models you can use, or send "auto" to let the router choose`},
		{"too large", "POST", "/v1/chat/completions", big, 413, "request_too_large",
			"the request body is larger than 2048 bytes (server.max_request_body_bytes)"},
		{"wrong method", "GET", "/v1/chat/completions", "", 405, "",
			"method GET is not allowed on /v1/chat/completions; use POST"},
		{"unknown path", "GET", "/v2/things", "", 404, "unknown_url",
			"unknown path GET /v2/things; this listener serves POST /v1/chat/completions, GET /v1/models and GET /v1/models/{model}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := do(t, tt.method, r.Inference+tt.path, tt.body)
			msg, _, code := errorEnvelope(t, resp, body)
			if resp.StatusCode != tt.status || code != tt.code || msg != tt.message {
				t.Errorf("got %d code %q %q\nwant %d code %q %q", resp.StatusCode, code, msg, tt.status, tt.code, tt.message)
			}
		})
	}
}
