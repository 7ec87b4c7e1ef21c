package bedrock

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

func TestRequestFields(t *testing.T) {
	t.Parallel()
	const msgs = `"model":"m","messages":[{"role":"user","content":"Hi"}]`
	const base = `{"messages":[{"role":"user","content":[{"text":"Hi"}]}]`
	tests := []struct {
		name, fields string
		want         string // the Converse request, or "" when refused
		param, err   string
	}{
		{name: "json_schema becomes outputConfig", fields: `"response_format":{"type":"json_schema","json_schema":{"name":"answer","description":"d","schema":{"type":"object","properties":{"a":{"type":"string"}}}}}`,
			want: base + `,"outputConfig":{"textFormat":{"type":"json_schema","structure":{"jsonSchema":{"schema":"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}","name":"answer","description":"d"}}}}}`},
		{name: "text format asks for nothing", fields: `"response_format":{"type":"text"}`, want: base + `}`},
		{name: "unset values ask for nothing", fields: `"seed":null,"logprobs":false,"frequency_penalty":0,"presence_penalty":0,"n":1,"user":"u","parallel_tool_calls":true`, want: base + `}`},
		{name: "model-specific fields pass through", fields: `"top_k":40`, want: base + `,"additionalModelRequestFields":{"top_k":40}}`},
		{name: "json_object", fields: `"response_format":{"type":"json_object"}`, param: "response_format",
			err: "response_format: Bedrock Converse takes type json_schema (a schema the answer follows), not json_object"},
		{name: "json_schema without a schema", fields: `"response_format":{"type":"json_schema","json_schema":{"name":"x"}}`, param: "response_format",
			err: "response_format.json_schema.schema is required for type json_schema"},
		{name: "seed", fields: `"seed":7`, param: "seed", err: "seed: Bedrock Converse has no seed"},
		{name: "frequency_penalty", fields: `"frequency_penalty":0.5`, param: "frequency_penalty", err: "frequency_penalty: Bedrock Converse has no frequency penalty"},
		{name: "presence_penalty", fields: `"presence_penalty":-1`, param: "presence_penalty", err: "presence_penalty: Bedrock Converse has no presence penalty"},
		{name: "logprobs", fields: `"logprobs":true`, param: "logprobs", err: "logprobs: Bedrock Converse returns no log probabilities"},
		{name: "top_logprobs", fields: `"top_logprobs":3`, param: "top_logprobs", err: "top_logprobs: Bedrock Converse returns no log probabilities"},
		{name: "logit_bias", fields: `"logit_bias":{"50256":-100}`, param: "logit_bias", err: "logit_bias: Bedrock Converse has no logit bias"},
		{name: "n", fields: `"n":2`, param: "n", err: "n: Bedrock Converse returns one answer per call; send n: 1 or leave it out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			conv, err := toConverse(decodeRequest(t, `{`+msgs+`,`+tt.fields+`}`))
			if tt.err != "" {
				var bad *provider.Refusal
				if !errors.As(err, &bad) || err.Error() != tt.err || bad.Param != tt.param {
					t.Fatalf("error %v, want %q about %q", err, tt.err, tt.param)
				}
				if tt.param != "" && !errors.Is(err, provider.ErrUnsupportedField) {
					t.Fatalf("error %v: want provider.ErrUnsupportedField", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(conv)
			if string(got) != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// FuzzToConverse translates arbitrary chat requests: it never panics, and what it refuses
// is a 400 (a *provider.Refusal).
func FuzzToConverse(f *testing.F) {
	f.Add(fullRequest)
	f.Add(`{"model":"m","messages":[{"role":"user","content":"Hi"}],"response_format":{"type":"json_schema","json_schema":{"schema":{}}},"top_k":3,"n":2}`)
	f.Add(`{"model":"m","messages":[{"role":"tool","content":"x"}],"seed":1}`)
	f.Fuzz(func(t *testing.T, body string) {
		var req openai.ChatRequest
		if json.Unmarshal([]byte(body), &req) != nil {
			return
		}
		conv, err := toConverse(&req)
		var bad *provider.Refusal
		switch {
		case err != nil && !errors.As(err, &bad):
			t.Fatalf("error %T %v, want a *provider.Refusal", err, err)
		case err == nil:
			if _, err := json.Marshal(conv); err != nil {
				t.Fatalf("the Converse request does not encode: %v", err)
			}
		}
	})
}
