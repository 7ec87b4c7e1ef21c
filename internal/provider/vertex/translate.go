package vertex

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"path"
	"strings"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// Gemini's generateContent request and response shapes, as far as the router uses them.

type generateRequest struct {
	Contents          []content         `json:"contents"`
	SystemInstruction *content          `json:"systemInstruction,omitempty"`
	GenerationConfig  *generationConfig `json:"generationConfig,omitempty"`
	Tools             []tool            `json:"tools,omitempty"`
	ToolConfig        *toolConfig       `json:"toolConfig,omitempty"`
}

type content struct {
	Role  string `json:"role,omitempty"`
	Parts []part `json:"parts"`
}

// part holds exactly one data member, and the thoughtSignature of a thinking model (see
// signature.go).
type part struct {
	Text             string            `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	ThoughtSignature string            `json:"thoughtSignature,omitempty"`
	InlineData       *blob             `json:"inlineData,omitempty"`
	FileData         *fileData         `json:"fileData,omitempty"`
	FunctionCall     *functionCall     `json:"functionCall,omitempty"`
	FunctionResponse *functionResponse `json:"functionResponse,omitempty"`
}

type blob struct {
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
}

type fileData struct {
	MimeType string `json:"mimeType"`
	FileURI  string `json:"fileUri"`
}

type functionCall struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

type functionResponse struct {
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

type generationConfig struct {
	MaxOutputTokens *int     `json:"maxOutputTokens,omitempty"`
	Temperature     *float64 `json:"temperature,omitempty"`
	TopP            *float64 `json:"topP,omitempty"`
	StopSequences   []string `json:"stopSequences,omitempty"`
	CandidateCount  *int     `json:"candidateCount,omitempty"`
	TopK            *float64 `json:"topK,omitempty"`
	Seed            *int64   `json:"seed,omitempty"`
	PresencePenalty *float64 `json:"presencePenalty,omitempty"`
	// FrequencyPenalty and the rest are set from request fields beyond the typed ones; see
	// applyFields.
	FrequencyPenalty *float64        `json:"frequencyPenalty,omitempty"`
	ResponseLogprobs *bool           `json:"responseLogprobs,omitempty"`
	Logprobs         *int            `json:"logprobs,omitempty"`
	ResponseMIMEType string          `json:"responseMimeType,omitempty"`
	ResponseSchema   json.RawMessage `json:"responseSchema,omitempty"`
}

type tool struct {
	FunctionDeclarations []functionDeclaration `json:"functionDeclarations"`
}

type functionDeclaration struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

type toolConfig struct {
	FunctionCallingConfig functionCallingConfig `json:"functionCallingConfig"`
}

type functionCallingConfig struct {
	Mode                 string   `json:"mode"`
	AllowedFunctionNames []string `json:"allowedFunctionNames,omitempty"`
}

type generateResponse struct {
	Candidates     []candidate    `json:"candidates"`
	UsageMetadata  *usageMetadata `json:"usageMetadata"`
	ResponseID     string         `json:"responseId"`
	PromptFeedback *struct {
		BlockReason string `json:"blockReason"`
	} `json:"promptFeedback"`
}

type candidate struct {
	Content        content         `json:"content"`
	FinishReason   string          `json:"finishReason"`
	FinishMessage  string          `json:"finishMessage"`
	LogprobsResult *logprobsResult `json:"logprobsResult"`
}

// usageMetadata is Gemini's. promptTokenCount includes cachedContentTokenCount (Google:
// "the total effective prompt size"), and thoughtsTokenCount is apart from
// candidatesTokenCount.
type usageMetadata struct {
	PromptTokenCount        int `json:"promptTokenCount"`
	CachedContentTokenCount int `json:"cachedContentTokenCount"`
	CandidatesTokenCount    int `json:"candidatesTokenCount"`
	ThoughtsTokenCount      int `json:"thoughtsTokenCount"`
	TotalTokenCount         int `json:"totalTokenCount"`
}

// openai counts thinking tokens as completion tokens, as OpenAI does for reasoning models,
// and reports them as reasoning_tokens; cached content tokens are cached_tokens. A details
// object is left out when its count is zero.
func (u *usageMetadata) openai() *openai.Usage {
	if u == nil {
		return nil
	}
	completion := u.CandidatesTokenCount + u.ThoughtsTokenCount
	total := u.TotalTokenCount
	if total == 0 {
		total = u.PromptTokenCount + completion
	}
	out := &openai.Usage{PromptTokens: u.PromptTokenCount, CompletionTokens: completion, TotalTokens: total}
	if u.CachedContentTokenCount > 0 {
		out.PromptTokensDetails = &openai.PromptTokensDetails{CachedTokens: u.CachedContentTokenCount}
	}
	if u.ThoughtsTokenCount > 0 {
		out.CompletionTokensDetails = &openai.CompletionTokensDetails{ReasoningTokens: u.ThoughtsTokenCount}
	}
	return out
}

// toGemini translates an OpenAI chat request. Gemini names the assistant "model", takes
// tool results as functionResponse parts in a user turn, and links a result to its call by
// function name, which is looked up from the call id in the earlier assistant message.
func toGemini(req *openai.ChatRequest, stream bool) (*generateRequest, error) {
	out := &generateRequest{}
	callNames := map[string]string{} // tool call id -> function name
	var system []part
	for i, m := range req.Messages {
		var role string
		var parts []part
		var err error
		switch m.Role {
		case "system", "developer":
			if text := m.Content.String(); text != "" {
				system = append(system, part{Text: text})
			}
			continue
		case "user":
			role = "user"
			parts, err = provider.ContentBlocks(m.Content, "Vertex Gemini", textPart, imagePart)
		case "assistant":
			role = "model"
			parts, err = assistantParts(m, callNames)
		case "tool":
			role = "user"
			name, ok := callNames[m.ToolCallID]
			if !ok {
				err = provider.RefuseAt("tool_call_id", "tool_call_id %q does not match a tool call of an earlier assistant message", m.ToolCallID)
				break
			}
			parts = []part{{FunctionResponse: &functionResponse{Name: name, Response: responseObject(provider.ToolResultText(m.Content))}}}
		default:
			err = provider.RefuseAt("role", "unsupported role %q", m.Role)
		}
		if err != nil {
			return nil, provider.Within(fmt.Sprintf("messages[%d]", i), err)
		}
		if len(parts) == 0 {
			continue
		}
		if n := len(out.Contents); n > 0 && out.Contents[n-1].Role == role {
			out.Contents[n-1].Parts = append(out.Contents[n-1].Parts, parts...)
		} else {
			out.Contents = append(out.Contents, content{Role: role, Parts: parts})
		}
	}
	if len(system) > 0 {
		out.SystemInstruction = &content{Parts: system}
	}
	// max_completion_tokens replaced max_tokens in OpenAI's API; a client sending both
	// means the newer one. n maps to candidateCount; only a plain answer returns them all.
	gc := generationConfig{Temperature: req.Temperature, TopP: req.TopP, StopSequences: req.Stop.Values}
	gc.MaxOutputTokens = req.MaxCompletionTokens
	if gc.MaxOutputTokens == nil {
		gc.MaxOutputTokens = req.MaxTokens
	}
	if err := applyFields(req, stream, &gc); err != nil {
		return nil, err
	}
	if b, _ := json.Marshal(gc); string(b) != "{}" {
		out.GenerationConfig = &gc
	}
	if len(req.Tools) > 0 {
		var decls []functionDeclaration
		for _, t := range req.Tools {
			decls = append(decls, functionDeclaration{Name: t.Function.Name, Description: t.Function.Description, Parameters: openAPISchema(t.Function.Parameters)})
		}
		out.Tools = []tool{{FunctionDeclarations: decls}}
		tc, err := toolChoice(req.ToolChoice)
		if err != nil {
			return nil, err
		}
		out.ToolConfig = tc
	}
	return out, nil
}

func textPart(text string) part { return part{Text: text} }

// assistantParts translates an assistant message: its text and images, then its tool
// calls as functionCall parts, each with the thought signature the client sent back. A
// signature on the message belongs to its text, and goes on the last text part. It records
// each call's function name under the call's id in callNames.
func assistantParts(m openai.Message, callNames map[string]string) ([]part, error) {
	parts, err := provider.ContentBlocks(m.Content, "Vertex Gemini", textPart, imagePart)
	if err != nil {
		return nil, err
	}
	sig, err := signatureOf(m.Extra, "the message")
	if err != nil {
		return nil, err
	}
	for i := len(parts) - 1; sig != "" && i >= 0; i-- {
		if parts[i].Text != "" {
			parts[i].ThoughtSignature = sig
			break
		}
	}
	for k, c := range m.ToolCalls {
		args, err := callArgs(c.Function.Arguments)
		if err != nil {
			return nil, provider.RefuseAt(fmt.Sprintf("tool_calls[%d].function.arguments", k), "tool call %q: arguments are not a JSON object", c.Function.Name)
		}
		sig, err := signatureOf(c.Extra, "tool call "+quote(c.Function.Name))
		if err != nil {
			return nil, err
		}
		callNames[c.ID] = c.Function.Name
		parts = append(parts, part{FunctionCall: &functionCall{Name: c.Function.Name, Args: args}, ThoughtSignature: sig})
	}
	return parts, nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// imagePart sends a data: URL inline and any other URL (gs://, https://) as file data,
// which Vertex fetches itself; the media type of a URL is guessed from its extension.
func imagePart(p openai.ContentPart) (part, error) {
	u, err := p.ImageURL()
	if err != nil {
		return part{}, provider.Refusef("%v", err)
	}
	if strings.HasPrefix(u, "data:") {
		mimeType, data, ok := openai.DataURL(u)
		if !ok {
			return part{}, provider.Refusef("image_url data: URL must be data:<media type>;base64,<data>")
		}
		if _, err := base64.StdEncoding.DecodeString(data); err != nil {
			return part{}, provider.Refusef("image_url data is not valid base64")
		}
		return part{InlineData: &blob{MimeType: mimeType, Data: data}}, nil
	}
	mimeType := mime.TypeByExtension(path.Ext(strings.SplitN(u, "?", 2)[0]))
	if mimeType == "" {
		mimeType = "image/jpeg"
	}
	return part{FileData: &fileData{MimeType: mimeType, FileURI: u}}, nil
}

func callArgs(args string) (json.RawMessage, error) {
	args = strings.TrimSpace(args)
	if args == "" {
		return json.RawMessage(`{}`), nil
	}
	if !json.Valid([]byte(args)) || args[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	return json.RawMessage(args), nil
}

// responseObject wraps a tool result: Gemini wants an object, so anything but a JSON
// object is sent as {"content": "..."}.
func responseObject(s string) json.RawMessage {
	t := strings.TrimSpace(s)
	if len(t) > 0 && t[0] == '{' && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	b, _ := json.Marshal(map[string]string{"content": s})
	return b
}

func toolChoice(raw json.RawMessage) (*toolConfig, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch s {
		case "auto":
			return &toolConfig{functionCallingConfig{Mode: "AUTO"}}, nil
		case "none":
			return &toolConfig{functionCallingConfig{Mode: "NONE"}}, nil
		case "required":
			return &toolConfig{functionCallingConfig{Mode: "ANY"}}, nil
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
	return &toolConfig{functionCallingConfig{Mode: "ANY", AllowedFunctionNames: []string{named.Function.Name}}}, nil
}

// finishReason maps Gemini's finishReason; a turn that called functions finishes with
// tool_calls, as OpenAI clients expect, although Gemini says STOP.
func finishReason(reason string, calls bool) string {
	switch reason {
	case "MAX_TOKENS":
		return "length"
	case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY":
		return "content_filter"
	}
	if calls {
		return "tool_calls"
	}
	return "stop"
}

// outputFailure is a candidate that finished with a reason that leaves no answer to give:
// Gemini stops at a function call it could not write (MALFORMED_FUNCTION_CALL) or was not
// allowed to make (UNEXPECTED_TOOL_CALL), and sends nothing of it.
type outputFailure struct {
	cause   *provider.ModelOutputError
	message string // Gemini's finishMessage, for the log
}

func (f *outputFailure) Error() string { return f.cause.Error() }

// failedOutput returns the failure of a candidate's finish reason, or nil for a reason
// that ends an answer.
func failedOutput(c candidate) *outputFailure {
	var what string
	switch c.FinishReason {
	case "MALFORMED_FUNCTION_CALL":
		what = "a malformed function call"
	case "UNEXPECTED_TOOL_CALL":
		what = "a function call although the request offered no tools"
	default:
		return nil
	}
	return &outputFailure{cause: &provider.ModelOutputError{What: what, Reason: c.FinishReason}, message: c.FinishMessage}
}

// callID makes an OpenAI tool call id; Gemini has none, and the router only needs it to
// find the function name again when the client sends the result back.
func callID() string { return "call_" + rand.Text()[:16] }

// completionID is the id of an answer whose responseId is missing (Vertex sends one with
// every answer and every event of a stream).
func completionID() string { return "chatcmpl-" + rand.Text()[:20] }

// fromGemini translates a generateContent response into an OpenAI chat.completion body.
func fromGemini(raw []byte, id, model string, created int64) ([]byte, *openai.Usage, error) {
	var r generateResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, nil, err
	}
	if r.ResponseID != "" {
		id = "chatcmpl-" + r.ResponseID
	}
	for _, c := range r.Candidates {
		if f := failedOutput(c); f != nil {
			return nil, nil, f
		}
	}
	u := r.UsageMetadata.openai()
	resp := openai.ChatResponse{ID: id, Object: openai.ObjectChatCompletion, Created: created, Model: model, Usage: u}
	if len(r.Candidates) == 0 {
		if r.PromptFeedback == nil || r.PromptFeedback.BlockReason == "" {
			return nil, nil, errors.New("no candidates")
		}
		// A blocked prompt is an answer, not a failure: OpenAI reports it as a filter.
		resp.Choices = []openai.Choice{{Message: openai.Message{Role: "assistant", Content: openai.Content{IsNull: true}}, FinishReason: "content_filter"}}
	}
	// Each candidate is one OpenAI choice; thinking parts are left out of the answer.
	for i, c := range r.Candidates {
		msg := openai.Message{Role: "assistant"}
		var text strings.Builder
		var textSig string // the last signature of a part other than a call
		for _, p := range c.Content.Parts {
			switch {
			case p.FunctionCall != nil:
				args := string(p.FunctionCall.Args)
				if args == "" || args == "null" {
					args = "{}"
				}
				msg.ToolCalls = append(msg.ToolCalls, openai.ToolCall{ID: callID(), Type: "function",
					Function: openai.FunctionCall{Name: p.FunctionCall.Name, Arguments: args}, Extra: signatureExtra(p.ThoughtSignature)})
				continue
			case !p.Thought:
				text.WriteString(p.Text)
			}
			if p.ThoughtSignature != "" {
				textSig = p.ThoughtSignature
			}
		}
		msg.Extra = signatureExtra(textSig)
		msg.Content = openai.TextContent(text.String())
		if text.Len() == 0 && len(msg.ToolCalls) > 0 {
			msg.Content = openai.Content{IsNull: true}
		}
		resp.Choices = append(resp.Choices, openai.Choice{Index: i, Message: msg, FinishReason: finishReason(c.FinishReason, len(msg.ToolCalls) > 0),
			Logprobs: c.LogprobsResult.openaiLogprobs()})
	}
	body, err := json.Marshal(resp)
	return body, u, err
}

// openAPISchema adapts an OpenAI tool's JSON Schema to Gemini's parameters, an OpenAPI 3.0
// subset that rejects some JSON Schema keywords with "Unknown name": "$schema" and the
// "additionalProperties" that OpenAI's strict mode requires are dropped, at any depth. A
// schema that is not JSON is passed on for Vertex to judge.
func openAPISchema(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || !bytes.Contains(raw, []byte(`"$schema"`)) && !bytes.Contains(raw, []byte(`"additionalProperties"`)) {
		return raw
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return raw
	}
	var strip func(any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			delete(x, "$schema")
			delete(x, "additionalProperties")
			for k, child := range x {
				switch k {
				case "properties":
					// A map of property names, which may be any word, to schemas.
					if props, ok := child.(map[string]any); ok {
						for _, p := range props {
							strip(p)
						}
					}
				case "items", "anyOf", "allOf", "oneOf", "not":
					strip(child)
				}
			}
		case []any:
			for _, e := range x {
				strip(e)
			}
		}
	}
	strip(v)
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}
