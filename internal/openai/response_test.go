package openai

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestUsageRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Usage
	}{
		{"counts only", `{"prompt_tokens":7,"completion_tokens":4,"total_tokens":11}`,
			Usage{PromptTokens: 7, CompletionTokens: 4, TotalTokens: 11}},
		{"OpenAI's details, with the members the router does not read",
			`{"prompt_tokens":2006,"completion_tokens":300,"total_tokens":2306,` +
				`"prompt_tokens_details":{"cached_tokens":1920,"audio_tokens":0},` +
				`"completion_tokens_details":{"reasoning_tokens":128,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}`,
			Usage{PromptTokens: 2006, CompletionTokens: 300, TotalTokens: 2306,
				PromptTokensDetails: &PromptTokensDetails{CachedTokens: 1920, Extra: map[string]json.RawMessage{"audio_tokens": json.RawMessage(`0`)}},
				CompletionTokensDetails: &CompletionTokensDetails{ReasoningTokens: 128, Extra: map[string]json.RawMessage{
					"audio_tokens": json.RawMessage(`0`), "accepted_prediction_tokens": json.RawMessage(`0`), "rejected_prediction_tokens": json.RawMessage(`0`)}}}},
		{"a backend's own counters beside the details", `{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7,"prompt_tokens_details":{"cached_tokens":0},"num_cached_blocks":{"gpu":3}}`,
			Usage{PromptTokens: 5, CompletionTokens: 2, TotalTokens: 7, PromptTokensDetails: &PromptTokensDetails{},
				Extra: map[string]json.RawMessage{"num_cached_blocks": json.RawMessage(`{"gpu":3}`)}}},
		{"details of another shape are kept unread", `{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7,"prompt_tokens_details":{"cached_tokens":"all"},"completion_tokens_details":[]}`,
			Usage{PromptTokens: 5, CompletionTokens: 2, TotalTokens: 7, Extra: map[string]json.RawMessage{
				"prompt_tokens_details": json.RawMessage(`{"cached_tokens":"all"}`), "completion_tokens_details": json.RawMessage(`[]`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// encoding/json is how the router reads usage from answers and stream chunks;
			// Unmarshal (encoding/json/v2) must agree with it.
			var v1, v2 Usage
			if err := json.Unmarshal([]byte(tt.in), &v1); err != nil {
				t.Fatal(err)
			}
			if err := Unmarshal([]byte(tt.in), &v2); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(v1, tt.want) || !reflect.DeepEqual(v2, tt.want) {
				t.Fatalf("decoded\n %#v (encoding/json)\n %#v (v2)\nwant %#v", v1, v2, tt.want)
			}
			out, err := json.Marshal(ChatChunk{Choices: []ChunkChoice{}, Usage: &v1})
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Usage json.RawMessage `json:"usage"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(t, string(got.Usage), tt.in) {
				t.Errorf("re-encoded usage = %s, want %s", got.Usage, tt.in)
			}
		})
	}
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}
