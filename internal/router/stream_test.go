package router

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider/providertest"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// fakeModel is a model named name on the OpenAI fake f, with extra YAML lines.
func fakeModel(name string, f *providertest.OpenAIFake, extra string) string {
	return "  - model_name: " + name + "\n    provider: {type: openai_compatible, base_url: " + f.Server.URL + "/v1, api_key: env.FAKE_KEY}\n" + extra
}

var fakeEnv = map[string]string{"FAKE_KEY": "sk-fake"}

// openStreamOn serves a streamed request for model through p.
func openStreamOn(t *testing.T, p *Pipeline, body string) (*Result, error) {
	t.Helper()
	res, _, err := p.Serve(context.Background(), &Request{ID: "test", Header: http.Header{}, Body: newBody(body)})
	return res, err
}

// TestStreamUsage: the backend is always asked for the usage, which is charged and
// counted; the usage chunk reaches only a client that asked for it.
func TestStreamUsage(t *testing.T) {
	t.Parallel()
	f := providertest.NewOpenAIFake(t, providertest.NewScript(), "sk-fake")
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	r := buildRouter(t, "models:\n"+fakeModel("m", f, ""), fakeEnv, Options{Metrics: metrics})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	for _, tt := range []struct {
		body     string
		chunks   int
		lastPart string
	}{
		{chatBody("m", "hi", true), 6, `"finish_reason":"stop"`},
		{`{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`, 7,
			`"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":4,"total_tokens":11}`},
	} {
		res, err := openStreamOn(t, p, tt.body)
		if err != nil {
			t.Fatal(err)
		}
		chunks := drain(t, res.Stream)
		u := res.Stream.Usage()
		res.Close()
		if len(chunks) != tt.chunks || !strings.Contains(string(chunks[len(chunks)-1]), tt.lastPart) {
			t.Errorf("%s: %d chunks, the last %s; want %d, the last with %s", tt.body, len(chunks), chunks[len(chunks)-1], tt.chunks, tt.lastPart)
		}
		if u == nil || !reflect.DeepEqual(*u, openai.Usage{PromptTokens: 7, CompletionTokens: 4, TotalTokens: 11}) {
			t.Errorf("%s: Usage() = %+v, want 7+4", tt.body, u)
		}
	}
	if p, c := testutil.ToFloat64(metrics.Tokens.WithLabelValues("m", "prompt")), testutil.ToFloat64(metrics.Tokens.WithLabelValues("m", "completion")); p != 14 || c != 8 {
		t.Errorf("tokens_total = %v prompt, %v completion; want 14 and 8", p, c)
	}
	if got := testutil.ToFloat64(metrics.InFlight.WithLabelValues("m")); got != 0 {
		t.Errorf("in flight after Close = %v, want 0", got)
	}
}

