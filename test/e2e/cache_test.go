package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"

	"github.com/semantic-router/semantic-router/internal/provider/sim"
)

// TestSDKStreamsACachedAnswerWithItsUsage: a client of the official SDK that asks for the
// usage of a stream (stream_options.include_usage) gets the usage event from a stream the
// cache answers too, as OpenAI's API promises, with the usage a whole answer from the cache
// reports; and the cached answer is the one the model gave.
func TestSDKStreamsACachedAnswerWithItsUsage(t *testing.T) {
	t.Parallel()
	be := newBackend(t, "", sim.Options{Model: "upstream/chat-8b", TokenLatency: time.Millisecond})
	r := startRouter(t, compatConfig(be.URL, "")+"cache: {enabled: true}\n")
	client := sdk(r)
	ctx := context.Background()
	params := openai.ChatCompletionNewParams{
		Model:         "chat",
		Temperature:   openai.Float(0),
		Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Name the largest moon of Saturn.")},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	type streamed struct {
		text      string
		finish    string
		usage     int64 // total tokens of the last event, which has no choices
		lastEmpty bool  // the last event has no choices
	}
	stream := func() streamed {
		t.Helper()
		s := client.Chat.Completions.NewStreaming(ctx, params)
		var out streamed
		var text strings.Builder
		for s.Next() {
			c := s.Current()
			out.lastEmpty, out.usage = len(c.Choices) == 0, c.Usage.TotalTokens
			if len(c.Choices) > 0 {
				text.WriteString(c.Choices[0].Delta.Content)
				if f := c.Choices[0].FinishReason; f != "" {
					out.finish = f
				}
			}
		}
		if err := s.Err(); err != nil {
			t.Fatal(err)
		}
		out.text = text.String()
		return out
	}
	miss := stream()
	if !miss.lastEmpty || miss.usage == 0 || miss.finish != "stop" {
		t.Fatalf("the model's stream: %+v, want a usage event last", miss)
	}
	// The answer is stored once the client has it.
	deadline := time.Now().Add(10 * time.Second)
	for _, body := do(t, "GET", r.API+"/api/v1/cache", ""); !strings.Contains(string(body), `"entries":1`); _, body = do(t, "GET", r.API+"/api/v1/cache", "") {
		if time.Now().After(deadline) {
			t.Fatalf("the streamed answer was not stored: %s", body)
		}
		time.Sleep(10 * time.Millisecond)
	}
	wparams := params
	wparams.StreamOptions = openai.ChatCompletionStreamOptionsParam{}
	whole, err := client.Chat.Completions.New(ctx, wparams)
	if err != nil {
		t.Fatal(err)
	}
	hit := stream()
	if be.requests() != 1 {
		t.Fatalf("the backend had %d requests, want 1: the cache did not answer", be.requests())
	}
	want := streamed{text: miss.text, finish: "stop", usage: whole.Usage.TotalTokens, lastEmpty: true}
	if hit != want {
		t.Errorf("the stream from the cache: %+v, want %+v", hit, want)
	}
	if whole.Choices[0].Message.Content != miss.text {
		t.Errorf("the whole answer from the cache %q, want %q", whole.Choices[0].Message.Content, miss.text)
	}
}
