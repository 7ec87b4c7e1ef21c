package bedrock

import (
	"encoding/json"
	"errors"
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

// A conversation with everything Converse distinguishes: system and developer prompts,
// image parts, a tool call, two tool results (merged into one user turn with the user's
// next words), stop sequences and sampling parameters.
const fullRequest = `{"model":"m","messages":[
 {"role":"system","content":"Be brief."},
 {"role":"developer","content":"Use metric units."},
 {"role":"user","content":[{"type":"text","text":"Weather here?"},{"type":"image_url","image_url":{"url":"data:image/jpg;base64,/9j/4AAQ"}}]},
 {"role":"assistant","content":"Checking.","tool_calls":[{"id":"tooluse_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},{"id":"tooluse_2","type":"function","function":{"name":"get_time","arguments":""}}]},
 {"role":"tool","tool_call_id":"tooluse_1","content":"{\"temp_c\":21}"},
 {"role":"tool","tool_call_id":"tooluse_2","content":"10:00"},
 {"role":"user","content":"Thanks"}],
 "max_tokens":100,"max_completion_tokens":200,"temperature":0.5,"top_p":0.9,"stop":["END"],
 "tools":[{"type":"function","function":{"name":"get_weather","description":"Weather","parameters":{"type":"object"}}},{"type":"function","function":{"name":"get_time"}}],
 "tool_choice":{"type":"function","function":{"name":"get_weather"}}}`

const fullConverse = `{"messages":[` +
	`{"role":"user","content":[{"text":"Weather here?"},{"image":{"format":"jpeg","source":{"bytes":"/9j/4AAQ"}}}]},` +
	`{"role":"assistant","content":[{"text":"Checking."},{"toolUse":{"toolUseId":"tooluse_1","name":"get_weather","input":{"city":"Paris"}}},{"toolUse":{"toolUseId":"tooluse_2","name":"get_time","input":{}}}]},` +
	`{"role":"user","content":[{"toolResult":{"toolUseId":"tooluse_1","content":[{"json":{"temp_c":21}}]}},{"toolResult":{"toolUseId":"tooluse_2","content":[{"text":"10:00"}]}},{"text":"Thanks"}]}],` +
	`"system":[{"text":"Be brief."},{"text":"Use metric units."}],` +
	`"inferenceConfig":{"maxTokens":200,"temperature":0.5,"topP":0.9,"stopSequences":["END"]},` +
	`"toolConfig":{"tools":[{"toolSpec":{"name":"get_weather","description":"Weather","inputSchema":{"json":{"type":"object"}}}},` +
	`{"toolSpec":{"name":"get_time","inputSchema":{"json":{"type":"object","properties":{}}}}}],"toolChoice":{"tool":{"name":"get_weather"}}}}`

func TestToConverse(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"full conversation", fullRequest, fullConverse},
		{"plain text, no parameters", `{"model":"m","messages":[{"role":"user","content":"Hi"}]}`,
			`{"messages":[{"role":"user","content":[{"text":"Hi"}]}]}`},
		{"empty assistant turn is dropped", `{"model":"m","messages":[{"role":"user","content":"a"},{"role":"assistant","content":""},{"role":"user","content":"b"}]}`,
			`{"messages":[{"role":"user","content":[{"text":"a"},{"text":"b"}]}]}`},
		{"empty tool result", `{"model":"m","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"t","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"t","content":""}]}`,
			`{"messages":[{"role":"assistant","content":[{"toolUse":{"toolUseId":"t","name":"f","input":{}}}]},{"role":"user","content":[{"toolResult":{"toolUseId":"t","content":[{"json":{}}]}}]}]}`},
		{"tool result in text parts, joined as they are", `{"model":"m","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"t","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"u","type":"function","function":{"name":"g","arguments":"{}"}}]},` +
			`{"role":"tool","tool_call_id":"t","content":[{"type":"text","text":"{\"temp_c\":"},{"type":"text","text":"21}"}]},` +
			`{"role":"tool","tool_call_id":"u","content":[{"type":"text","text":"It is 21"},{"type":"text","text":" C in Paris."}]}]}`,
			`{"messages":[{"role":"assistant","content":[{"toolUse":{"toolUseId":"t","name":"f","input":{}}},{"toolUse":{"toolUseId":"u","name":"g","input":{}}}]},` +
				`{"role":"user","content":[{"toolResult":{"toolUseId":"t","content":[{"json":{"temp_c":21}}]}},{"toolResult":{"toolUseId":"u","content":[{"text":"It is 21 C in Paris."}]}}]}]}`},
		{"tool_choice required", `{"model":"m","messages":[{"role":"user","content":"a"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}],"tool_choice":"required"}`,
			`{"messages":[{"role":"user","content":[{"text":"a"}]}],"toolConfig":{"tools":[{"toolSpec":{"name":"f","inputSchema":{"json":{"type":"object"}}}}],"toolChoice":{"any":{}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			conv, err := toConverse(decodeRequest(t, tt.in))
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

func TestToConverseErrors(t *testing.T) {
	t.Parallel()
	user := func(content string) string {
		return `{"model":"m","messages":[{"role":"user","content":` + content + `}]}`
	}
	tests := []struct{ name, in, want, at string }{
		{"remote image", user(`[{"type":"text","text":"What is this?"},{"type":"image_url","image_url":{"url":"https://example.com/cat.png"}}]`),
			"messages[0]: content[1]: image_url must be a base64 data: URL; Bedrock does not fetch images from URLs", "messages[0].content[1]"},
		{"unsupported image type", user(`[{"type":"image_url","image_url":{"url":"data:image/bmp;base64,Qk0="}}]`),
			`messages[0]: content[0]: image_url has media type "image/bmp", want image/png, image/jpeg, image/gif or image/webp`, "messages[0].content[0]"},
		{"not an image", user(`[{"type":"image_url","image_url":{"url":"data:text/plain;base64,aGk="}}]`),
			`messages[0]: content[0]: image_url has media type "text/plain", want image/png, image/jpeg, image/gif or image/webp`, "messages[0].content[0]"},
		{"bad base64", user(`[{"type":"image_url","image_url":{"url":"data:image/png;base64,!!!"}}]`),
			"messages[0]: content[0]: image_url data is not valid base64", "messages[0].content[0]"},
		{"audio part", user(`[{"type":"input_audio","input_audio":{"data":"AAAA","format":"wav"}}]`),
			`messages[0]: content[0]: Bedrock Converse does not take "input_audio" parts`, "messages[0].content[0]"},
		{"file part", user(`[{"type":"file","file":{"file_data":"data:application/pdf;base64,JVBE","filename":"a.pdf"}}]`),
			`messages[0]: content[0]: Bedrock Converse does not take "file" parts`, "messages[0].content[0]"},
		{"unknown role", `{"model":"m","messages":[{"role":"critic","content":"x"}]}`, `messages[0]: unsupported role "critic"`, "messages[0].role"},
		{"arguments not an object", `{"model":"m","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"[1]"}}]}]}`,
			`messages[0]: tool call "f": arguments are not a JSON object`, "messages[0].tool_calls[0].function.arguments"},
		{"bad tool_choice", `{"model":"m","messages":[{"role":"user","content":"a"}],"tools":[{"type":"function","function":{"name":"f"}}],"tool_choice":"always"}`,
			`tool_choice "always" is not one of auto, none, required`, "tool_choice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := toConverse(decodeRequest(t, tt.in))
			var bad *provider.Refusal
			if !errors.As(err, &bad) || err.Error() != tt.want || bad.At != tt.at || !errors.Is(err, provider.ErrRefused) {
				t.Fatalf("error %v (at %q), want a refusal %q at %q", err, bad.At, tt.want, tt.at)
			}
		})
	}
}

