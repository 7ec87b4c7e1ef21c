package bedrock

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// The Converse API's request and response shapes, as far as the router uses them. Members
// the router does not send are left out rather than sent empty: Converse rejects empty
// blocks and unknown members.

type converseRequest struct {
	Messages        []message        `json:"messages"`
	System          []systemBlock    `json:"system,omitempty"`
	InferenceConfig *inferenceConfig `json:"inferenceConfig,omitempty"`
	ToolConfig      *toolConfig      `json:"toolConfig,omitempty"`
	OutputConfig    *outputConfig    `json:"outputConfig,omitempty"`
	// AdditionalModelRequestFields carries model-specific fields Converse passes on as is.
	AdditionalModelRequestFields map[string]json.RawMessage `json:"additionalModelRequestFields,omitempty"`
}

type systemBlock struct {
	Text string `json:"text"`
}

type inferenceConfig struct {
	MaxTokens     *int     `json:"maxTokens,omitempty"`
	Temperature   *float64 `json:"temperature,omitempty"`
	TopP          *float64 `json:"topP,omitempty"`
	StopSequences []string `json:"stopSequences,omitempty"`
}

type message struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

// block is a content block: exactly one member is set.
type block struct {
	Text       string      `json:"text,omitempty"`
	Image      *imageBlock `json:"image,omitempty"`
	ToolUse    *toolUse    `json:"toolUse,omitempty"`
	ToolResult *toolResult `json:"toolResult,omitempty"`
}

type imageBlock struct {
	Format string      `json:"format"`
	Source imageSource `json:"source"`
}

type imageSource struct {
	Bytes []byte `json:"bytes"` // base64 on the wire
}

