package router

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestStreamAnswer(t *testing.T) {
	t.Parallel()
	role := `{"id":"c1","object":"chat.completion.chunk","created":7,"model":"up","choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}`
	text := func(s string) string {
		return `{"id":"c1","object":"chat.completion.chunk","created":7,"model":"up","choices":[{"index":0,"delta":{"content":"` + s + `"},"finish_reason":null}]}`
	}
	stop := `{"id":"c1","object":"chat.completion.chunk","created":7,"model":"up","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`
	usage := `{"id":"c1","object":"chat.completion.chunk","created":7,"model":"up","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`
	tests := []struct {
		name   string
		events []string
		want   string // the body, or "" when nothing is kept
	}{
		{"a finished stream", []string{role, text("Hello, "), text("world"), stop, usage},
			`{"id":"c1","object":"chat.completion","created":7,"model":"up","choices":[{"index":0,"message":{"role":"assistant","content":"Hello, world"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`},
		{"no finish_reason: cut short", []string{role, text("Hello")}, ""},
		{"tool calls are not kept", []string{role, `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}]}`, stop}, ""},
		{"a second choice is not kept", []string{role, `{"choices":[{"index":1,"delta":{"content":"x"},"finish_reason":null}]}`, stop}, ""},
		{"an event that is not a chunk", []string{role, `[1,2]`, stop}, ""},
		{"members a server sends as null are kept", []string{role,
			`{"choices":[{"index":0,"delta":{"content":"Hi","reasoning_content":null,"tool_calls":[],"refusal":null},"logprobs":null,"finish_reason":null}]}`, stop},
			`{"id":"c1","object":"chat.completion","created":7,"model":"up","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]}`},
		{"reasoning is not kept", []string{role, `{"choices":[{"index":0,"delta":{"reasoning_content":"Let me think"},"finish_reason":null}]}`, text("4"), stop}, ""},
		{"a refusal is not kept", []string{role, `{"choices":[{"index":0,"delta":{"refusal":"I can't"},"finish_reason":null}]}`, stop}, ""},
		{"log probabilities are not kept", []string{role,
			`{"choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":{"content":[{"token":"Hi","logprob":-0.1}]},"finish_reason":null}]}`, stop}, ""},
		{"a filtered answer is not kept", []string{role, text("I cannot"), `{"choices":[{"index":0,"delta":{},"finish_reason":"content_filter"}]}`}, ""},
		{"content that is not text", []string{role, `{"choices":[{"index":0,"delta":{"content":[1]},"finish_reason":null}]}`, stop}, ""},
	}
	for _, tt := range tests {
		var a StreamAnswer
		for _, e := range tt.events {
			a.Add([]byte(e))
		}
		body, ok := a.Body()
		if got := string(body); ok != (tt.want != "") || got != tt.want {
			t.Errorf("%s: %v %s\nwant %s", tt.name, ok, got, tt.want)
		}
	}
}

// TestReplayEvents: a whole answer replays as three events that add up to it again.
func TestReplayEvents(t *testing.T) {
	t.Parallel()
	body := `{"id":"c1","object":"chat.completion","created":7,"model":"up","choices":[{"index":0,"message":{"role":"assistant","content":"Hi there"},"finish_reason":"length"}]}`
	events, ok := ReplayEvents([]byte(body))
	if !ok || len(events) != 3 {
		t.Fatalf("ReplayEvents: %v, %d events", ok, len(events))
	}
	var a StreamAnswer
	for _, e := range events {
		if !json.Valid(e) {
			t.Fatalf("event %s", e)
		}
		a.Add(e)
	}
	got, ok := a.Body()
	if want := body; !ok || string(got) != want {
		t.Errorf("round trip: %s\nwant %s", got, want)
	}
	if _, ok := ReplayEvents([]byte(`{"choices":[]}`)); ok {
		t.Error("an answer without a choice replayed")
	}
}

