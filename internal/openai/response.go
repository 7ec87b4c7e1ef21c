package openai

import (
	"encoding/json"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ChatResponse is a non-streaming chat completion.
type ChatResponse struct {
	ID                string   `json:"id"`
	Object            string   `json:"object"`
	Created           int64    `json:"created"`
	Model             string   `json:"model"`
	Choices           []Choice `json:"choices"`
	Usage             *Usage   `json:"usage,omitempty"`
	SystemFingerprint string   `json:"system_fingerprint,omitempty"`
}

// Choice is one completion alternative.
type Choice struct {
	Index        int             `json:"index"`
	Message      Message         `json:"message"`
	FinishReason string          `json:"finish_reason"`
	Logprobs     json.RawMessage `json:"logprobs,omitempty"`
}

// Usage counts tokens as OpenAI does: PromptTokens includes the cached prompt tokens that
// PromptTokensDetails reports, and CompletionTokens the reasoning tokens that
// CompletionTokensDetails reports, so TotalTokens is their sum either way. A nil details
// object was not reported and is left out. Extra keeps every other member, so that the
// usage of an OpenAI-compatible backend is written back as it came.
type Usage struct {
	PromptTokens            int                      `json:"prompt_tokens"`
	CompletionTokens        int                      `json:"completion_tokens"`
	TotalTokens             int                      `json:"total_tokens"`
	PromptTokensDetails     *PromptTokensDetails     `json:"prompt_tokens_details,omitempty"`
	CompletionTokensDetails *CompletionTokensDetails `json:"completion_tokens_details,omitempty"`

	Extra map[string]json.RawMessage `json:",embed"`
}

// PromptTokensDetails breaks down Usage.PromptTokens. Extra keeps the members not listed
// (audio_tokens, …).
type PromptTokensDetails struct {
	// CachedTokens is how many prompt tokens were read from the provider's prompt cache.
	CachedTokens int `json:"cached_tokens"`

	Extra map[string]json.RawMessage `json:",embed"`
}

// CompletionTokensDetails breaks down Usage.CompletionTokens. Extra keeps the members not
// listed (audio_tokens, accepted_prediction_tokens, …).
type CompletionTokensDetails struct {
	// ReasoningTokens is how many completion tokens the model spent thinking.
	ReasoningTokens int `json:"reasoning_tokens"`

	Extra map[string]json.RawMessage `json:",embed"`
}

// Usage and its details are read and written by encoding/json/v2 as the request types are
// (see chat.go), so that Extra is kept under encoding/json too.

type (
	plainUsage                   Usage
	plainPromptTokensDetails     PromptTokensDetails
	plainCompletionTokensDetails CompletionTokensDetails
)

// UnmarshalJSONFrom decodes the known members and keeps the rest in Extra. A details
// member of another shape than OpenAI's (a count that is not an integer) does not cost the
// counts, which metering reads: it is kept in Extra as it came, unread.
func (u *Usage) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	var p plainUsage
	if err := jsonv2.Unmarshal(raw, &p, codec); err == nil {
		*u = Usage(p)
		return nil
	}
	var counts struct {
		PromptTokens     int                        `json:"prompt_tokens"`
		CompletionTokens int                        `json:"completion_tokens"`
		TotalTokens      int                        `json:"total_tokens"`
		Extra            map[string]json.RawMessage `json:",embed"`
	}
	if err := jsonv2.Unmarshal(raw, &counts, codec); err != nil {
		return err
	}
	*u = Usage{PromptTokens: counts.PromptTokens, CompletionTokens: counts.CompletionTokens,
		TotalTokens: counts.TotalTokens, Extra: counts.Extra}
	return nil
}

// MarshalJSONTo encodes the known members followed by Extra, in sorted order.
func (u *Usage) MarshalJSONTo(enc *jsontext.Encoder) error {
	return jsonv2.MarshalEncode(enc, (*plainUsage)(u))
}

// UnmarshalJSON is UnmarshalJSONFrom for encoding/json.
func (u *Usage) UnmarshalJSON(data []byte) error { return jsonv2.Unmarshal(data, u, codec) }

// MarshalJSON is MarshalJSONTo for encoding/json.
func (u Usage) MarshalJSON() ([]byte, error) { return jsonv2.Marshal(&u, codec) }

