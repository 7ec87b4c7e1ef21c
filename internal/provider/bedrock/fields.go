package bedrock

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// outputConfig asks Converse for structured output: an answer that follows a JSON schema.
type outputConfig struct {
	TextFormat textFormat `json:"textFormat"`
}

type textFormat struct {
	Type      string          `json:"type"` // "json_schema", the only type
	Structure formatStructure `json:"structure"`
}

type formatStructure struct {
	JSONSchema jsonSchemaDefinition `json:"jsonSchema"`
}

// jsonSchemaDefinition carries the schema as a string, as Converse wants it.
type jsonSchemaDefinition struct {
	Schema      string `json:"schema"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
}

// ignoredFields change nothing in the answer (bookkeeping for OpenAI's own platform); they
// are not sent.
var ignoredFields = map[string]bool{"user": true, "metadata": true, "store": true, "service_tier": true,
	"prompt_cache_key": true, "safety_identifier": true}

// refusedFields are OpenAI sampling and output options Converse has no member for; a request
// that sets one is refused rather than answered as if it had not.
var refusedFields = map[string]string{
	"seed":              "Bedrock Converse has no seed",
	"frequency_penalty": "Bedrock Converse has no frequency penalty",
	"presence_penalty":  "Bedrock Converse has no presence penalty",
	"logprobs":          "Bedrock Converse returns no log probabilities",
	"top_logprobs":      "Bedrock Converse returns no log probabilities",
	"logit_bias":        "Bedrock Converse has no logit bias",
}

// applyFields translates the request's fields beyond messages, sampling and tools:
// response_format json_schema becomes outputConfig, the fields of refusedFields and n > 1
// are refused (a 400 naming the field), and any other field the router does not know is
// passed in additionalModelRequestFields, where Bedrock hands it to the model (top_k for
// Claude, for example) or rejects it with a ValidationException.
func applyFields(req *openai.ChatRequest, out *converseRequest) error {
	if req.N != nil && *req.N != 1 {
		return provider.Unsupported("n", "Bedrock Converse returns one answer per call; send n: 1 or leave it out")
	}
	for _, name := range slices.Sorted(maps.Keys(req.Extra)) {
		raw := req.Extra[name]
		switch {
		case name == "seed" && !isNull(raw):
			// Checked before isUnset: a seed of 0 is a seed like any other.
			return provider.Unsupported(name, refusedFields[name])
		case name == "parallel_tool_calls":
			// Converse lets the model call several tools in a turn, as true asks; it has
			// no switch to forbid it.
			if !isNull(raw) && !bytes.Equal(bytes.TrimSpace(raw), []byte("true")) {
				return provider.Unsupported(name, "Bedrock Converse may call several tools in one turn and has no way to forbid it")
			}
		case ignoredFields[name] || isUnset(raw):
		case name == "response_format":
			oc, err := responseFormat(raw)
			if err != nil {
				return err
			}
			out.OutputConfig = oc
		case refusedFields[name] != "":
			return provider.Unsupported(name, refusedFields[name])
		default:
			if out.AdditionalModelRequestFields == nil {
				out.AdditionalModelRequestFields = map[string]json.RawMessage{}
			}
			out.AdditionalModelRequestFields[name] = raw
		}
	}
	return nil
}

func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// isUnset reports whether a field's value asks for nothing: null, false, 0 or {}.
func isUnset(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	switch string(raw) {
	case "", "null", "false", "0", "0.0", "{}":
		return true
	}
	return false
}

// responseFormat maps OpenAI's response_format: text asks for nothing, json_schema becomes
// outputConfig, and json_object (any JSON, no schema) has no Converse form.
func responseFormat(raw json.RawMessage) (*outputConfig, error) {
	var rf struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Schema      json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	}
	if err := json.Unmarshal(raw, &rf); err != nil {
		return nil, &provider.Refusal{Msg: "response_format must be an object with a type", Param: "response_format"}
	}
	switch rf.Type {
	case "text":
		return nil, nil
	case "json_schema":
		if rf.JSONSchema == nil || len(rf.JSONSchema.Schema) == 0 || !json.Valid(rf.JSONSchema.Schema) {
			return nil, &provider.Refusal{Msg: "response_format.json_schema.schema is required for type json_schema", Param: "response_format"}
		}
		return &outputConfig{TextFormat: textFormat{Type: "json_schema", Structure: formatStructure{JSONSchema: jsonSchemaDefinition{
			Schema: string(rf.JSONSchema.Schema), Name: rf.JSONSchema.Name, Description: rf.JSONSchema.Description}}}}, nil
	case "json_object":
		return nil, provider.Unsupported("response_format", "Bedrock Converse takes type json_schema (a schema the answer follows), not json_object")
	}
	return nil, provider.Unsupported("response_format", "type "+quote(rf.Type)+" is not one of text, json_schema")
}
