package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

var validRoles = map[string]bool{"system": true, "developer": true, "user": true, "assistant": true, "tool": true, "function": true}

// RoleError says what is wrong with message i's role, or returns nil when the API accepts it
// (the legacy "function" role too, unlisted).
func RoleError(i int, role string) error {
	if validRoles[role] {
		return nil
	}
	return fmt.Errorf("messages[%d].role must be one of system, developer, user, assistant, tool; got %q", i, role)
}

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
	// Decoded as its plain type, which is what ChatRequest.UnmarshalJSONFrom does, one
	// level of decoder less deep: the stack a request grows is held for the connection's
	// life.
	if err := jsonv2.Unmarshal(body, (*plainRequest)(&req), codec); err != nil {
		return nil, decodeError(body, err)
	}
	if req.Model == "" {
		return nil, BadRequest("model", "you must provide a model parameter")
	}
	if len(req.Messages) == 0 {
		return nil, BadRequest("messages", "messages must be a non-empty array")
	}
	for i, m := range req.Messages {
		if err := RoleError(i, m.Role); err != nil {
			return nil, BadRequest(fmt.Sprintf("messages[%d].role", i), err.Error())
		}
	}
	if req.StreamOptions != nil && !req.Stream {
		return nil, BadRequest("stream_options", "stream_options is only allowed when stream is true")
	}
	return &req, nil
}

// codec are the options requests are read and written with. As with encoding/json, invalid
// UTF-8 becomes U+FFFD and a member name may repeat (checkKeys refuses a repeated name where
// the router reads it); map keys and extra members are written in sorted order.
var codec = jsonv2.JoinOptions(
	jsontext.AllowInvalidUTF8(true),
	jsontext.AllowDuplicateNames(true),
	jsonv2.Deterministic(true),
)

// Unmarshal decodes JSON from a client or a model server in one pass (encoding/json/v2), with
// the options requests are read with.
func Unmarshal(data []byte, v any) error { return jsonv2.Unmarshal(data, v, codec) }

// decodeError explains why body did not decode: where the JSON is broken, or which
// parameter has the wrong type.
func decodeError(body []byte, err error) *APIError {
	var (
		syntax   *jsontext.SyntacticError
		semantic *jsonv2.SemanticError
	)
	switch {
	case errors.As(err, &syntax):
		// encoding/json words syntax errors as clients know them from every other server.
		var v1 *json.SyntaxError
		if errors.As(json.Unmarshal(body, new(json.RawMessage)), &v1) {
			return BadRequest("", fmt.Sprintf("the request body is not valid JSON (at byte %d): %s", v1.Offset, v1.Error()))
		}
		return BadRequest("", fmt.Sprintf("the request body is not valid JSON (at byte %d): %v", syntax.ByteOffset, syntax.Err))
	case errors.As(err, &semantic) && semantic.Err == nil && semantic.GoType != nil && semantic.JSONKind != 0:
		field := paramOf(semantic.JSONPointer)
		return BadRequest(field, fmt.Sprintf("%s must be %s, not a JSON %s", field, jsonKind(semantic.GoType.Kind().String()), kindName(semantic.JSONKind)))
	case errors.As(err, &semantic) && semantic.Err != nil && semantic.JSONPointer != "":
		field := paramOf(semantic.JSONPointer)
		if msg := numberMessage(field, semantic); msg != "" {
			return BadRequest(field, msg)
		}
		return BadRequest(field, "the request body is not a valid chat completion request: "+semantic.Err.Error())
	case errors.As(err, &semantic) && semantic.Err != nil:
		return BadRequest("", "the request body is not a valid chat completion request: "+semantic.Err.Error())
	default:
		return BadRequest("", "the request body is not a valid chat completion request: "+err.Error())
	}
}

// numberMessage words a JSON number that its field cannot hold (1.5 or 1e400 for an
// integer, 1e400 for any number), which the decoder reports only as strconv's "invalid
// syntax" or "value out of range"; "" for any other error.
func numberMessage(field string, e *jsonv2.SemanticError) string {
	if e.JSONKind != '0' || e.GoType == nil {
		return ""
	}
	kind := e.GoType.Kind()
	integer := kind >= reflect.Int && kind <= reflect.Uint64
	switch {
	case integer && errors.Is(e.Err, strconv.ErrSyntax):
		return fmt.Sprintf("%s must be an integer, not %s", field, clipValue(e.JSONValue))
	case errors.Is(e.Err, strconv.ErrRange), errors.Is(e.Err, strconv.ErrSyntax):
		return fmt.Sprintf("%s is out of range: %s", field, clipValue(e.JSONValue))
	}
	return ""
}

// clipValue shortens a number a client sent before it is quoted back.
func clipValue(v jsontext.Value) string {
	const maxLen = 32
	if len(v) <= maxLen {
		return string(v)
	}
	return string(v[:maxLen]) + "…"
}

// paramOf turns a JSON pointer (/messages/0/role) into the parameter's name as the OpenAI
// API writes it (messages[0].role).
func paramOf(p jsontext.Pointer) string {
	var sb strings.Builder
	for tok := range p.Tokens() {
		switch _, err := strconv.Atoi(tok); {
		case err == nil && sb.Len() > 0:
			sb.WriteString("[" + tok + "]")
		default:
			if sb.Len() > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(tok)
		}
	}
	if sb.Len() == 0 {
		return "body"
	}
	return sb.String()
}

// kindName names a JSON kind as encoding/json's errors do.
func kindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "bool"
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "array"
	default:
		return k.String()
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
