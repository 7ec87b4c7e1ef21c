package openai

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
)

func TestChatRequestRoundTripKeepsEveryField(t *testing.T) {
	in := `{
		"model": "auto",
		"messages": [
			{"role": "system", "content": "be brief"},
			{"role": "user", "content": [{"type": "text", "text": "what is this"}, {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAA", "detail": "low"}}]},
			{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}, "extra_content": {"google": {"thought_signature": "c2ln"}}}], "reasoning_content": "hmm"},
			{"role": "tool", "tool_call_id": "c1", "content": "42"}
		],
		"stream": true,
		"stream_options": {"include_usage": true, "continuous_usage_stats": true},
		"temperature": 0,
		"max_tokens": 64,
		"stop": "END",
		"top_k": 20,
		"guided_json": {"type": "object"},
		"chat_template_kwargs": {"enable_thinking": false},
		"logit_bias": {"50256": -100}
	}`
	var req ChatRequest
	if err := json.Unmarshal([]byte(in), &req); err != nil {
		t.Fatal(err)
	}
	if got := req.Messages[1].Content.String(); got != "what is this" {
		t.Errorf("text of parts = %q", got)
	}
	if got := req.LastUserText(); got != "what is this" {
		t.Errorf("LastUserText = %q", got)
	}
	if req.Temperature == nil || *req.Temperature != 0 {
		t.Error("an explicit temperature 0 was lost")
	}
	out, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var want, got any
	_ = json.Unmarshal([]byte(in), &want)
	_ = json.Unmarshal(out, &got)
	// An assistant turn without content is re-encoded with content null, which every
	// OpenAI-compatible server reads as absent.
	want.(map[string]any)["messages"].([]any)[2].(map[string]any)["content"] = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip changed the request:\n got %s\nwant %s", out, in)
	}
}

func TestParseChatRequest(t *testing.T) {
	tests := []struct {
		name, body, param, msg string
	}{
		{"empty", ``, "", "the request body is empty; send a JSON chat completion request"},
		{"array", `[1]`, "", "the request body must be a JSON object"},
		{"truncated", `{"model":"a"`, "", "the request body is not valid JSON (at byte 12): unexpected end of JSON input"},
		{"model type", `{"model":3,"messages":[]}`, "model", "model must be a string, not a JSON number"},
		{"messages type", `{"model":"a","messages":"hi"}`, "messages", "messages must be an array, not a JSON string"},
		{"nested type", `{"model":"a","messages":[{"role":"user","content":"x"},{"role":5}]}`, "messages[1].role", "messages[1].role must be a string, not a JSON number"},
		{"max_tokens type", `{"model":"a","messages":[{"role":"user","content":"x"}],"max_tokens":"9"}`, "max_tokens", "max_tokens must be a number, not a JSON string"},
		{"invalid escape", `{"model":"a\q","messages":[]}`, "", "the request body is not valid JSON (at byte 13): invalid character 'q' in string escape code"},
		{"content type", `{"model":"a","messages":[{"role":"user","content":7}]}`, "messages[0].content", "the request body is not a valid chat completion request: content must be a string, an array of content parts, or null"},
		{"stop type", `{"model":"a","messages":[{"role":"user","content":"x"}],"stop":5}`, "stop", "the request body is not a valid chat completion request: stop must be a string or an array of strings"},
		{"fraction for an integer", `{"model":"a","messages":[{"role":"user","content":"x"}],"max_tokens":1.5}`, "max_tokens", "max_tokens must be an integer, not 1.5"},
		{"exponent for an integer", `{"model":"a","messages":[{"role":"user","content":"x"}],"n":1e400}`, "n", "n must be an integer, not 1e400"},
		{"integer out of range", `{"model":"a","messages":[{"role":"user","content":"x"}],"n":99999999999999999999}`, "n", "n is out of range: 99999999999999999999"},
		{"number out of range", `{"model":"a","messages":[{"role":"user","content":"x"}],"temperature":1e400}`, "temperature", "temperature is out of range: 1e400"},
		{"long number clipped", `{"model":"a","messages":[{"role":"user","content":"x"}],"max_tokens":1.` + strings.Repeat("5", 100) + `}`, "max_tokens", "max_tokens must be an integer, not 1.555555555555555555555555555555…"},
		{"stream options without stream", `{"model":"a","messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":true}}`, "stream_options", "stream_options is only allowed when stream is true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseChatRequest([]byte(tt.body))
			if err == nil {
				t.Fatal("no error")
			}
			if err.Status != 400 || err.Param != tt.param || err.Message != tt.msg {
				t.Errorf("got %d param %q %q\nwant 400 param %q %q", err.Status, err.Param, err.Message, tt.param, tt.msg)
			}
		})
	}
}