type toolUse struct {
	ToolUseID string          `json:"toolUseId"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

type toolResult struct {
	ToolUseID string              `json:"toolUseId"`
	Content   []toolResultContent `json:"content"`
}

type toolResultContent struct {
	Text string          `json:"text,omitempty"`
	JSON json.RawMessage `json:"json,omitempty"`
}

type toolConfig struct {
	Tools      []toolSpecEntry `json:"tools"`
	ToolChoice map[string]any  `json:"toolChoice,omitempty"`
}

type toolSpecEntry struct {
	ToolSpec toolSpec `json:"toolSpec"`
}

type toolSpec struct {
	Name        string      `json:"name"`
	Description string      `json:"description,omitempty"`
	InputSchema inputSchema `json:"inputSchema"`
}

type inputSchema struct {
	JSON json.RawMessage `json:"json"`
}

type converseResponse struct {
	Output struct {
		Message *message `json:"message"`
	} `json:"output"`
	StopReason string `json:"stopReason"`
	Usage      *usage `json:"usage"`
}

// usage is Converse's TokenUsage. inputTokens leaves out the prompt tokens read from and
// written to the prompt cache, which come in their own members.
type usage struct {
	InputTokens           int `json:"inputTokens"`
	OutputTokens          int `json:"outputTokens"`
	CacheReadInputTokens  int `json:"cacheReadInputTokens"`
	CacheWriteInputTokens int `json:"cacheWriteInputTokens"`
}

// openai counts every prompt token as OpenAI does: prompt_tokens includes the cache reads
// and writes, and cached_tokens says how many were reads. The total is computed, not taken
// from totalTokens, so that it is always prompt_tokens + completion_tokens. Converse does
// not break reasoning out of outputTokens, so there are no completion details.
func (u *usage) openai() *openai.Usage {
	if u == nil {
		return nil
	}
	prompt := u.InputTokens + u.CacheReadInputTokens + u.CacheWriteInputTokens
	out := &openai.Usage{PromptTokens: prompt, CompletionTokens: u.OutputTokens, TotalTokens: prompt + u.OutputTokens}
	if u.CacheReadInputTokens > 0 || u.CacheWriteInputTokens > 0 {
		out.PromptTokensDetails = &openai.PromptTokensDetails{CachedTokens: u.CacheReadInputTokens}
	}
	return out
}

// toConverse translates an OpenAI chat request into a Converse request. Converse wants
// strictly alternating user and assistant messages, so consecutive messages of one role
// (a user turn after tool results, several tool results) are merged into one.
func toConverse(req *openai.ChatRequest) (*converseRequest, error) {
	out := &converseRequest{}
	for i, m := range req.Messages {
		var role string
		var blocks []block
		var err error
		switch m.Role {
		case "system", "developer":
			if text := m.Content.String(); text != "" {
				out.System = append(out.System, systemBlock{Text: text})
			}
			continue
		case "user":
			role = "user"
			blocks, err = provider.ContentBlocks(m.Content, "Bedrock Converse", textBlock, imagePart)
		case "assistant":
			role = "assistant"
			blocks, err = provider.ContentBlocks(m.Content, "Bedrock Converse", textBlock, imagePart)
			for k, c := range m.ToolCalls {
				input, ierr := toolInput(c.Function.Arguments)
				if ierr != nil {
					err = provider.RefuseAt(fmt.Sprintf("tool_calls[%d].function.arguments", k), "tool call %q: arguments are not a JSON object", c.Function.Name)
					break
				}
				blocks = append(blocks, block{ToolUse: &toolUse{ToolUseID: c.ID, Name: c.Function.Name, Input: input}})
			}
		case "tool":
			// Converse carries tool results in the user's turn, linked by the call's id.
			role = "user"
			blocks = []block{{ToolResult: &toolResult{ToolUseID: m.ToolCallID, Content: []toolResultContent{resultContent(provider.ToolResultText(m.Content))}}}}
		default:
			err = provider.RefuseAt("role", "unsupported role %q", m.Role)
		}
		if err != nil {
			return nil, provider.Within(fmt.Sprintf("messages[%d]", i), err)
		}
		if len(blocks) == 0 {
			continue // Converse rejects empty content; an empty turn carries nothing anyway
		}
		if n := len(out.Messages); n > 0 && out.Messages[n-1].Role == role {
			out.Messages[n-1].Content = append(out.Messages[n-1].Content, blocks...)
		} else {
			out.Messages = append(out.Messages, message{Role: role, Content: blocks})
		}
	}
	// max_completion_tokens replaced max_tokens in OpenAI's API; a client sending both
	// means the newer one.
	ic := inferenceConfig{Temperature: req.Temperature, TopP: req.TopP, StopSequences: req.Stop.Values}
	ic.MaxTokens = req.MaxCompletionTokens
	if ic.MaxTokens == nil {
		ic.MaxTokens = req.MaxTokens
	}
	if ic.MaxTokens != nil || ic.Temperature != nil || ic.TopP != nil || len(ic.StopSequences) > 0 {
		out.InferenceConfig = &ic
	}
	if len(req.Tools) > 0 {
		tc := &toolConfig{}
		for _, t := range req.Tools {
			schema := t.Function.Parameters
			// Converse requires an input schema; OpenAI allows a function without one.
			if len(schema) == 0 {
				schema = json.RawMessage(`{"type":"object","properties":{}}`)
			}
			tc.Tools = append(tc.Tools, toolSpecEntry{ToolSpec: toolSpec{Name: t.Function.Name,
				Description: t.Function.Description, InputSchema: inputSchema{JSON: schema}}})
		}
		choice, err := toolChoice(req.ToolChoice)
		if err != nil {
			return nil, err
		}
		tc.ToolChoice = choice
		out.ToolConfig = tc
	}
	if err := applyFields(req, out); err != nil {
		return nil, err
	}
	return out, nil
}

func textBlock(text string) block { return block{Text: text} }

// imagePart reads an image_url part. Bedrock does not fetch URLs, so only inline data: URLs
// of the formats Converse accepts can be sent.
func imagePart(p openai.ContentPart) (block, error) {
	u, err := p.ImageURL()
	if err != nil {
		return block{}, provider.Refusef("%v", err)
	}
	mime, data, ok := openai.DataURL(u)
	if !ok {
		return block{}, provider.Refusef("image_url must be a base64 data: URL; Bedrock does not fetch images from URLs")
	}
	format, ok := strings.CutPrefix(mime, "image/")
	switch {
	case !ok:
		return block{}, provider.Refusef("image_url has media type %q, want image/png, image/jpeg, image/gif or image/webp", mime)
	case format == "jpg":
		format = "jpeg"
	}
	switch format {
	case "png", "jpeg", "gif", "webp":
	default:
		return block{}, provider.Refusef("image_url has media type %q, want image/png, image/jpeg, image/gif or image/webp", mime)
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return block{}, provider.Refusef("image_url data is not valid base64")
	}
	return block{Image: &imageBlock{Format: format, Source: imageSource{Bytes: b}}}, nil
}

// toolInput parses a call's arguments; Converse wants a JSON object, and an empty string
// means no arguments.
func toolInput(args string) (json.RawMessage, error) {
	args = strings.TrimSpace(args)
	if args == "" {
		return json.RawMessage(`{}`), nil
	}
	if !json.Valid([]byte(args)) || args[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	return json.RawMessage(args), nil
}

// resultContent sends a JSON object result as json (so the model sees structure) and
// anything else as text.
func resultContent(s string) toolResultContent {
	t := strings.TrimSpace(s)
	if t == "" {
		// Converse rejects blank text; a tool that returned nothing returned an empty object.
		return toolResultContent{JSON: json.RawMessage(`{}`)}
	}
	if len(t) > 0 && t[0] == '{' && json.Valid([]byte(t)) {
		return toolResultContent{JSON: json.RawMessage(t)}
	}
	return toolResultContent{Text: s}
}

// toolChoice maps OpenAI's tool_choice: "auto", "required" (any tool), or a named function.
// "none" is sent as auto: Converse has no way to forbid tools while keeping their specs,
// which it needs to read earlier tool turns.
func toolChoice(raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch s {
		case "auto", "none":
			return map[string]any{"auto": map[string]any{}}, nil
		case "required":
			return map[string]any{"any": map[string]any{}}, nil
		}
		return nil, provider.RefuseAt("tool_choice", "tool_choice %q is not one of auto, none, required", s)
	}
	var named struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(raw, &named); err != nil || named.Function.Name == "" {
		return nil, provider.RefuseAt("tool_choice", "tool_choice must be a string or {\"type\":\"function\",\"function\":{\"name\":...}}")
	}
	return map[string]any{"tool": map[string]any{"name": named.Function.Name}}, nil
}

// finishReason maps a Converse stop reason to OpenAI's finish_reason.
func finishReason(stop string) string {
	switch stop {
	case "max_tokens", "model_context_window_exceeded":
		return "length"
	case "tool_use":
		return "tool_calls"
	case "guardrail_intervened", "content_filtered":
		return "content_filter"
	default: // end_turn, stop_sequence
		return "stop"
	}
}

// fromConverse translates a Converse response into an OpenAI chat.completion body.
func fromConverse(raw []byte, id, model string, created int64) ([]byte, *openai.Usage, error) {
	var r converseResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, nil, err
	}
	if r.Output.Message == nil {
		return nil, nil, errors.New("no output.message")
	}
	msg := openai.Message{Role: "assistant"}
	var text strings.Builder
	for _, b := range r.Output.Message.Content {
		switch {
		case b.ToolUse != nil:
			args := string(b.ToolUse.Input)
			if args == "" || args == "null" {
				args = "{}"
			}
			msg.ToolCalls = append(msg.ToolCalls, openai.ToolCall{ID: b.ToolUse.ToolUseID, Type: "function",
				Function: openai.FunctionCall{Name: b.ToolUse.Name, Arguments: args}})
		default:
			text.WriteString(b.Text)
		}
	}
	msg.Content = openai.TextContent(text.String())
	if text.Len() == 0 && len(msg.ToolCalls) > 0 {
		msg.Content = openai.Content{IsNull: true}
	}
	u := r.Usage.openai()
	body, err := json.Marshal(openai.ChatResponse{ID: id, Object: openai.ObjectChatCompletion, Created: created,
		Model: model, Choices: []openai.Choice{{Message: msg, FinishReason: finishReason(r.StopReason)}}, Usage: u})
	return body, u, err
}
