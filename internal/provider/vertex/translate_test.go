package vertex

import (
	"encoding/json"
	"errors"
	"regexp"
	"testing"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

func decodeRequest(t testing.TB, body string) *openai.ChatRequest {
	t.Helper()
	var req openai.ChatRequest
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatal(err)
	}
	return &req
}

// callIDs matches the generated tool call ids, so outputs can be compared.
var callIDs = regexp.MustCompile(`call_[A-Z2-7]{16}`)

const fullRequest = `{"model":"m","messages":[
 {"role":"system","content":"Be brief."},
 {"role":"user","content":[{"type":"text","text":"What is in these?"},
   {"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}},
   {"type":"image_url","image_url":{"url":"gs://bucket/cat.jpg"}}]},
 {"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"cat\"}"}},{"id":"call_b","type":"function","function":{"name":"count","arguments":""}}]},
 {"role":"tool","tool_call_id":"call_a","content":"{\"animal\":\"cat\"}"},
 {"role":"tool","tool_call_id":"call_b","content":"2"}],
 "max_tokens":64,"temperature":0.1,"stop":"END","n":1,
 "tools":[{"type":"function","function":{"name":"lookup","description":"Search","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}},{"type":"function","function":{"name":"count"}}],
 "tool_choice":"required"}`

const fullGemini = `{"contents":[` +
	`{"role":"user","parts":[{"text":"What is in these?"},{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}},{"fileData":{"mimeType":"image/jpeg","fileUri":"gs://bucket/cat.jpg"}}]},` +
	`{"role":"model","parts":[{"functionCall":{"name":"lookup","args":{"q":"cat"}}},{"functionCall":{"name":"count","args":{}}}]},` +
	`{"role":"user","parts":[{"functionResponse":{"name":"lookup","response":{"animal":"cat"}}},{"functionResponse":{"name":"count","response":{"content":"2"}}}]}],` +
	`"systemInstruction":{"parts":[{"text":"Be brief."}]},` +
	`"generationConfig":{"maxOutputTokens":64,"temperature":0.1,"stopSequences":["END"],"candidateCount":1},` +
	`"tools":[{"functionDeclarations":[{"name":"lookup","description":"Search","parameters":{"type":"object","properties":{"q":{"type":"string"}}}},{"name":"count"}]}],` +
	`"toolConfig":{"functionCallingConfig":{"mode":"ANY"}}}`