// TestStreamTimeouts: a backend that sends no first event within first_token_timeout is
// given up (and a fallback serves, when there is one); one that goes quiet mid-stream for
// stream_idle_timeout ends the stream with an error.
func TestStreamTimeouts(t *testing.T) {
	t.Parallel()
	hang := providertest.NewScript()
	hang.SetReply(providertest.Reply{Hang: true})
	hung := providertest.NewOpenAIFake(t, hang, "sk-fake")
	hold := providertest.NewScript()
	hold.SetReply(providertest.Reply{Text: "one two three", HoldAfterFirst: true})
	held := providertest.NewOpenAIFake(t, hold, "sk-fake")
	r := buildRouter(t, "models:\n"+
		fakeModel("hung", hung, "    first_token_timeout: 100ms\n")+
		fakeModel("hung_with_fallback", hung, "    first_token_timeout: 100ms\n    fallbacks: [m]\n")+
		fakeModel("quiet", held, "    stream_idle_timeout: 100ms\n")+
		"  - model_name: m\n    provider: {type: sim, sim: {first_token_latency: 1ms, token_latency: 1ms}}\n", fakeEnv, Options{})
	p := NewPipeline(NewHolder(r), PipelineOptions{})

	_, err := openStreamOn(t, p, chatBody("hung", "hi", true))
	if e := apiErr(t, err); e.Status != http.StatusGatewayTimeout || e.Message != `upstream model server for model "hung" sent no first event in time (request id test)` {
		t.Errorf("first_token_timeout: %d %q", e.Status, e.Message)
	}

	res, err := openStreamOn(t, p, chatBody("hung_with_fallback", "hi", true))
	if err != nil {
		t.Fatalf("first_token_timeout with a fallback: %v", err)
	}
	drain(t, res.Stream)
	res.Close()

	res, err = openStreamOn(t, p, chatBody("quiet", "hi", true))
	if err != nil {
		t.Fatalf("stream_idle_timeout: %v", err)
	}
	defer res.Close()
	var got []string
	for {
		data, err := res.Stream.Next()
		if err != nil {
			e := apiErr(t, err)
			if e.Status != http.StatusGatewayTimeout || e.Message != `upstream model server for model "quiet" stopped sending events in the middle of the stream (request id test)` {
				t.Errorf("stream_idle_timeout: %d %q", e.Status, e.Message)
			}
			break
		}
		got = append(got, string(data))
	}
	// The fake holds after its first word: nothing after it may arrive.
	if len(got) == 0 || len(got) > 2 || strings.Contains(strings.Join(got, ""), "two") {
		t.Errorf("chunks before the silence: %q, want the role and at most the first word", got)
	}
}

// rawSSE is a backend that answers every stream with body, as is.
func rawSSE(t *testing.T, body string) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

// TestMalformedStreams: a stream without events, or with an event that is not JSON, never
// reaches the client as such: it is a 502 before the first byte, or an error mid-stream.
func TestMalformedStreams(t *testing.T) {
	t.Parallel()
	garbage := providertest.NewScript()
	garbage.SetReply(providertest.Reply{Text: "one two", Misbehave: providertest.StreamGarbage})
	f := providertest.NewOpenAIFake(t, garbage, "sk-fake")
	empty := rawSSE(t, "data: [DONE]\n\n")
	notJSON := rawSSE(t, "data: {not json\n\ndata: [DONE]\n\n")
	r := buildRouter(t, "models:\n"+fakeModel("garbage", f, "")+
		"  - model_name: empty\n    provider: {type: openai_compatible, base_url: "+empty.URL+"/v1}\n"+
		"  - model_name: not_json\n    provider: {type: openai_compatible, base_url: "+notJSON.URL+"/v1}\n", fakeEnv, Options{})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	for _, model := range []string{"empty", "not_json"} {
		_, err := openStreamOn(t, p, chatBody(model, "hi", true))
		want := fmt.Sprintf(`upstream model server for model %q sent a malformed stream (request id test)`, model)
		if e := apiErr(t, err); e.Status != http.StatusBadGateway || e.Message != want {
			t.Errorf("%s: %d %q, want 502 %q", model, e.Status, e.Message, want)
		}
	}
	res, err := openStreamOn(t, p, chatBody("garbage", "hi", true))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	for {
		data, err := res.Stream.Next()
		if err != nil {
			if e := apiErr(t, err); e.Status != http.StatusBadGateway || e.Message != `upstream model server for model "garbage" sent a malformed stream (request id test)` {
				t.Errorf("garbage mid-stream: %d %q", e.Status, e.Message)
			}
			break
		}
		if !json.Valid(data) {
			t.Fatalf("an event that is not JSON reached the client: %q", data)
		}
	}
}

