package signal

import (
	"context"
	"net/http"
	"testing"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// TestInputFromChat: every message's text and every tool call's arguments become a segment
// with its role, the last user message is marked, and the headers and the "user" field are
// kept.
func TestInputFromChat(t *testing.T) {
	t.Parallel()
	h := http.Header{"X-Tier": {"premium"}}
	req := &openai.ChatRequest{User: "alice", Messages: []openai.Message{
		{Role: "developer", Content: openai.TextContent("Be brief.")},
		{Role: "user", Content: openai.TextContent("Ｈｉ")},
		{Role: "assistant", ToolCalls: []openai.ToolCall{{ID: "c1", Type: "function",
			Function: openai.FunctionCall{Name: "search", Arguments: `{"q":"go\u0020maps"}`}}}},
		{Role: "tool", Content: openai.TextContent("")},
		{Role: "user", Content: openai.TextContent("thanks")},
	}}
	in := InputFromChat(req, h)
	want := []Segment{
		{Message: 0, Role: RoleSystem, Raw: "Be brief.", Text: "Be brief."},
		{Message: 1, Role: RoleUser, Raw: "Ｈｉ", Text: "Hi"},
		{Message: 2, Role: RoleTool, ToolCall: true, Raw: "go maps", Text: "go maps"},
		{Message: 4, Role: RoleUser | RoleLastUser, Raw: "thanks", Text: "thanks"},
	}
	if len(in.Segments) != len(want) {
		t.Fatalf("segments = %+v, want %+v", in.Segments, want)
	}
	for i := range want {
		if in.Segments[i] != want[i] {
			t.Errorf("segment %d = %+v, want %+v", i, in.Segments[i], want[i])
		}
	}
	if in.User != "alice" || in.Header.Get("X-Tier") != "premium" {
		t.Errorf("user %q, header %v", in.User, in.Header)
	}
}

// TestContextLengthCountsTheMessages: the token estimate of the context_length signals is the
// sum over the messages' text as sent (before normalisation), tool calls' arguments aside.
func TestContextLengthCountsTheMessages(t *testing.T) {
	t.Parallel()
	s := newTestSet(t, `
models:
  - model_name: m
    provider: {type: sim}
signals:
  context_length:
    - {name: short, max_tokens: 12}
`, SetOptions{})
	texts := []string{"You are a helpful assistant.", "東京の天気はどうですか", "It is sunny in Tokyo today."}
	req := &openai.ChatRequest{Messages: []openai.Message{
		{Role: "system", Content: openai.TextContent(texts[0])},
		{Role: "user", Content: openai.TextContent(texts[1])},
		{Role: "assistant", Content: openai.TextContent(texts[2]), ToolCalls: []openai.ToolCall{{ID: "c1", Type: "function",
			Function: openai.FunctionCall{Name: "weather", Arguments: `{"city":"Tokyo, the capital of Japan, on the island of Honshu"}`}}}},
	}}
	want := 0
	for _, t := range texts {
		want += EstimateTokens(t)
	}
	res, m, err := s.Evaluate(context.Background(), InputFromChat(req, nil), nil)
	if err != nil || len(res) != 1 {
		t.Fatalf("results %+v, err %v", res, err)
	}
	if res[0].Value != want || res[0].Matched != (want <= 12) || m.Get("short").Matched != res[0].Matched {
		t.Errorf("result %+v, match %+v; want %d tokens", res[0], m.Get("short"), want)
	}
}

// TestNilSet: a router without signals holds a nil Set, which is ready and closes.
func TestNilSet(t *testing.T) {
	t.Parallel()
	var s *Set
	if err := s.Ready(context.Background()); err != nil {
		t.Errorf("Ready = %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
}