func TestReplayableAnswer(t *testing.T) {
	t.Parallel()
	answer := func(choice string) string {
		return `{"id":"c1","object":"chat.completion","created":7,"model":"up","choices":[` + choice + `]}`
	}
	tests := []struct {
		name, body string
		want       bool
	}{
		{"text that stopped", answer(`{"index":0,"message":{"role":"assistant","content":"Paris"},"finish_reason":"stop"}`), true},
		{"text cut at max_tokens", answer(`{"index":0,"message":{"role":"assistant","content":"Par"},"finish_reason":"length"}`), true},
		{"vLLM's empty members", answer(`{"index":0,"message":{"role":"assistant","content":"Paris","refusal":null,"annotations":null,"audio":null,"function_call":null,"tool_calls":[],"reasoning_content":null},"logprobs":null,"finish_reason":"stop"}`), true},
		{"tool calls", answer(`{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"t","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}`), false},
		{"reasoning", answer(`{"index":0,"message":{"role":"assistant","content":"4","reasoning_content":"2+2"},"finish_reason":"stop"}`), false},
		{"log probabilities", answer(`{"index":0,"message":{"role":"assistant","content":"Hi"},"logprobs":{"content":[]},"finish_reason":"stop"}`), false},
		{"a refusal", answer(`{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that"},"finish_reason":"stop"}`), false},
		{"filtered", answer(`{"index":0,"message":{"role":"assistant","content":"I cannot help with that."},"finish_reason":"content_filter"}`), false},
		{"two choices", answer(`{"index":0,"message":{"role":"assistant","content":"a"},"finish_reason":"stop"},{"index":1,"message":{"role":"assistant","content":"b"},"finish_reason":"stop"}`), false},
		{"content parts", answer(`{"index":0,"message":{"role":"assistant","content":[{"type":"text","text":"a"}]},"finish_reason":"stop"}`), false},
		{"not JSON", `{"choices":`, false},
		{"larger than maxCachedAnswer", answer(`{"index":0,"message":{"role":"assistant","content":"` + strings.Repeat("a", maxCachedAnswer) + `"},"finish_reason":"stop"}`), false},
	}
	for _, tt := range tests {
		if got := replayableAnswer([]byte(tt.body)); got != tt.want {
			t.Errorf("%s: replayableAnswer = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestReplayUsage: the usage event of a replayed answer, for a client that asked for it.
func TestReplayUsage(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, body, want string }{
		{"the stored usage",
			`{"id":"c1","object":"chat.completion","created":7,"model":"up","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}`,
			`{"id":"c1","object":"chat.completion.chunk","created":7,"model":"up","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}`},
		{"no stored usage: zeros",
			`{"id":"c1","object":"chat.completion","created":7,"model":"up","choices":[]}`,
			`{"id":"c1","object":"chat.completion.chunk","created":7,"model":"up","choices":[],"usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0}}`},
		{"not an answer", `[1]`, ""},
	}
	for _, tt := range tests {
		got, ok := ReplayUsage([]byte(tt.body))
		if ok != (tt.want != "") || string(got) != tt.want {
			t.Errorf("%s: %v %s\nwant %s", tt.name, ok, got, tt.want)
		}
	}
}

// TestReplayedUsageIsNotCharged: a stream the cache answers ends with the usage event only
// when the client asked for it, and that usage is neither counted in the token metric nor
// charged: a cached answer costs no tokens.
func TestReplayedUsageIsNotCharged(t *testing.T) {
	t.Parallel()
	p, _, metrics := cacheRouter(t, "")
	body := func(includeUsage bool) string {
		b, _ := json.Marshal(map[string]any{"model": "m", "temperature": 0, "stream": true, "stream_options": map[string]bool{"include_usage": includeUsage},
			"messages": []map[string]string{{"role": "user", "content": "Name the smallest planet."}}})
		return string(b)
	}
	run := func(includeUsage bool) (events [][]byte, cached string) {
		t.Helper()
		h := bearer("key-a-0001")
		res, _, err := p.Serve(context.Background(), &Request{ID: "s", Header: h, Body: strings.NewReader(body(includeUsage))})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		for _, kv := range res.Explain() {
			if kv[0] == HeaderCache {
				cached = kv[1]
			}
		}
		return drain(t, res.Stream), cached
	}
	if _, got := run(true); got != CacheMiss {
		t.Fatalf("first: %q, want miss", got)
	}
	tokens := testutil.ToFloat64(metrics.Tokens.WithLabelValues("m", "completion"))
	for _, includeUsage := range []bool{true, false} {
		events, got := run(includeUsage)
		if got != CacheHit {
			t.Fatalf("include_usage %v: %q, want hit", includeUsage, got)
		}
		last := events[len(events)-1]
		if UsageOnly(last) != includeUsage {
			t.Errorf("include_usage %v: the last event %s", includeUsage, last)
		}
	}
	if got := testutil.ToFloat64(metrics.Tokens.WithLabelValues("m", "completion")); got != tokens {
		t.Errorf("completion tokens counted %v, want %v: the replay was counted", got, tokens)
	}
}
