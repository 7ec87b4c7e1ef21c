package signal

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// InputFromChat collects what the signals read of a chat request: everything it sends the
// model server, which the model reads or which leaves with it. Each message's text is a
// segment of the message's role; each tool call's arguments a tool segment; and, as Aside
// segments, the rest of each message (its name, its other members such as reasoning_content,
// refusal or a legacy function_call, its content parts' members other than a text part's
// text, its text parts joined without a separator, as a template that concatenates them
// shows them, its tool calls' names and ids, its tool_call_id) and, as system text, every
// other member of the request (tools, tool_choice, response_format, stop, user, metadata,
// prediction, vLLM's documents, chat_template and guided decoding, anything unknown). Inline
// base64 data is read decoded when it is text and left out when it is binary (see JSONText).
// All of it is normalised once. The headers (h may be nil) and the "user" field are kept for the user and header
// signals. The Input is for one Evaluate.
func InputFromChat(req *openai.ChatRequest, h http.Header) *Input {
	segs := make([]Segment, 0, len(req.Messages))
	aside := func(i int, role Role, raw string) {
		if raw != "" {
			segs = append(segs, Segment{Message: i, Role: role, Aside: true, Raw: raw})
		}
	}
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
			aside(i, RoleTool, joinLines(tc.Function.Name, tc.ID))
		}
		aside(i, role, joinLines(m.Name, m.ToolCallID))
		aside(i, role, partsAside(m.Content))
		for _, k := range sortedKeys(m.Extra) {
			aside(i, role, joinLines(k, JSONText(m.Extra[k])))
		}
	}
	aside(-1, RoleSystem, requestAside(req))
	in := NewInput(segs)
	in.Header, in.User = h, req.User
	return in
}

// requestAside is the text of the request's members other than its messages, one per line.
func requestAside(req *openai.ChatRequest) string {
	var lines []string
	for _, t := range req.Tools {
		lines = append(lines, t.Function.Name, t.Function.Description, JSONText(t.Function.Parameters))
	}
	lines = append(lines, req.Stop.Values...)
	lines = append(lines, JSONText(req.ToolChoice), req.User)
	if len(req.ChatTemplateKwargs) > 0 {
		if b, err := json.Marshal(req.ChatTemplateKwargs); err == nil {
			lines = append(lines, JSONText(b))
		}
	}
	for _, k := range sortedKeys(req.Extra) {
		lines = append(lines, k, JSONText(req.Extra[k]))
	}
	return joinLines(lines...)
}

// partsAside is the text of an array content that Content.String leaves out: every member of
// every part but a text part's type and text (input_text, output_text, thinking and refusal
// parts, an image's URL and detail, a file's name), one per line, and the text parts joined
// without a separator when there are several.
func partsAside(c openai.Content) string {
	if !c.IsParts {
		return ""
	}
	var lines []string
	var joined strings.Builder
	texts := 0
	for _, p := range c.Parts {
		var members map[string]json.RawMessage
		if json.Unmarshal(p.Raw, &members) != nil {
			continue
		}
		if p.Type == "text" {
			joined.WriteString(p.Text)
			texts++
			delete(members, "type")
			delete(members, "text")
		}
		for _, k := range slices.Sorted(maps.Keys(members)) {
			lines = append(lines, k, JSONText(members[k]))
		}
	}
	if texts > 1 {
		lines = append(lines, joined.String())
	}
	return joinLines(lines...)
}

// sortedKeys returns m's keys in order; nil, at no cost, for the empty map most messages and
// requests have.
func sortedKeys(m map[string]json.RawMessage) []string {
	if len(m) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}

// joinLines joins the non-empty lines with newlines.
func joinLines(lines ...string) string {
	return strings.Join(slices.DeleteFunc(lines, func(s string) bool { return s == "" }), "\n")
}

// tokens estimates the tokens of the messages' text as sent, the tool calls' arguments and
// the text aside left out: what the context_length signals read.
func (in *Input) tokens() int {
	n := 0
	for _, s := range in.Segments {
		if !s.ToolCall && !s.Aside {
			n += EstimateTokens(s.Raw)
		}
	}
	return n
}