func TestFromConverse(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"text", `{"output":{"message":{"role":"assistant","content":[{"text":"Hi "},{"text":"there"}]}},"stopReason":"max_tokens","usage":{"inputTokens":3,"outputTokens":2,"totalTokens":5}}`,
			`{"id":"chatcmpl-1","object":"chat.completion","created":7,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi there"},"finish_reason":"length"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`},
		{"prompt cache read and written", `{"output":{"message":{"role":"assistant","content":[{"text":"Hi"}]}},"stopReason":"end_turn","usage":{"inputTokens":10,"outputTokens":244,"totalTokens":1562,"cacheReadInputTokens":1200,"cacheWriteInputTokens":108}}`,
			`{"id":"chatcmpl-1","object":"chat.completion","created":7,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1318,"completion_tokens":244,"total_tokens":1562,"prompt_tokens_details":{"cached_tokens":1200}}}`},
		{"prompt cache written only", `{"output":{"message":{"role":"assistant","content":[{"text":"Hi"}]}},"stopReason":"end_turn","usage":{"inputTokens":10,"outputTokens":2,"totalTokens":1320,"cacheReadInputTokens":0,"cacheWriteInputTokens":1308}}`,
			`{"id":"chatcmpl-1","object":"chat.completion","created":7,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1318,"completion_tokens":2,"total_tokens":1320,"prompt_tokens_details":{"cached_tokens":0}}}`},
		{"prompt cache unused", `{"output":{"message":{"role":"assistant","content":[{"text":"Hi"}]}},"stopReason":"end_turn","usage":{"inputTokens":10,"outputTokens":2,"totalTokens":12,"cacheReadInputTokens":0,"cacheWriteInputTokens":0}}`,
			`{"id":"chatcmpl-1","object":"chat.completion","created":7,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}}`},
		{"tool use", `{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"f","input":{"a":1}}}]}},"stopReason":"tool_use"}`,
			`{"id":"chatcmpl-1","object":"chat.completion","created":7,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"t1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},"finish_reason":"tool_calls"}]}`},
		{"guardrail", `{"output":{"message":{"role":"assistant","content":[{"text":"Sorry."}]}},"stopReason":"guardrail_intervened"}`,
			`{"id":"chatcmpl-1","object":"chat.completion","created":7,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Sorry."},"finish_reason":"content_filter"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _, err := fromConverse([]byte(tt.in), "chatcmpl-1", "m", 7)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	if _, _, err := fromConverse([]byte(`{"output":{}}`), "x", "m", 0); err == nil || err.Error() != "no output.message" {
		t.Fatalf("missing message: error %v", err)
	}
}

func BenchmarkToConverse(b *testing.B) {
	req := decodeRequest(b, fullRequest)
	b.ReportAllocs()
	for b.Loop() {
		conv, err := toConverse(req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(conv); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFromConverse(b *testing.B) {
	raw := []byte(`{"output":{"message":{"role":"assistant","content":[{"text":"The weather in Paris is 21 degrees and sunny, with a light breeze from the west."},{"toolUse":{"toolUseId":"t1","name":"f","input":{"a":1}}}]}},"stopReason":"tool_use","usage":{"inputTokens":30,"outputTokens":20,"totalTokens":50}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := fromConverse(raw, "chatcmpl-1", "m", 7); err != nil {
			b.Fatal(err)
		}
	}
}