// FuzzParseChatRequest checks that no body panics the parser, that every rejection is a 400,
// and that an accepted request re-encodes to JSON that parses to the same request.
func FuzzParseChatRequest(f *testing.F) {
	f.Add([]byte(`{"model":"auto","messages":[{"role":"user","content":"hi"}]}`))
	f.Add([]byte(`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"}]}],"stream":true,"stop":["x"],"x":{"y":[1,2]}}`))
	f.Add([]byte(`{"model":"m","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"1","function":{"name":"f","arguments":"{}"}}]}]}`))
	f.Add([]byte(`{"model":"ok","Model":"other","messages":[{"role":"user","content":"hi"}]}`))
	f.Add([]byte(`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a","Text":"b"}]}],"model":"n"}`))
	f.Add([]byte(`{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"1","function":{"name":"f","arguments":"{}","Name":"g"}}]}],"tools":[{"type":"function","function":{"name":"f"}}]}`))
	f.Add([]byte(`{"model":"m","messages":[{"role":"user","content":"hi","\u0063ontent":"x"}],"stream":true,"stream_options":{"include_usage":true}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, apiErr := ParseChatRequest(body)
		if apiErr != nil {
			if apiErr.Status != 400 || apiErr.Message == "" {
				t.Fatalf("rejection %d %q", apiErr.Status, apiErr.Message)
			}
			return
		}
		// Nothing the router reads may hide a second spelling of itself.
		if k := smuggled(t, bytes.TrimSpace(body), requestShape); k != "" {
			t.Fatalf("accepted a request with the smuggled key %q: %s", k, body)
		}
		out, err := json.Marshal(req)
		if err != nil {
			t.Fatalf("accepted request does not re-encode: %v", err)
		}
		again, apiErr := ParseChatRequest(out)
		if apiErr != nil {
			t.Fatalf("re-encoded request rejected: %v\n%s", apiErr, out)
		}
		if again.Model != req.Model || len(again.Messages) != len(req.Messages) || again.LastUserText() != req.LastUserText() {
			t.Fatalf("round trip changed the request:\n%s", out)
		}
	})
}

// TestMessageEncodingPaths holds the direct encoding of a role-and-content message to the
// bytes of the general encoder, which encodes every other message.
func TestMessageEncodingPaths(t *testing.T) {
	tests := map[string]Message{
		"text":               {Role: "user", Content: TextContent("What is the capital of France?")},
		"empty text":         {Role: "assistant", Content: TextContent("")},
		"null":               {Role: "assistant", Content: Content{IsNull: true}},
		"parts":              {Role: "user", Content: Content{IsParts: true, Parts: []ContentPart{{Type: "text", Text: "look"}, {Type: "image_url", Raw: json.RawMessage(`{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}`)}}}},
		"escapes":            {Role: "user", Content: TextContent("<b>&amp;</b> \"quoted\" \\ \u2028 tab\t nul\x00")},
		"invalid utf-8":      {Role: "us\xffer", Content: TextContent("caf\xe9")},
		"unicode":            {Role: "user", Content: TextContent("日本語 ✓ 🙂")},
		"empty tool calls":   {Role: "assistant", Content: TextContent("x"), ToolCalls: []ToolCall{}},
		"general: name":      {Role: "user", Name: "jane", Content: TextContent("hi")},
		"general: tool call": {Role: "tool", ToolCallID: "call_1", Content: TextContent("42")},
		"general: extra":     {Role: "assistant", Content: TextContent("x"), Extra: map[string]json.RawMessage{"reasoning_content": json.RawMessage(`"why"`)}},
	}
	for name, m := range tests {
		t.Run(name, func(t *testing.T) {
			general, err := jsonv2.Marshal((*plainMessage)(&m), codec)
			if err != nil {
				t.Fatal(err)
			}
			got, err := jsonv2.Marshal(&m, codec)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, general) {
				t.Errorf("direct encoding\n%s\ngeneral encoding\n%s", got, general)
			}
			req := ChatRequest{Model: "m", Messages: []Message{m, m}}
			body, err := req.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if want := `"messages":[` + string(general) + `,` + string(general) + `]`; !strings.Contains(string(body), want) {
				t.Errorf("request encoding %s lacks %s", body, want)
			}
		})
	}
}
