package extproc

import (
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/redistest"
)

// TestProcessorReplaysACachedStream: a streamed answer Envoy relayed is stored, and the same
// request streamed again is answered at once with it as events; a client that asked for the
// usage (stream_options.include_usage) gets the usage event last, before [DONE], as the HTTP
// listener gives it, and one that did not gets none.
func TestProcessorReplaysACachedStream(t *testing.T) {
	t.Parallel()
	f := newFixture(t, `
models:
  - model_name: general
    provider: {type: openai_compatible, base_url: http://vllm-general.models.svc:8000/v1, model: llama-8b}
cache: {enabled: true}
`, nil)
	body := func(includeUsage string) string {
		return `{"model":"general","temperature":0,"stream":true,"stream_options":{"include_usage":` + includeUsage + `},"messages":[{"role":"user","content":"Name a prime number."}]}`
	}
	e := f.open(t)
	if p := e.planned(body("true")); p.GetImmediateResponse() != nil {
		t.Fatalf("planned: %v", p)
	}
	e.send(responseHeaders(200, "text/event-stream"))
	for i, c := range []string{
		`data: {"id":"c","object":"chat.completion.chunk","created":5,"model":"llama-8b","choices":[{"index":0,"delta":{"role":"assistant","content":"7"},"finish_reason":null}]}` + "\n\n",
		`data: {"id":"c","object":"chat.completion.chunk","created":5,"model":"llama-8b","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n",
		`data: {"id":"c","object":"chat.completion.chunk","created":5,"model":"llama-8b","choices":[],"usage":{"prompt_tokens":6,"completion_tokens":1,"total_tokens":7}}` + "\n\n",
		"data: [DONE]\n\n",
	} {
		e.send(responseBody(c, i == 3))
	}
	e.close()
	redistest.WaitFor(t, "the streamed answer to be stored", func() bool {
		return f.open(t).planned(body("false")).GetImmediateResponse() != nil
	})
	const usage = `data: {"id":"c","object":"chat.completion.chunk","created":5,"model":"llama-8b","choices":[],"usage":{"prompt_tokens":6,"completion_tokens":1,"total_tokens":7}}` + "\n\ndata: [DONE]\n\n"
	for _, tt := range []struct{ includeUsage, wantEnd string }{
		{"true", usage},
		{"false", `"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"},
	} {
		imm := f.open(t).planned(body(tt.includeUsage)).GetImmediateResponse()
		got := string(imm.GetBody())
		if imm == nil || !strings.HasSuffix(got, tt.wantEnd) || strings.Count(got, `"usage"`) != strings.Count(tt.wantEnd, `"usage"`) {
			t.Errorf("include_usage %s: the replay\n%s\nwant it to end with\n%s", tt.includeUsage, got, tt.wantEnd)
		}
		if h := setHeaders(imm.GetHeaders().GetSetHeaders()); h["content-type"] != "text/event-stream" {
			t.Errorf("include_usage %s: headers %v", tt.includeUsage, h)
		}
	}
}
