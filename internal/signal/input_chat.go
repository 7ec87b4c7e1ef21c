package signal

import (
	"net/http"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// InputFromChat collects what the signals read of a chat request: each message's text and
// each tool call's arguments, normalised once, the headers (h may be nil) and the "user"
// field. Nothing else is copied. The Input is for one Evaluate.
func InputFromChat(req *openai.ChatRequest, h http.Header) *Input {
	segs := make([]Segment, 0, len(req.Messages))
	for i, m := range req.Messages {
		role := MessageRole(m.Role)
		if t := m.Content.String(); t != "" {
			segs = append(segs, Segment{Message: i, Role: role, Raw: t})
		}
		for _, tc := range m.ToolCalls {
			if tc.Function.Arguments != "" {
				segs = append(segs, Segment{Message: i, Role: RoleTool, ToolCall: true,
					Raw: ToolCallText(tc.Function.Arguments)})
			}
		}
	}
	in := NewInput(segs)
	in.Header, in.User = h, req.User
	return in
}

// tokens estimates the tokens of the messages' text as sent, the tool calls' arguments
// aside: what the context_length signals read.
func (in *Input) tokens() int {
	n := 0
	for _, s := range in.Segments {
		if !s.ToolCall {
			n += EstimateTokens(s.Raw)
		}
	}
	return n
}
