package vertex

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
	const base = `{"contents":[{"role":"user","parts":[{"text":"Hi"}]}]`
	tests := []struct {
		name, fields string
		stream       bool
		want         string // the generateContent request, or "" when refused
		param, err   string
	}{
		{name: "json_schema", fields: `"response_format":{"type":"json_schema","json_schema":{"name":"a","schema":{"$schema":"x","type":"object","additionalProperties":false,"properties":{"a":{"type":"string"}}}}}`,
			want: base + `,"generationConfig":{"responseMimeType":"application/json","responseSchema":{"properties":{"a":{"type":"string"}},"type":"object"}}}`},
		{name: "json_object", fields: `"response_format":{"type":"json_object"}`, want: base + `,"generationConfig":{"responseMimeType":"application/json"}}`},
		{name: "text format asks for nothing", fields: `"response_format":{"type":"text"}`, want: base + `}`},
		{name: "sampling fields", fields: `"seed":42,"presence_penalty":0.5,"frequency_penalty":-0.25,"top_k":40`,
			want: base + `,"generationConfig":{"topK":40,"seed":42,"presencePenalty":0.5,"frequencyPenalty":-0.25}}`},
		{name: "logprobs", fields: `"logprobs":true,"top_logprobs":3`, want: base + `,"generationConfig":{"responseLogprobs":true,"logprobs":3}}`},
		{name: "n", fields: `"n":3`, want: base + `,"generationConfig":{"candidateCount":3}}`},
		{name: "unset values ask for nothing", fields: `"seed":null,"logprobs":false,"user":"u","parallel_tool_calls":true`, want: base + `}`},
		{name: "n in a stream", fields: `"n":2`, stream: true, param: "n",
			err: "n: a streamed answer from Vertex AI has one candidate; ask for n > 1 without stream"},
		{name: "logprobs in a stream", fields: `"logprobs":true`, stream: true, param: "logprobs",
			err: "logprobs: this router sends Vertex AI streams without log probabilities; ask without stream"},
		{name: "logit_bias", fields: `"logit_bias":{"1":5}`, param: "logit_bias", err: "logit_bias: Vertex AI Gemini has no logit bias"},
		{name: "unknown field", fields: `"prediction":{"type":"content","content":"x"}`, param: "prediction",
			err: "prediction: Vertex AI Gemini has no equivalent of this field"},
		{name: "bad seed", fields: `"seed":"x"`, param: "seed", err: "seed: json: cannot unmarshal string into Go value of type int64"},
		{name: "unknown format", fields: `"response_format":{"type":"yaml"}`, param: "response_format",
			err: `response_format: type "yaml" is not one of text, json_object, json_schema`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g, err := toGemini(decodeRequest(t, `{`+msgs+`,`+tt.fields+`}`), tt.stream)
			if tt.err != "" {
				var bad *provider.Refusal
				if !errors.As(err, &bad) || err.Error() != tt.err || bad.Param != tt.param || !errors.Is(err, provider.ErrUnsupportedField) {
					t.Fatalf("error %v, want %q about %q", err, tt.err, tt.param)
				}
				return
			}
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

func TestLogprobsAnswer(t *testing.T) {
	t.Parallel()
	raw := `{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"finishReason":"STOP",` +
		`"logprobsResult":{"topCandidates":[{"candidates":[{"token":"Hi","logProbability":-0.1},{"token":"Yo","logProbability":-2.5}]}],` +
		`"chosenCandidates":[{"token":"Hi","logProbability":-0.1}]}}]}`
	body, _, err := fromGemini([]byte(raw), "chatcmpl-1", "gemini", 1)
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		Choices []struct {
			Logprobs json.RawMessage `json:"logprobs"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatal(err)
	}
	want := `{"content":[{"token":"Hi","logprob":-0.1,"bytes":[72,105],"top_logprobs":[{"token":"Hi","logprob":-0.1,"bytes":[72,105]},{"token":"Yo","logprob":-2.5,"bytes":[89,111]}]}]}`
	if got := string(resp.Choices[0].Logprobs); got != want {
		t.Fatalf("logprobs\n%s\nwant\n%s", got, want)
	}
}

// FuzzToGemini translates arbitrary chat requests, plain and streamed: it never panics, and
// what it refuses is a 400 (a *provider.Refusal).
func FuzzToGemini(f *testing.F) {
	f.Add(`{"model":"m","messages":[{"role":"user","content":"Hi"}],"response_format":{"type":"json_schema","json_schema":{"schema":{"type":"object"}}},"seed":1,"logprobs":true,"top_logprobs":2,"n":2}`, true)
	f.Add(`{"model":"m","messages":[{"role":"user","content":"Hi"}],"frequency_penalty":"x"}`, false)
	f.Fuzz(func(t *testing.T, body string, stream bool) {
		var req openai.ChatRequest
		if json.Unmarshal([]byte(body), &req) != nil {
			return
		}
		g, err := toGemini(&req, stream)
		var bad *provider.Refusal
		switch {
		case err != nil && !errors.As(err, &bad):
			t.Fatalf("error %T %v, want a *provider.Refusal", err, err)
		case err == nil:
			if _, err := json.Marshal(g); err != nil {
				t.Fatalf("the Gemini request does not encode: %v", err)
			}
		}
	})
}
