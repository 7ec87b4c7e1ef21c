// Package openai holds the OpenAI wire types the gateway reads and writes, and the error envelope.
//
// The request type keeps every field it does not know in Extra, so a request passes through the
// router with nothing lost: vLLM's sampling extensions, new OpenAI parameters and vendor fields all
// reach the upstream as the client sent them.
package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ChatRequest is a POST /v1/chat/completions body.
//
// Known fields are typed; all others are kept verbatim in Extra and written back by MarshalJSON.
// Pointer fields distinguish "absent" from zero so that re-encoding never invents a value.
type ChatRequest struct {
	Model               string          `json:"model"`
	Messages            []Message       `json:"messages"`
	Stream              bool            `json:"stream,omitzero"`
	StreamOptions       *StreamOptions  `json:"stream_options,omitempty"`
	MaxTokens           *int            `json:"max_tokens,omitempty"`
	MaxCompletionTokens *int            `json:"max_completion_tokens,omitempty"`
	Temperature         *float64        `json:"temperature,omitempty"`
	TopP                *float64        `json:"top_p,omitempty"`
	N                   *int            `json:"n,omitempty"`
	Stop                Stop            `json:"stop,omitzero"`
	Tools               []Tool          `json:"tools,omitempty"`
	ToolChoice          json.RawMessage `json:"tool_choice,omitempty"`
	User                string          `json:"user,omitempty"`
	ReasoningEffort     string          `json:"reasoning_effort,omitempty"`
	// ChatTemplateKwargs is vLLM's per-request template switch (e.g. enable_thinking).
	ChatTemplateKwargs map[string]any `json:"chat_template_kwargs,omitempty"`

	// Extra holds every top-level field not listed above, as the client sent it.
	Extra map[string]json.RawMessage `json:",embed"`
}

// StreamOptions is the stream_options object.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage,omitempty"`
	// Extra holds the members not listed above, such as vLLM's continuous_usage_stats, so
	// that they reach the model server.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Tool is one entry of the tools array.
type Tool struct {
	Type     string       `json:"type"`
	Function FunctionSpec `json:"function"`
}

// FunctionSpec describes a callable function.
type FunctionSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	Strict      *bool           `json:"strict,omitempty"`
}

// Message is one chat message. Content is a string or an array of parts; Extra keeps unknown
// fields (reasoning_content, cache_control, …) so they pass through.
type Message struct {
	Role       string     `json:"role"`
	Content    Content    `json:"content"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`

	Extra map[string]json.RawMessage `json:",embed"`
}

// ToolCall is a function call made by the assistant. Extra keeps unknown members, such as
// the extra_content that carries Gemini's thought signature, so that they pass through.
type ToolCall struct {
	// Index is set only in streamed deltas.
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function FunctionCall `json:"function"`

	Extra map[string]json.RawMessage `json:",embed"`
}

// FunctionCall names a function and carries its JSON-encoded arguments.
type FunctionCall struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// The request types are read and written by encoding/json/v2 (its mirror module until Go 1.27),
// which decodes each value in one pass. Their encoding/json methods forward to it, so that
// every caller gets the same result.

type (
	plainRequest  ChatRequest
	plainMessage  Message
	plainToolCall ToolCall
)

// UnmarshalJSONFrom decodes the known fields and keeps the rest in Extra.
func (r *ChatRequest) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var p plainRequest
	if err := jsonv2.UnmarshalDecode(dec, &p); err != nil {
		return err
	}
	*r = ChatRequest(p)
	return nil
}

// MarshalJSONTo encodes the known fields followed by Extra, in sorted order.
func (r *ChatRequest) MarshalJSONTo(enc *jsontext.Encoder) error {
	return jsonv2.MarshalEncode(enc, (*plainRequest)(r))
}

// Encode returns the request as JSON, as MarshalJSON does, without encoding/json's second
// pass over the result. It encodes the plain type, as MarshalJSONTo does, one level of
// encoder less deep: the stack a request grows is held for the connection's life.
func (r *ChatRequest) Encode() ([]byte, error) { return jsonv2.Marshal((*plainRequest)(r), codec) }

// UnmarshalJSON is UnmarshalJSONFrom for encoding/json.
func (r *ChatRequest) UnmarshalJSON(data []byte) error { return jsonv2.Unmarshal(data, r, codec) }

// MarshalJSON is MarshalJSONTo for encoding/json.
func (r ChatRequest) MarshalJSON() ([]byte, error) { return jsonv2.Marshal(&r, codec) }

// UnmarshalJSONFrom decodes the known fields and keeps the rest in Extra.
func (m *Message) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	// An absent content (an assistant turn with only tool calls) is re-encoded as null; a
	// content member replaces this.
	p := plainMessage{Content: Content{IsNull: true}}
	if err := jsonv2.UnmarshalDecode(dec, &p); err != nil {
		return err
	}
	*m = Message(p)
	return nil
}

// MarshalJSONTo encodes the known fields followed by Extra, in sorted order.
func (m *Message) MarshalJSONTo(enc *jsontext.Encoder) error {
	if m.Name != "" || len(m.ToolCalls) > 0 || m.ToolCallID != "" || len(m.Extra) > 0 {
		return jsonv2.MarshalEncode(enc, (*plainMessage)(m))
	}
	// Most messages are a role and a content: written directly, the same bytes as the
	// general encoder's (TestMessageEncodingPaths) without its frames, which would stand on
	// the client connection's goroutine whose stack a stream holds.
	for _, tok := range [...]jsontext.Token{jsontext.BeginObject, jsontext.String("role"), jsontext.String(m.Role), jsontext.String("content")} {
		if err := enc.WriteToken(tok); err != nil {
			return err
		}
	}
	if err := m.Content.MarshalJSONTo(enc); err != nil {
		return err
	}
	return enc.WriteToken(jsontext.EndObject)
}

