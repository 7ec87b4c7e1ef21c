package router

import (
	"encoding/json"
	"testing"
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