// TestKeepAlive: the stream's keep-alive interval is server.stream_keepalive, 15s by
// default, 0 when turned off.
func TestKeepAlive(t *testing.T) {
	t.Parallel()
	for setting, want := range map[string]time.Duration{"": 15 * time.Second, "server: {stream_keepalive: 0s}\n": 0,
		"server: {stream_keepalive: 250ms}\n": 250 * time.Millisecond} {
		r := buildRouter(t, setting+simModels, nil, Options{})
		res, err := openStreamOn(t, NewPipeline(NewHolder(r), PipelineOptions{}), chatBody("m", "hi", true))
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Stream.KeepAlive(); got != want {
			t.Errorf("%q: KeepAlive() = %v, want %v", setting, got, want)
		}
		res.Close()
	}
}

// TestStreamUsageWithBlanks: a server that writes JSON with blanks after its colons (as
// Python's json.dumps does) still has its usage counted, charged and kept from a client
// that did not ask for it.
func TestStreamUsageWithBlanks(t *testing.T) {
	t.Parallel()
	backend := rawSSE(t, `data: {"id": "c1", "object": "chat.completion.chunk", "usage": null, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "hi"}}]}

data: {"id": "c1", "object": "chat.completion.chunk", "usage": null, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}

data: {"id": "c1", "object": "chat.completion.chunk", "choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}}

data: [DONE]

`)
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	r := buildRouter(t, "models:\n  - {model_name: m, provider: {type: openai_compatible, base_url: "+backend.URL+"/v1}}\n", nil, Options{Metrics: metrics})
	res, err := openStreamOn(t, NewPipeline(NewHolder(r), PipelineOptions{}), chatBody("m", "hi", true))
	if err != nil {
		t.Fatal(err)
	}
	chunks := drain(t, res.Stream)
	res.Close()
	if len(chunks) != 2 {
		t.Errorf("%d chunks reached the client, want 2 (the usage chunk kept back): %q", len(chunks), chunks)
	}
	if u := res.Stream.Usage(); u == nil || !reflect.DeepEqual(*u, openai.Usage{PromptTokens: 3, CompletionTokens: 1, TotalTokens: 4}) {
		t.Errorf("Usage() = %+v, want 3+1", u)
	}
	if got := testutil.ToFloat64(metrics.Tokens.WithLabelValues("m", "prompt")); got != 3 {
		t.Errorf("tokens_total{m,prompt} = %v, want 3", got)
	}
}

func TestCarriesUsage(t *testing.T) {
	t.Parallel()
	for data, want := range map[string]bool{
		`{"choices":[],"usage":{"prompt_tokens":1}}`:                  true,
		`{"choices": [], "usage": {"prompt_tokens": 1}}`:              true,
		"{\"usage\"\t:\n{}}":                                          true,
		`{"usage":null,"choices":[]}`:                                 false,
		`{"usage": null, "choices": []}`:                              false,
		`{"choices":[{"delta":{"content":"say \"usage\": {x}"}}]}`:    false,
		`{"choices":[{"delta":{"content":"usage"}}],"usage":{"a":1}}`: true,
		`{"choices":[]}`:                                              false,
		`{"usage"`:                                                    false,
		`{"usage":`:                                                   false,
		`{"usage":"text"}`:                                            false,
	} {
		if got := carriesUsage([]byte(data)); got != want {
			t.Errorf("carriesUsage(%s) = %v, want %v", data, got, want)
		}
	}
}

