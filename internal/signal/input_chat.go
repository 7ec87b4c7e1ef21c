package signal

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// promptFields are the top-level request fields that model servers render into the prompt
// beside the messages: OpenAI's legacy functions and response schema, vLLM's documents and
// template. Their text is read as system text.
var promptFields = []string{"functions", "response_format", "documents", "chat_template"}

// InputFromChat collects what the signals read of a chat request: everything the model reads.
// Each message's text is a segment of the message's role; each tool call's arguments a tool
// segment; and, as Aside segments, what a chat template renders around them: a message's
// name, its other members (reasoning_content, refusal, a legacy function_call), text parts
// that are not of type "text", several text parts joined without a separator (as a template
// that concatenates them shows them), the tool calls' names, and the tools, the response
// schema, vLLM's documents, chat_template and chat_template_kwargs as system text. All of it
// is normalised once. The headers (h may be nil) and the "user" field are kept. The Input is
// for one Evaluate.
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
			aside(i, RoleTool, tc.Function.Name)
		}
		aside(i, role, m.Name)
		aside(i, role, partsAside(m.Content))
		for _, k := range slices.Sorted(maps.Keys(m.Extra)) {
			aside(i, role, JSONText(m.Extra[k]))
		}
	}
	var system []string
	for _, t := range req.Tools {
		system = append(system, t.Function.Name, t.Function.Description, JSONText(t.Function.Parameters))
	}
	for _, k := range promptFields {
		if raw, ok := req.Extra[k]; ok {
			system = append(system, JSONText(raw))
		}
	}
	if len(req.ChatTemplateKwargs) > 0 {
		if b, err := json.Marshal(req.ChatTemplateKwargs); err == nil {
			system = append(system, JSONText(b))
		}
	}
	aside(-1, RoleSystem, strings.TrimSpace(strings.Join(system, "\n")))
	in := NewInput(segs)
	in.Header, in.User = h, req.User
	return in
}

// partsAside is the text of an array content that Content.String leaves out: the text of
// parts of another type than "text" (input_text, output_text, a part without a type) and
// refusals, one per line, and the text parts joined without a separator when there are
// several.
func partsAside(c openai.Content) string {
	if !c.IsParts {
		return ""
	}
	var lines []string
	var joined strings.Builder
	texts := 0
	for _, p := range c.Parts {
		if p.Type == "text" {
			joined.WriteString(p.Text)
			texts++
			continue
		}
		var other struct {
			Text    string `json:"text"`
			Refusal string `json:"refusal"`
		}
		if json.Unmarshal(p.Raw, &other) == nil {
			lines = append(lines, other.Text, other.Refusal)
		}
	}
	if texts > 1 {
		lines = append(lines, joined.String())
	}
	return strings.TrimSpace(strings.Join(slices.DeleteFunc(lines, func(s string) bool { return s == "" }), "\n"))
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
