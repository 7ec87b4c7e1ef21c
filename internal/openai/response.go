package openai

import (
	"encoding/json"

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

// Usage counts tokens.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

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