func TestWithoutUsage(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{`{"id":"c","choices":[{"index":0,"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"total_tokens":2}}`,
			`{"id":"c","choices":[{"index":0,"finish_reason":"stop"}]}`},
		{`{"usage":{"total_tokens":2},"id":"c","choices":[]}`, `{"id":"c","choices":[]}`},
		{`{ "usage" : {"total_tokens":2} , "id": "c" }`, `{ "id": "c" }`},
		{`{"id":"c", "usage": {"total_tokens":2}, "choices":[]}`, `{"id":"c", "choices":[]}`},
		{`{"usage":{"total_tokens":2}}`, `{}`},
		{`{"id":"c","choices":[{"delta":{"content":"\"usage\":{}"}}]}`, `{"id":"c","choices":[{"delta":{"content":"\"usage\":{}"}}]}`},
		{`{"id":"c","choices":[{"usage":{"x":1}}]}`, `{"id":"c","choices":[{"usage":{"x":1}}]}`},
		{`{"id":"c","usage":null}`, `{"id":"c","usage":null}`},
		// A name given twice: a parser keeps the last.
		{`{"":[1],"usage":[1],"usage":{}}`, `{"":[1]}`},
		{`{"usage":{},"usage":[1]}`, `{"usage":[1]}`},
		{`{"usage":{"a":1}, "usage":null, "id":"c"}`, `{ "usage":null, "id":"c"}`},
		{`{"id":"c","usage":{"a":1},"usage":{"b":2}}`, `{"id":"c"}`},
		{`not json`, `not json`},
	} {
		if got := string(WithoutUsage([]byte(tt.in))); got != tt.want {
			t.Errorf("WithoutUsage(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzWithoutUsage: for any JSON object, the result is a JSON object without a top-level
// usage member, and with every other member unchanged.
func FuzzWithoutUsage(f *testing.F) {
	f.Add([]byte(`{"id":"c","choices":[],"usage":{"total_tokens":2}}`))
	f.Add([]byte(`{"usage":null,"a":1}`))
	f.Add([]byte(` { "a" : [1,2] , "usage" : { } } `))
	f.Fuzz(func(t *testing.T, in []byte) {
		var before map[string]json.RawMessage
		if json.Unmarshal(in, &before) != nil {
			return
		}
		out := WithoutUsage(in)
		var after map[string]json.RawMessage
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("WithoutUsage(%q) = %q: %v", in, out, err)
		}
		if u, ok := after["usage"]; ok && bytes.HasPrefix(bytes.TrimSpace(u), []byte("{")) {
			t.Fatalf("WithoutUsage(%q) = %q keeps the usage", in, out)
		}
		if u := bytes.TrimSpace(before["usage"]); bytes.HasPrefix(u, []byte("{")) {
			delete(before, "usage")
		}
		if len(before) != len(after) {
			t.Fatalf("WithoutUsage(%q) = %q: members %d, want %d", in, out, len(after), len(before))
		}
		for k, v := range before {
			if !bytes.Equal(bytes.TrimSpace(after[k]), bytes.TrimSpace(v)) {
				t.Fatalf("WithoutUsage(%q) = %q changed %s", in, out, k)
			}
		}
	})
}

// TestHeldTextGoesOutBeforeTheError: text held back because it might begin a credential
// reaches the client when the stream fails before completing one, ahead of the error.
func TestHeldTextGoesOutBeforeTheError(t *testing.T) {
	t.Parallel()
	cut := rawSSE(t, "data: "+contentChunk(0, "Hello sk-", "")+"\n\n") // no finish, no [DONE]
	r := buildRouter(t, "models:\n  - model_name: cut\n    provider: {type: openai_compatible, base_url: "+cut.URL+"/v1, api_key: env.FAKE_KEY}\n", fakeEnv, Options{})
	res, err := openStreamOn(t, NewPipeline(NewHolder(r), PipelineOptions{}), chatBody("cut", "hi", true))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var text strings.Builder
	for {
		data, err := res.Stream.Next()
		if err != nil {
			if e := apiErr(t, err); e.Status != http.StatusBadGateway {
				t.Errorf("the cut stream's error: %d %q", e.Status, e.Message)
			}
			break
		}
		var c struct {
			Choices []struct {
				Delta struct{ Content string } `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		for _, ch := range c.Choices {
			text.WriteString(ch.Delta.Content)
		}
	}
	if text.String() != "Hello sk-" {
		t.Errorf("the client joined %q before the error, want %q", text.String(), "Hello sk-")
	}
	if _, err := res.Stream.Next(); err == nil {
		t.Error("a second Next after the error returned no error")
	}
}