// UnmarshalJSONFrom decodes the known members and keeps the rest in Extra.
func (d *PromptTokensDetails) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var p plainPromptTokensDetails
	if err := jsonv2.UnmarshalDecode(dec, &p); err != nil {
		return err
	}
	*d = PromptTokensDetails(p)
	return nil
}

// MarshalJSONTo encodes the known members followed by Extra, in sorted order.
func (d *PromptTokensDetails) MarshalJSONTo(enc *jsontext.Encoder) error {
	return jsonv2.MarshalEncode(enc, (*plainPromptTokensDetails)(d))
}

// UnmarshalJSON is UnmarshalJSONFrom for encoding/json.
func (d *PromptTokensDetails) UnmarshalJSON(data []byte) error {
	return jsonv2.Unmarshal(data, d, codec)
}

// MarshalJSON is MarshalJSONTo for encoding/json.
func (d PromptTokensDetails) MarshalJSON() ([]byte, error) { return jsonv2.Marshal(&d, codec) }

// UnmarshalJSONFrom decodes the known members and keeps the rest in Extra.
func (d *CompletionTokensDetails) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var p plainCompletionTokensDetails
	if err := jsonv2.UnmarshalDecode(dec, &p); err != nil {
		return err
	}
	*d = CompletionTokensDetails(p)
	return nil
}

// MarshalJSONTo encodes the known members followed by Extra, in sorted order.
func (d *CompletionTokensDetails) MarshalJSONTo(enc *jsontext.Encoder) error {
	return jsonv2.MarshalEncode(enc, (*plainCompletionTokensDetails)(d))
}

// UnmarshalJSON is UnmarshalJSONFrom for encoding/json.
func (d *CompletionTokensDetails) UnmarshalJSON(data []byte) error {
	return jsonv2.Unmarshal(data, d, codec)
}

// MarshalJSON is MarshalJSONTo for encoding/json.
func (d CompletionTokensDetails) MarshalJSON() ([]byte, error) { return jsonv2.Marshal(&d, codec) }

// ChatChunk is one streamed event of a chat completion (object "chat.completion.chunk").
type ChatChunk struct {
	ID                string        `json:"id"`
	Object            string        `json:"object"`
	Created           int64         `json:"created"`
	Model             string        `json:"model"`
	Choices           []ChunkChoice `json:"choices"`
	Usage             *Usage        `json:"usage,omitempty"`
	SystemFingerprint string        `json:"system_fingerprint,omitempty"`
}

// ChunkChoice is one choice's delta within a chunk. FinishReason is null until the last chunk.
type ChunkChoice struct {
	Index        int     `json:"index"`
	Delta        Delta   `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

// Delta is the incremental part of a streamed message.
type Delta struct {
	Role      string     `json:"role,omitempty"`
	Content   string     `json:"content,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ExtraContent is vendor data about the message, as Google's OpenAI-compatible
	// endpoint sends it: {"google": {"thought_signature": ...}} for a signed text part.
	ExtraContent json.RawMessage `json:"extra_content,omitempty"`
}

// Model is one entry of GET /v1/models.
type Model struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

// ModelList is the GET /v1/models body.
type ModelList struct {
	Object string  `json:"object"`
	Data   []Model `json:"data"`
}

// NewModelList is the GET /v1/models body that lists names, each created at created (Unix
// seconds) and owned by ownedBy. Data is never null: an empty list is [].
func NewModelList(names []string, created int64, ownedBy string) ModelList {
	list := ModelList{Object: ObjectList, Data: make([]Model, 0, len(names))}
	for _, n := range names {
		list.Data = append(list.Data, Model{ID: n, Object: ObjectModel, Created: created, OwnedBy: ownedBy})
	}
	return list
}

// Object names used on the wire.
const (
	ObjectChatCompletion      = "chat.completion"
	ObjectChatCompletionChunk = "chat.completion.chunk"
	ObjectList                = "list"
	ObjectModel               = "model"
)

// Present records that a member was in a JSON object, checking its value without keeping it:
// reading an answer for its usage need not copy its choices.
type Present bool

// UnmarshalJSONFrom implements encoding/json/v2's UnmarshalerFrom.
func (p *Present) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	*p = true
	return dec.SkipValue()
}
