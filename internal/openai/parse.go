package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

var validRoles = map[string]bool{"system": true, "developer": true, "user": true, "assistant": true, "tool": true, "function": true}

// ParseChatRequest decodes and checks a chat completion body. Every failure is a 400
// *APIError whose message says what is wrong and, where it helps, which parameter.
func ParseChatRequest(body []byte) (*ChatRequest, *APIError) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, BadRequest("", "the request body is empty; send a JSON chat completion request")
	}
	if body[0] != '{' {
		return nil, BadRequest("", "the request body must be a JSON object")
	}
	if apiErr := checkKeys(body); apiErr != nil {
		return nil, apiErr
	}
	var req ChatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, decodeError(err)
	}
	if req.Model == "" {
		return nil, BadRequest("model", "you must provide a model parameter")
	}
	if len(req.Messages) == 0 {
		return nil, BadRequest("messages", "messages must be a non-empty array")
	}
	for i, m := range req.Messages {
		if !validRoles[m.Role] {
			return nil, BadRequest(fmt.Sprintf("messages[%d].role", i),
				fmt.Sprintf("messages[%d].role must be one of system, developer, user, assistant, tool; got %q", i, m.Role))
		}
	}
	if req.StreamOptions != nil && !req.Stream {
		return nil, BadRequest("stream_options", "stream_options is only allowed when stream is true")
	}
	return &req, nil
}

func decodeError(err error) *APIError {
	var (
		syntax *json.SyntaxError
		typ    *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &syntax):
		return BadRequest("", fmt.Sprintf("the request body is not valid JSON (at byte %d): %s", syntax.Offset, syntax.Error()))
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return BadRequest(field, fmt.Sprintf("%s must be %s, not a JSON %s", field, jsonKind(typ.Type.Kind().String()), typ.Value))
	default:
		return BadRequest("", "the request body is not a valid chat completion request: "+err.Error())
	}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int", "int64", "float64":
		return "a number"
	case "slice":
		return "an array"
	case "struct", "map":
		return "an object"
	default:
		return "a " + goKind
	}
}
