package router

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/signal"
)

// unmasked are the request members a masking policy reads but does not rewrite: the
// application's own definitions, whose names and schema its code depends on.
var unmasked = []string{"functions", "response_format"}

// maskRequest masks the personal data in out, a copy of the client's request whose messages
// slice is its own, wherever the policies read it (signal.InputFromChat): every member of
// every message, and the request's other members but the tools, the legacy functions and the
// response schema. Nothing out shares with the client's request is changed in place.
func maskRequest(det *signal.PIIDetector, out *openai.ChatRequest) {
	for i := range out.Messages {
		out.Messages[i] = maskMessage(det, out.Messages[i])
	}
	if len(out.Stop.Values) > 0 {
		stop := out.Stop
		stop.Values = make([]string, len(out.Stop.Values))
		for i, v := range out.Stop.Values {
			stop.Values[i] = maskText(det, v)
		}
		out.Stop = stop
	}
	out.User = maskText(det, out.User)
	if len(out.ToolChoice) > 0 {
		out.ToolChoice = json.RawMessage(maskJSON(det, string(out.ToolChoice)))
	}
	if len(out.ChatTemplateKwargs) > 0 {
		if b, err := json.Marshal(out.ChatTemplateKwargs); err == nil {
			var kw map[string]any
			if m := maskJSON(det, string(b)); m != string(b) && json.Unmarshal([]byte(m), &kw) == nil {
				out.ChatTemplateKwargs = kw
			}
		}
	}
	out.Extra = maskMembers(det, out.Extra, unmasked...)
	maskAcrossTurns(det, out)
}

// maskAcrossTurns masks the personal data that shows only in the user's messages read as one,
// as the PII signal reads them (signal.Input.UserTurns): a value cut into two messages ("send
// it to j.okafor" / "@example.com"). Each message holding a piece of it becomes its
// normalised text with that piece replaced by the type ("[EMAIL]"), as maskText does when the
// data shows only once normalised. out's messages slice is its own.
func maskAcrossTurns(det *signal.PIIDetector, out *openai.ChatRequest) {
	users := 0
	for _, m := range out.Messages {
		if signal.MessageRole(m.Role) == signal.RoleUser {
			users++
		}
	}
	if users < 2 {
		return
	}
	text, spans := signal.InputFromChat(out, nil).UserTurns()
	if text == "" {
		return
	}
	cuts := map[int][]signal.PIIFinding{} // by message, in its normalised text, in order
	for _, f := range det.Detect(text).Findings {
		// The spans are in order and apart: the first that f reaches is found by a binary
		// search, so that a conversation of many turns and findings costs no more than
		// their number times its log.
		first, _ := slices.BinarySearchFunc(spans, f.Start, func(s signal.TurnSpan, at int) int {
			if s.End > at {
				return 1
			}
			return -1
		})
		last := first - 1
		for last+1 < len(spans) && spans[last+1].Start < f.End {
			last++
		}
		if last <= first {
			continue // within one message (or none), which maskMessage has masked
		}
		for _, s := range spans[first : last+1] {
			cuts[s.Message] = append(cuts[s.Message], signal.PIIFinding{Type: f.Type, Start: max(f.Start, s.Start) - s.Start, End: min(f.End, s.End) - s.Start})
		}
	}
	for i, fs := range cuts {
		m := out.Messages[i]
		masked := signal.PIIResult{Findings: fs}.Mask(signal.Normalize(m.Content.String()))
		if m.Content.IsParts {
			m.Content.Parts = mergeText(m.Content.Parts, masked)
		} else {
			m.Content.Text = masked
		}
		out.Messages[i] = m
	}
}

// maskMessage returns m with the personal data masked in each of its members: its text and
// parts, its name, its tool calls (name, id, arguments), its tool_call_id and its other
// members (reasoning_content, refusal, ...).
func maskMessage(det *signal.PIIDetector, m openai.Message) openai.Message {
	m.Content = maskContent(det, m.Content)
	m.Name = maskText(det, m.Name)
	m.ToolCallID = maskText(det, m.ToolCallID)
	if len(m.ToolCalls) > 0 {
		calls := append([]openai.ToolCall(nil), m.ToolCalls...)
		for i := range calls {
			calls[i].ID = maskText(det, calls[i].ID)
			calls[i].Function.Name = maskText(det, calls[i].Function.Name)
			calls[i].Function.Arguments = maskJSON(det, calls[i].Function.Arguments)
		}
		m.ToolCalls = calls
	}
	m.Extra = maskMembers(det, m.Extra)
	return m
}

