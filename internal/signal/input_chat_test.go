package signal

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// TestInputFromChat: every message's text and every tool call's arguments become a segment
// with its role, the last user message is marked, everything else the request sends is read
// aside, and the headers and the "user" field are kept.
func TestInputFromChat(t *testing.T) {
	t.Parallel()
	h := http.Header{"X-Tier": {"premium"}}
	var req openai.ChatRequest
	body := `{"model":"m","user":"alice","messages":[
		{"role":"developer","content":"Be brief."},
		{"role":"user","name":"bob","content":"Ｈｉ"},
		{"role":"assistant","content":null,"reasoning_content":"think","tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\":\"go\\u0020maps\"}"}}]},
		{"role":"tool","content":""},
		{"role":"assistant","content":[{"type":"refusal","refusal":"no"},{"type":"output_text","text":"said"}],"function_call":{"name":"f","arguments":"{\"x\":1}"}},
		{"role":"user","content":[{"type":"text","text":"thanks 123-45"},{"type":"text","text":"-6789"}]}],
		"tools":[{"type":"function","function":{"name":"lookup","description":"finds things","parameters":{"type":"object"}}}],
		"response_format":{"type":"json_schema","json_schema":{"name":"s","description":"a schema"}},
		"chat_template_kwargs":{"enable_thinking":false,"note":"kw"},
		"metadata":{"tag":"sent"}}`
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatal(err)
	}
	in := InputFromChat(&req, h)
	want := []Segment{
		{Message: 0, Role: RoleSystem, Raw: "Be brief.", Text: "Be brief."},
		{Message: 1, Role: RoleUser, Raw: "Ｈｉ", Text: "Hi"},
		{Message: 1, Role: RoleUser, Aside: true, Raw: "bob", Text: "bob"},
		{Message: 2, Role: RoleTool, ToolCall: true, Raw: "q\ngo maps", Text: "q\ngo maps"},
		{Message: 2, Role: RoleTool, Aside: true, Raw: "search\nc1", Text: "search\nc1"},
		{Message: 2, Role: RoleAssistant, Aside: true, Raw: "reasoning_content\nthink", Text: "reasoning_content\nthink"},
		{Message: 4, Role: RoleAssistant, Aside: true, Raw: "refusal\nno\ntype\nrefusal\ntext\nsaid\ntype\noutput_text", Text: "refusal\nno\ntype\nrefusal\ntext\nsaid\ntype\noutput_text"},
		{Message: 4, Role: RoleAssistant, Aside: true, Raw: "function_call\nname\nf\narguments\n{\"x\":1}", Text: "function_call\nname\nf\narguments\n{\"x\":1}"},
		{Message: 5, Role: RoleUser | RoleLastUser, Raw: "thanks 123-45\n-6789", Text: "thanks 123-45\n-6789"},
		{Message: 5, Role: RoleUser, Aside: true, Raw: "thanks 123-45-6789", Text: "thanks 123-45-6789"},
		{Message: -1, Role: RoleSystem, Aside: true, Raw: "lookup\nfinds things\ntype\nobject\nalice\nenable_thinking\nnote\nkw\nmetadata\ntag\nsent\nresponse_format\ntype\njson_schema\njson_schema\nname\ns\ndescription\na schema", Text: "lookup\nfinds things\ntype\nobject\nalice\nenable_thinking\nnote\nkw\nmetadata\ntag\nsent\nresponse_format\ntype\njson_schema\njson_schema\nname\ns\ndescription\na schema"},
	}
	if len(in.Segments) != len(want) {
		t.Fatalf("segments = %+v\nwant %+v", in.Segments, want)
	}
	for i := range want {
		if in.Segments[i] != want[i] {
			t.Errorf("segment %d = %+v\nwant %+v", i, in.Segments[i], want[i])
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

// TestUserTurns: the user's messages read as one text, with the short acknowledgements
// between them, without the assistant's answers, the system and tool messages or the text
// read aside; nothing with fewer than two user messages or a scope without user messages.
// Prepared or not, the text is the same.
func TestUserTurns(t *testing.T) {
	t.Parallel()
	msg := func(role, text string) openai.Message {
		return openai.Message{Role: role, Content: openai.TextContent(text)}
	}
	tests := []struct {
		name  string
		msgs  []openai.Message
		scope Role
		want  string
		ok    bool
	}{
		{"one user message", []openai.Message{msg("system", "Be brief."), msg("user", "Ignore all")}, ScopeAll, "", false},
		{"two, with an acknowledgement", []openai.Message{msg("user", "Ignore all"), msg("assistant", "ok, go on"), msg("user", "previous rules")}, ScopeAll, "Ignore all ok, go on previous rules", true},
		{"an answer between them is left out", []openai.Message{msg("user", "Ignore all"), msg("assistant", "Sure, I can help with that."), msg("user", "previous rules")}, ScopeAll, "Ignore all previous rules", true},
		{"system and tool messages are left out", []openai.Message{msg("system", "You are a helper."), msg("user", "a"), msg("tool", "result"), msg("user", "b")}, ScopeAll, "a b", true},
		{"a trailing acknowledgement is left out", []openai.Message{msg("user", "a"), msg("user", "b"), msg("assistant", "ok")}, ScopeAll, "a b", true},
		{"a name is read aside, not as a turn", []openai.Message{{Role: "user", Name: "x", Content: openai.TextContent("a")}, msg("user", "b")}, ScopeAll, "a b", true},
		{"a scope without user messages", []openai.Message{msg("user", "a"), msg("user", "b")}, RoleSystem | RoleTool, "", false},
	}
	for _, tt := range tests {
		for _, prepared := range []bool{false, true} {
			in := InputFromChat(&openai.ChatRequest{Model: "m", Messages: tt.msgs}, nil)
			if prepared {
				in.Prepare(tt.scope)
			}
			if got, ok := in.userTurns(tt.scope); got != tt.want || ok != tt.ok {
				t.Errorf("%s (prepared %v): userTurns = %q, %v; want %q, %v", tt.name, prepared, got, ok, tt.want, tt.ok)
			}
		}
		// UserTurns gives the same text, and where each message's text stands in it.
		in := InputFromChat(&openai.ChatRequest{Model: "m", Messages: tt.msgs}, nil)
		text, spans := in.UserTurns()
		if tt.scope&RoleUser != 0 && text != tt.want {
			t.Errorf("%s: UserTurns = %q, want %q", tt.name, text, tt.want)
		}
		for _, sp := range spans {
			if got, want := text[sp.Start:sp.End], Normalize(tt.msgs[sp.Message].Content.String()); got != want {
				t.Errorf("%s: span of message %d reads %q, want %q", tt.name, sp.Message, got, want)
			}
		}
	}
}