// UnmarshalJSON is UnmarshalJSONFrom for encoding/json.
func (m *Message) UnmarshalJSON(data []byte) error { return jsonv2.Unmarshal(data, m, codec) }

// MarshalJSON is MarshalJSONTo for encoding/json.
func (m Message) MarshalJSON() ([]byte, error) { return jsonv2.Marshal(&m, codec) }

// UnmarshalJSONFrom decodes the known fields and keeps the rest in Extra.
func (c *ToolCall) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var p plainToolCall
	if err := jsonv2.UnmarshalDecode(dec, &p); err != nil {
		return err
	}
	*c = ToolCall(p)
	return nil
}

// MarshalJSONTo encodes the known fields followed by Extra, in sorted order.
func (c *ToolCall) MarshalJSONTo(enc *jsontext.Encoder) error {
	return jsonv2.MarshalEncode(enc, (*plainToolCall)(c))
}

// UnmarshalJSON is UnmarshalJSONFrom for encoding/json.
func (c *ToolCall) UnmarshalJSON(data []byte) error { return jsonv2.Unmarshal(data, c, codec) }

// MarshalJSON is MarshalJSONTo for encoding/json.
func (c ToolCall) MarshalJSON() ([]byte, error) { return jsonv2.Marshal(&c, codec) }

// Content is a message's content: plain text, an array of parts, or null (assistant tool calls).
type Content struct {
	Text  string
	Parts []ContentPart
	// IsParts records that the client sent an array, so it is re-encoded as one.
	IsParts bool
	// IsNull records an explicit or absent content, re-encoded as null.
	IsNull bool
}

// ContentPart is one element of an array content. Only text parts are read by the router;
// other parts (image_url, input_audio, file) are carried in Raw untouched.
type ContentPart struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	// Raw is the part exactly as received; used for non-text parts.
	Raw json.RawMessage `json:"-"`
}

// TextContent returns a Content holding plain text.
func TextContent(s string) Content { return Content{Text: s} }

// String returns the text of the content; text parts are joined with newlines.
func (c Content) String() string {
	if !c.IsParts {
		return c.Text
	}
	var sb strings.Builder
	for _, p := range c.Parts {
		if p.Type != "text" {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(p.Text)
	}
	return sb.String()
}

// errContent is the error for a content that is neither text, parts nor null.
var errContent = errors.New("content must be a string, an array of content parts, or null")

// UnmarshalJSONFrom accepts a string, an array of parts or null.
func (c *Content) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case 'n':
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		*c = Content{IsNull: true}
		return nil
	case '"':
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		*c = Content{Text: tok.String()}
		return nil
	case '[':
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		parts := []ContentPart{}
		for dec.PeekKind() != ']' {
			raw, err := dec.ReadValue()
			if err != nil {
				return err
			}
			var p ContentPart
			if err := jsonv2.Unmarshal(raw, &p, codec); err != nil {
				return fmt.Errorf("content[%d]: %w", len(parts), err)
			}
			p.Raw = bytes.Clone(raw)
			parts = append(parts, p)
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		*c = Content{Parts: parts, IsParts: true}
		return nil
	default:
		return errContent
	}
}

// MarshalJSONTo writes the content in the shape it was received.
func (c *Content) MarshalJSONTo(enc *jsontext.Encoder) error {
	switch {
	case c.IsParts:
		if err := enc.WriteToken(jsontext.BeginArray); err != nil {
			return err
		}
		for _, p := range c.Parts {
			var err error
			if p.Raw != nil {
				err = enc.WriteValue(jsontext.Value(p.Raw))
			} else {
				err = jsonv2.MarshalEncode(enc, struct {
					Type string `json:"type"`
					Text string `json:"text"`
				}{p.Type, p.Text})
			}
			if err != nil {
				return err
			}
		}
		return enc.WriteToken(jsontext.EndArray)
	case c.IsNull && c.Text == "":
		return enc.WriteToken(jsontext.Null)
	default:
		return enc.WriteToken(jsontext.String(c.Text))
	}
}

// UnmarshalJSON is UnmarshalJSONFrom for encoding/json.
func (c *Content) UnmarshalJSON(data []byte) error { return jsonv2.Unmarshal(data, c, codec) }

// MarshalJSON is MarshalJSONTo for encoding/json.
func (c Content) MarshalJSON() ([]byte, error) { return jsonv2.Marshal(&c, codec) }

// Stop is the stop parameter: one string or a list of strings. It is re-encoded in the form
// it was received.
type Stop struct {
	Values []string
	// Single records that the client sent one string rather than an array.
	Single bool
}

// IsZero reports whether no stop parameter was given.
func (s Stop) IsZero() bool { return s.Values == nil }

// UnmarshalJSON accepts a string or an array of strings.
func (s *Stop) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if bytes.Equal(data, []byte("null")) {
		*s = Stop{}
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var one string
		if err := json.Unmarshal(data, &one); err != nil {
			return err
		}
		*s = Stop{Values: []string{one}, Single: true}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil {
		return errors.New("stop must be a string or an array of strings")
	}
	if many == nil {
		many = []string{}
	}
	*s = Stop{Values: many}
	return nil
}

// MarshalJSON writes a string or an array, as received.
func (s Stop) MarshalJSON() ([]byte, error) {
	if s.Single && len(s.Values) == 1 {
		return json.Marshal(s.Values[0])
	}
	return json.Marshal(s.Values)
}

// LastUserText returns the text of the last user message, the part of a conversation that
// routing signals look at by default.
func (r *ChatRequest) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content.String()
		}
	}
	return ""
}
