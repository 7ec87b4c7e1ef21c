package openaicompat_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/openaicompat"
)

// TestAnswerIsReadForItsUsage: a 200 answer is passed on as sent, with its usage read; one
// that is not a chat completion object is a protocol error.
func TestAnswerIsReadForItsUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		usage      *openai.Usage
		err        string
	}{
		{"with usage", `{"id":"c","choices":[{"index":0,"message":{"role":"assistant","content":"hi"}}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`,
			&openai.Usage{PromptTokens: 3, CompletionTokens: 1, TotalTokens: 4}, ""},
		{"with usage details", `{"id":"c","choices":[],"usage":{"prompt_tokens":2006,"completion_tokens":300,"total_tokens":2306,` +
			`"prompt_tokens_details":{"cached_tokens":1920,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":128,"accepted_prediction_tokens":0}}}`,
			&openai.Usage{PromptTokens: 2006, CompletionTokens: 300, TotalTokens: 2306,
				PromptTokensDetails:     &openai.PromptTokensDetails{CachedTokens: 1920, Extra: map[string]json.RawMessage{"audio_tokens": json.RawMessage(`0`)}},
				CompletionTokensDetails: &openai.CompletionTokensDetails{ReasoningTokens: 128, Extra: map[string]json.RawMessage{"accepted_prediction_tokens": json.RawMessage(`0`)}}}, ""},
		{"without usage", `{"id":"c","choices":[]}`, nil, ""},
		{"choices null", `{"choices":null}`, nil, ""},
		{"no choices", `{"id":"c","object":"chat.completion"}`, nil,
			"the answer is not a chat completion JSON object"},
		{"not JSON", `<html>gateway</html>`, nil,
			"the answer is not a chat completion JSON object"},
		{"choices cut", `{"choices":[{"index":0,`, nil,
			"the answer is not a chat completion JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(tt.body))
			}))
			t.Cleanup(srv.Close)
			p, err := openaicompat.New(openaicompat.Options{Name: "m", BaseURL: srv.URL + "/v1", Model: "up"})
			if err != nil {
				t.Fatal(err)
			}
			resp, err := p.ChatCompletion(context.Background(), &openai.ChatRequest{Model: "m",
				Messages: []openai.Message{{Role: "user", Content: openai.TextContent("hi")}}})
			if tt.err != "" {
				var pe *provider.Error
				if !errors.As(err, &pe) || pe.Kind != provider.KindProtocol || !strings.HasSuffix(pe.Message, ": "+tt.err) {
					t.Fatalf("err = %v, want a protocol error %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(resp.Body) != tt.body {
				t.Errorf("body = %s, want it as sent", resp.Body)
			}
			if (resp.Usage == nil) != (tt.usage == nil) || (tt.usage != nil && !reflect.DeepEqual(*resp.Usage, *tt.usage)) {
				t.Errorf("usage = %+v, want %+v", resp.Usage, tt.usage)
			}
		})
	}
}

// BenchmarkChatCompletion is the provider stage of a request: encode the upstream body, send
// it over a pooled connection to a model server on loopback, read the answer and its usage.
// The server's own work is a few writes; most of the time is the round trip.
func BenchmarkChatCompletion(b *testing.B) {
	answer := []byte(`{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Paris."},"finish_reason":"stop"}],"usage":{"prompt_tokens":14,"completion_tokens":2,"total_tokens":16}}`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	}))
	defer srv.Close()
	c, err := openaicompat.New(openaicompat.Options{Name: "m", BaseURL: srv.URL + "/v1", Model: "m"})
	if err != nil {
		b.Fatal(err)
	}
	req := &openai.ChatRequest{Model: "m", Messages: []openai.Message{{Role: "user", Content: openai.TextContent("What is the capital of France?")}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.ChatCompletion(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