// maskMembers returns members with each value masked (maskJSON), but those named in keep;
// members itself when nothing changed.
func maskMembers(det *signal.PIIDetector, members map[string]json.RawMessage, keep ...string) map[string]json.RawMessage {
	var out map[string]json.RawMessage
	for k, raw := range members {
		if slices.Contains(keep, k) {
			continue
		}
		if m := maskJSON(det, string(raw)); m != string(raw) {
			if out == nil {
				out = maps.Clone(members)
			}
			out[k] = json.RawMessage(m)
		}
	}
	if out == nil {
		return members
	}
	return out
}

// maskContent masks a content's text, or each of its parts whole (every member, as
// maskJSON). Text parts that show personal data only once joined without a separator (as a
// template that concatenates them shows them, "mail jane@" and "example.com") become one
// text part, masked, in the place of the first.
func maskContent(det *signal.PIIDetector, c openai.Content) openai.Content {
	if !c.IsParts {
		c.Text = maskText(det, c.Text)
		return c
	}
	parts := make([]openai.ContentPart, 0, len(c.Parts))
	var joined strings.Builder
	texts := 0
	for _, p := range c.Parts {
		if p.Type == "text" {
			joined.WriteString(p.Text)
			texts++
		}
		if p.Raw != nil {
			if m := maskJSON(det, string(p.Raw)); m != string(p.Raw) {
				p.Raw = json.RawMessage(m)
				var q openai.ContentPart
				if json.Unmarshal(p.Raw, &q) == nil {
					p.Text = q.Text
				}
			}
		} else {
			p.Text = maskText(det, p.Text)
		}
		parts = append(parts, p)
	}
	if texts > 1 {
		if whole := joined.String(); maskText(det, whole) != whole && !maskedAlready(det, parts) {
			parts = mergeText(parts, maskText(det, whole))
		}
	}
	c.Parts = parts
	return c
}

// maskedAlready reports whether the text parts, joined, show no personal data: masking
// them one by one was enough.
func maskedAlready(det *signal.PIIDetector, parts []openai.ContentPart) bool {
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	s := b.String()
	return maskText(det, s) == s
}

// mergeText replaces the text parts with one holding text, where the first was.
func mergeText(parts []openai.ContentPart, text string) []openai.ContentPart {
	out := make([]openai.ContentPart, 0, len(parts))
	merged := false
	for _, p := range parts {
		if p.Type != "text" {
			out = append(out, p)
			continue
		}
		if !merged {
			out = append(out, openai.ContentPart{Type: "text", Text: text})
			merged = true
		}
	}
	return out
}

// maskJSON masks every string value and member name of a JSON text, decoded, and returns it
// encoded again; text that is not JSON is masked as it is. Inline data (signal.ParseInline)
// is masked as the policies read it (maskInline). Text with nothing to mask comes back as it
// was.
func maskJSON(det *signal.PIIDetector, text string) string {
	var v any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber() // numbers are written again as they came
	if dec.Decode(&v) != nil || dec.More() {
		return maskText(det, text)
	}
	changed := false
	mask := func(s string) string {
		m := maskInline(det, s)
		changed = changed || m != s
		return m
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			return mask(x)
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[mask(k)] = walk(e)
			}
			return out
		}
		return v
	}
	v = walk(v)
	if !changed {
		return text
	}
	b, err := json.Marshal(v)
	if err != nil {
		return maskText(det, text)
	}
	return string(b)
}

// maskInline masks s, a JSON string, as the policies read it. Inline data that decodes to
// text is masked decoded and encoded again the same way; binary data is left alone unless
// the words it shows between separators hold personal data, and then it is masked as text
// (or, when that does not remove the data, replaced by those words masked): it is not the
// media it claims to be. Any other string is masked as text.
func maskInline(det *signal.PIIDetector, s string) string {
	in, ok := signal.ParseInline(s)
	if !ok {
		return maskText(det, s)
	}
	if in.Binary {
		words := in.Read()
		if words == "" || maskText(det, words) == words {
			return s
		}
		if m := maskText(det, s); m != s {
			return m
		}
		return maskText(det, words)
	}
	b, err := in.Decode()
	if err != nil {
		return s
	}
	if m := maskText(det, string(b)); m != string(b) {
		return in.Encode([]byte(m))
	}
	return s
}