func TestToGemini(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"full conversation", fullRequest, fullGemini},
		{"plain text", `{"model":"m","messages":[{"role":"user","content":"Hi"}]}`, `{"contents":[{"role":"user","parts":[{"text":"Hi"}]}]}`},
		{"named tool choice", `{"model":"m","messages":[{"role":"user","content":"Hi"}],"tools":[{"type":"function","function":{"name":"f"}}],"tool_choice":{"type":"function","function":{"name":"f"}}}`,
			`{"contents":[{"role":"user","parts":[{"text":"Hi"}]}],"tools":[{"functionDeclarations":[{"name":"f"}]}],"toolConfig":{"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["f"]}}}`},
	}
	tests = append(tests, struct{ name, in, want string }{"tool result in text parts, joined as they are",
		`{"model":"m","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"call_b","type":"function","function":{"name":"g","arguments":"{}"}}]},` +
			`{"role":"tool","tool_call_id":"call_a","content":[{"type":"text","text":"{\"temp_c\":"},{"type":"text","text":"21}"}]},` +
			`{"role":"tool","tool_call_id":"call_b","content":[{"type":"text","text":"It is 21"},{"type":"text","text":" C in Paris."}]}]}`,
		`{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"name":"g","args":{}}}]},` +
			`{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"temp_c":21}}},{"functionResponse":{"name":"g","response":{"content":"It is 21 C in Paris."}}}]}]}`})
	tests = append(tests, struct{ name, in, want string }{"thought signatures go back on their parts",
		`{"model":"m","messages":[{"role":"user","content":"Weather in Paris?"},` +
			`{"role":"assistant","content":"Let me look.","extra_content":{"google":{"thought_signature":"dGV4dA=="}},"tool_calls":[` +
			`{"id":"call_a","type":"function","function":{"name":"weather","arguments":"{}"},"extra_content":{"google":{"thought_signature":"c2lnQQ=="},"other":1}},` +
			`{"id":"call_b","type":"function","function":{"name":"time","arguments":"{}"}}]},` +
			`{"role":"tool","tool_call_id":"call_a","content":"sunny"},{"role":"tool","tool_call_id":"call_b","content":"noon"}]}`,
		`{"contents":[{"role":"user","parts":[{"text":"Weather in Paris?"}]},` +
			`{"role":"model","parts":[{"text":"Let me look.","thoughtSignature":"dGV4dA=="},{"thoughtSignature":"c2lnQQ==","functionCall":{"name":"weather","args":{}}},{"functionCall":{"name":"time","args":{}}}]},` +
			`{"role":"user","parts":[{"functionResponse":{"name":"weather","response":{"content":"sunny"}}},{"functionResponse":{"name":"time","response":{"content":"noon"}}}]}]}`})
	tests = append(tests, struct{ name, in, want string }{"strict-mode schema",
		`{"model":"m","messages":[{"role":"user","content":"Hi"}],"tools":[{"type":"function","function":{"name":"f","strict":true,"parameters":` +
			`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,` +
			`"properties":{"loc":{"type":"object","additionalProperties":false,"properties":{"city":{"type":"string"}}},` +
			`"additionalProperties":{"type":"string"}},"required":["loc"]}}}]}`,
		`{"contents":[{"role":"user","parts":[{"text":"Hi"}]}],"tools":[{"functionDeclarations":[{"name":"f","parameters":` +
			`{"properties":{"additionalProperties":{"type":"string"},"loc":{"properties":{"city":{"type":"string"}},"type":"object"}},"required":["loc"],"type":"object"}}]}]}`})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g, err := toGemini(decodeRequest(t, tt.in), false)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(g)
			if string(got) != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestToGeminiErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"tool result for an unknown call", `{"model":"m","messages":[{"role":"tool","tool_call_id":"call_x","content":"1"}]}`,
			`messages[0]: tool_call_id "call_x" does not match a tool call of an earlier assistant message`},
		{"data URL without base64", `{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png,abc"}}]}]}`,
			"messages[0]: content[0]: image_url data: URL must be data:<media type>;base64,<data>"},
		{"audio part", `{"model":"m","messages":[{"role":"user","content":[{"type":"input_audio","input_audio":{}}]}]}`,
			`messages[0]: content[0]: Vertex Gemini does not take "input_audio" parts`},
		{"arguments not an object", `{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"1"}}]}]}`,
			`messages[0]: tool call "f": arguments are not a JSON object`},
		{"thought signature not a string", `{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"},"extra_content":{"google":{"thought_signature":7}}}]}]}`,
			`messages[0]: tool call "f": extra_content.google.thought_signature must be a string`},
		{"bad tool_choice", `{"model":"m","messages":[{"role":"user","content":"a"}],"tools":[{"type":"function","function":{"name":"f"}}],"tool_choice":{"type":"function"}}`,
			`tool_choice must be a string or {"type":"function","function":{"name":...}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := toGemini(decodeRequest(t, tt.in), false)
			var bad *provider.Refusal
			if !errors.As(err, &bad) || err.Error() != tt.want {
				t.Fatalf("error %v, want bad request %q", err, tt.want)
			}
		})
	}
}

func TestFromGemini(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"text with a thought", `{"candidates":[{"content":{"role":"model","parts":[{"text":"hmm","thought":true},{"text":"Hi"}]},"finishReason":"MAX_TOKENS"}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":1,"thoughtsTokenCount":2,"totalTokenCount":7},"responseId":"r1"}`,
			`{"id":"chatcmpl-r1","object":"chat.completion","created":7,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"length"}],"usage":{"prompt_tokens":4,"completion_tokens":3,"total_tokens":7,"completion_tokens_details":{"reasoning_tokens":2}}}`},
		{"cached content", `{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":2100,"cachedContentTokenCount":2048,"candidatesTokenCount":1,"totalTokenCount":2101,"cacheTokensDetails":[{"modality":"TEXT","tokenCount":2048}]},"responseId":"r1"}`,
			`{"id":"chatcmpl-r1","object":"chat.completion","created":7,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":2100,"completion_tokens":1,"total_tokens":2101,"prompt_tokens_details":{"cached_tokens":2048}}}`},
		{"function call", `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":{"a":1}}}]},"finishReason":"STOP"}]}`,
			`{"id":"chatcmpl-x","object":"chat.completion","created":7,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_X","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},"finish_reason":"tool_calls"}]}`},
		{"signed function calls and text", `{"candidates":[{"content":{"role":"model","parts":[{"text":"Checking."},{"functionCall":{"name":"f","args":{}},"thoughtSignature":"c2lnQQ=="},{"functionCall":{"name":"g","args":{}}},{"text":"","thoughtSignature":"dGV4dA=="}]},"finishReason":"STOP"}]}`,
			`{"id":"chatcmpl-x","object":"chat.completion","created":7,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Checking.","tool_calls":[` +
				`{"id":"call_X","type":"function","function":{"name":"f","arguments":"{}"},"extra_content":{"google":{"thought_signature":"c2lnQQ=="}}},` +
				`{"id":"call_X","type":"function","function":{"name":"g","arguments":"{}"}}],"extra_content":{"google":{"thought_signature":"dGV4dA=="}}},"finish_reason":"tool_calls"}]}`},
		{"blocked prompt", `{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":4,"totalTokenCount":4}}`,
			`{"id":"chatcmpl-x","object":"chat.completion","created":7,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null},"finish_reason":"content_filter"}],"usage":{"prompt_tokens":4,"completion_tokens":0,"total_tokens":4}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _, err := fromGemini([]byte(tt.in), "chatcmpl-x", "m", 7)
			if err != nil {
				t.Fatal(err)
			}
			if s := callIDs.ReplaceAllString(string(got), "call_X"); s != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", s, tt.want)
			}
		})
	}
	if _, _, err := fromGemini([]byte(`{}`), "x", "m", 0); err == nil || err.Error() != "no candidates" {
		t.Fatalf("empty answer: error %v", err)
	}
}

func BenchmarkToGemini(b *testing.B) {
	req := decodeRequest(b, fullRequest)
	b.ReportAllocs()
	for b.Loop() {
		g, err := toGemini(req, false)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFromGemini(b *testing.B) {
	raw := []byte(`{"candidates":[{"content":{"role":"model","parts":[{"text":"The weather in Paris is 21 degrees and sunny, with a light breeze from the west."},{"functionCall":{"name":"f","args":{"a":1}}}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":30,"candidatesTokenCount":20,"totalTokenCount":50},"responseId":"r1"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := fromGemini(raw, "chatcmpl-1", "m", 7); err != nil {
			b.Fatal(err)
		}
	}
}
