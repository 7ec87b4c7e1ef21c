package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/semantic-router/semantic-router/internal/logtest"
)

// TestPanicIsRecoveredWithTheRequestID: a panicking handler gives its client a 500 envelope
// naming the request id, the log line carries the same id, and the server goes on serving.
func TestPanicIsRecoveredWithTheRequestID(t *testing.T) {
	t.Parallel()
	logs := &logtest.Buffer{}
	log := slog.New(slog.NewJSONHandler(logs, nil))
	h := withRequestContext(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/boom" {
			var m map[string]int
			if r.Method == http.MethodGet {
				m = nil // a nil map write: a real runtime panic, as a bug would raise
			}
			m["x"]++ //nolint:staticcheck // the panic is the point of the test
		}
		_, _ = io.WriteString(w, "fine")
	}), log, nil, "inference")
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	req, _ := http.NewRequest("GET", srv.URL+"/boom", nil)
	req.Header.Set(HeaderRequestID, "req-panic-1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"error":{"message":"internal error; the request id is req-panic-1","type":"server_error","param":null,"code":null}}` + "\n"
	if resp.StatusCode != 500 || string(body) != want {
		t.Errorf("panic answered %d %s, want 500 %s", resp.StatusCode, body, want)
	}
	if l := logs.String(); !strings.Contains(l, `"msg":"panic serving request","request_id":"req-panic-1","panic":"assignment to entry in nil map"`) {
		t.Errorf("panic log line lacks the request id:\n%s", l)
	}
	if r := do(t, "GET", srv.URL+"/after", "", ""); r.status != 200 || r.body != "fine" {
		t.Errorf("after the panic: %d %s", r.status, r.body)
	}
}

func TestStreamKeepAlive(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		keepalive string
		wantMin   int
	}{
		{"comments while the upstream is silent", "100ms", 2},
		{"off", "0s", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, fmt.Sprintf(`
server: {stream_keepalive: %s}
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: %s/v1}
`, tt.keepalive, pausingBackend(t, 0, 450*time.Millisecond, 200, false)), nil)
			r := do(t, "POST", f.inference+"/v1/chat/completions", "", chat("m", true))
			var events []string
			keepalives := 0
			for _, ev := range strings.Split(strings.TrimSpace(r.body), "\n\n") {
				if ev == ": keep-alive" {
					keepalives++
					continue
				}
				events = append(events, ev)
			}
			if r.status != 200 || len(events) != 3 || !strings.Contains(events[0], `"e0"`) || !strings.Contains(events[1], `"e1"`) || events[2] != "data: [DONE]" {
				t.Fatalf("events out of order or missing: %d %q", r.status, r.body)
			}
			if keepalives < tt.wantMin || (tt.wantMin == 0 && keepalives > 0) {
				t.Errorf("%d keep-alive comments, want at least %d (none when off): %q", keepalives, tt.wantMin, r.body)
			}
			if i := strings.Index(r.body, ": keep-alive"); tt.wantMin > 0 && (i < strings.Index(r.body, `"e0"`) || i > strings.Index(r.body, `"e1"`)) {
				t.Errorf("keep-alive outside the silence: %q", r.body)
			}
		})
	}
}

// pausingBackend streams two events and [DONE], waiting start before the first (the 200
// headers flushed before that wait when headersFirst) and gap between the two; a status
// other than 200 is sent with an error body after start instead.
func pausingBackend(t *testing.T, start, gap time.Duration, status int, headersFirst bool) string {
	t.Helper()
	wait := func(r *http.Request, d time.Duration) bool { // a long prompt, a queue, a model thinking
		select {
		case <-time.After(d):
			return true
		case <-r.Context().Done():
			return false
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		if headersFirst {
			w.Header().Set("Content-Type", "text/event-stream")
			w.(http.Flusher).Flush()
		}
		if !wait(r, start) {
			return
		}
		if status != http.StatusOK {
			http.Error(w, `{"error":{"message":"the model crashed"}}`, status)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 2 {
			if i == 1 && !wait(r, gap) {
				return
			}
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"e%d\"}}]}\n\n", i)
			w.(http.Flusher).Flush()
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestKeepAliveWhileTheModelIsSlowToStart: a model that takes longer than stream_keepalive to
// send its first event gets the stream's status, headers and keep-alive comments out while
// it starts, so that a proxy's idle timeout does not cut it; a failure after that reaches
// the client as an error event, and one before it keeps its status.
func TestKeepAliveWhileTheModelIsSlowToStart(t *testing.T) {
	t.Parallel()
	events := `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"e0"}}]}` + "\n\n" +
		`data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"e1"}}]}` + "\n\n" +
		"data: [DONE]\n\n"
	for _, tt := range []struct {
		name      string
		models    func(t *testing.T) string
		status    int
		comments  bool // keep-alive comments come first
		body      string
		selected  string
		streamErr string // the access log line's error
	}{
		{
			name: "headers sent late",
			models: func(t *testing.T) string {
				return "  - model_name: m\n    provider: {type: openai_compatible, base_url: " + pausingBackend(t, 450*time.Millisecond, 0, 200, false) + "/v1}\n"
			},
			status: 200, comments: true, body: events, selected: "m",
		},
		{
			name: "headers sent early",
			models: func(t *testing.T) string {
				return "  - model_name: m\n    provider: {type: openai_compatible, base_url: " + pausingBackend(t, 450*time.Millisecond, 0, 200, true) + "/v1}\n"
			},
			status: 200, comments: true, body: events, selected: "m",
		},
		{
			name: "a failure after a comment is an event",
			models: func(t *testing.T) string {
				return "  - model_name: m\n    provider: {type: openai_compatible, base_url: " + pausingBackend(t, 450*time.Millisecond, 0, 500, false) + "/v1}\n"
			},
			status: 200, comments: true, selected: "m",
			body:      `data: {"error":{"message":"upstream model server for model \"m\" answered 500 Internal Server Error (request id ka-1)","type":"upstream_error","param":null,"code":"upstream_error"}}` + "\n\n",
			streamErr: `"selected_model":"m","stream":true,"error":"upstream model server for model \"m\" answered 500 Internal Server Error (request id ka-1)"}`,
		},
		{
			name: "a failure before any comment keeps its status",
			models: func(t *testing.T) string {
				return "  - model_name: m\n    provider: {type: openai_compatible, base_url: " + pausingBackend(t, 0, 0, 500, false) + "/v1}\n"
			},
			status: 502, selected: "m",
			body: `{"error":{"message":"upstream model server for model \"m\" answered 500 Internal Server Error (request id ka-1)","type":"upstream_error","param":null,"code":"upstream_error"}}` + "\n",
		},
		{
			name: "a fallback after a comment",
			models: func(t *testing.T) string {
				return "  - model_name: m\n    first_token_timeout: 350ms\n    fallbacks: [b]\n" +
					"    provider: {type: openai_compatible, base_url: " + pausingBackend(t, 5*time.Second, 0, 200, false) + "/v1}\n" +
					"  - model_name: b\n    provider: {type: openai_compatible, base_url: " + pausingBackend(t, 0, 0, 200, false) + "/v1}\n"
			},
			// The headers left before the fallback: they name the model as routed.
			status: 200, comments: true, body: events, selected: "m",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, "server: {stream_keepalive: 100ms}\nmodels:\n"+tt.models(t), nil)
			req, err := http.NewRequest("POST", f.inference+"/v1/chat/completions", strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set(HeaderRequestID, "ka-1")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			body := string(b)
			comments := 0
			for strings.HasPrefix(body, ": keep-alive\n\n") {
				body = strings.TrimPrefix(body, ": keep-alive\n\n")
				comments++
			}
			if resp.StatusCode != tt.status || body != tt.body {
				t.Errorf("got %d, after %d comments:\n%s\nwant %d:\n%s", resp.StatusCode, comments, body, tt.status, tt.body)
			}
			if tt.comments && comments < 2 || !tt.comments && comments > 0 {
				t.Errorf("%d keep-alive comments before the answer, want them: %v", comments, tt.comments)
			}
			if got := resp.Header.Get("X-Vsr-Selected-Model"); got != tt.selected {
				t.Errorf("x-vsr-selected-model %q, want %q", got, tt.selected)
			}
			if tt.status == 200 && resp.Header.Get("Content-Type") != "text/event-stream" {
				t.Errorf("content type %q", resp.Header.Get("Content-Type"))
			}
			if tt.streamErr != "" && !strings.Contains(f.logs.String(), tt.streamErr) {
				t.Errorf("the access log does not name the failure %s:\n%s", tt.streamErr, f.logs.String())
			}
		})
	}
}

// TestUsageReachesOnlyClientsThatAskForIt: a backend that puts the usage on its last chunk
// with choices (as some servers do once asked for it, and the router always asks) gives it
// to a client that asked for it and to no other.
func TestUsageReachesOnlyClientsThatAskForIt(t *testing.T) {
	t.Parallel()
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"}}]}`+"\n\n"+
			`data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}}`+"\n\n"+
			"data: [DONE]\n\n")
	}))
	t.Cleanup(be.Close)
	f := newFixture(t, "models:\n  - model_name: m\n    provider: {type: openai_compatible, base_url: "+be.URL+"/v1}\n", nil)
	last := func(asked bool) string {
		body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`
		if asked {
			body = chat("m", true) // with stream_options.include_usage
		}
		r := do(t, "POST", f.inference+"/v1/chat/completions", "", body)
		events := strings.Split(strings.TrimSpace(r.body), "\n\n")
		if r.status != 200 || len(events) != 3 || events[2] != "data: [DONE]" {
			t.Fatalf("asked %v: %d %q", asked, r.status, r.body)
		}
		return events[1]
	}
	if got, want := last(false), `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`; got != want {
		t.Errorf("not asked for the usage:\n%s\nwant\n%s", got, want)
	}
	if got := last(true); !strings.Contains(got, `"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}`) {
		t.Errorf("asked for the usage: %s", got)
	}
}

// TestEscapedKeysDoNotLeave: a backend that writes the key it was sent with JSON escapes,
// which a client's decoder reads back as the key, has it redacted in a whole answer and in
// a stream event alike.
func TestEscapedKeysDoNotLeave(t *testing.T) {
	t.Parallel()
	const key = "sk-LEAKCHECK-0123456789"
	escaped := `sk-LEAKCHECK-012345678\u0039` // the last character escaped
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"stream":true`) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"k=`+escaped+`"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"k=`+escaped+`"},"finish_reason":"stop"}]}`)
	}))
	t.Cleanup(be.Close)
	f := newFixture(t, "models:\n  - model_name: m\n    provider: {type: openai_compatible, base_url: "+be.URL+"/v1, api_key: env.KEY}\n", map[string]string{"KEY": key})
	for _, stream := range []bool{false, true} {
		r := do(t, "POST", f.inference+"/v1/chat/completions", "", chat("m", stream))
		if r.status != 200 || strings.Contains(r.body, escaped) || !strings.Contains(r.body, `"k=[redacted]"`) {
			t.Errorf("stream %v: %d %s", stream, r.status, r.body)
		}
	}
}

// TestMultiLineEventsReachTheSDK: a backend may write one event as several data lines, which
// SSE joins with "\n"; the client still gets every event as data it reads, whether the router
// passes the chunk on as it came or rewrites it (it holds a key, so it redacts every event).
func TestMultiLineEventsReachTheSDK(t *testing.T) {
	t.Parallel()
	event := func(lines ...string) string { return "data: " + strings.Join(lines, "\ndata: ") + "\n\n" }
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, event(`{`, `  "id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",`,
			`  "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hello"}, "finish_reason": null}]`, `}`)+
			event(`{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0, "delta": {"content": ", world"}}]}`)+
			event(`{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",`,
				`  "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],`,
				`  "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}`, `}`)+
			"data: [DONE]\n\n")
	}))
	t.Cleanup(be.Close)
	tests := []struct {
		name, provider string
		env            map[string]string
		chunks         int
	}{
		{"relayed as it came", "{type: openai_compatible, base_url: " + be.URL + "/v1}", nil, 3},
		// The redaction holds ", world" (its letters occur in the key) until the choice
		// finishes, and sends it in a chunk of its own before the finish.
		{"rewritten for redaction", "{type: openai_compatible, base_url: " + be.URL + "/v1, api_key: env.KEY}", map[string]string{"KEY": "sk-multiline-0123456789"}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, "models:\n  - model_name: m\n    provider: "+tt.provider+"\n", tt.env)
			client := sdk.NewClient(option.WithBaseURL(f.inference+"/v1/"), option.WithAPIKey("client-key"), option.WithMaxRetries(0))
			stream := client.Chat.Completions.NewStreaming(context.Background(), sdk.ChatCompletionNewParams{Model: "m",
				Messages:      []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("hi")},
				StreamOptions: sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)}})
			acc := sdk.ChatCompletionAccumulator{}
			chunks := 0
			for stream.Next() {
				chunks++
				acc.AddChunk(stream.Current())
			}
			if err := stream.Err(); err != nil {
				t.Fatalf("after %d chunks: %v", chunks, err)
			}
			if chunks != tt.chunks || len(acc.Choices) != 1 || acc.Choices[0].Message.Content != "Hello, world" ||
				acc.Choices[0].FinishReason != "stop" || acc.Usage.TotalTokens != 5 {
				t.Errorf("%d chunks add up to %+v, usage %+v", chunks, acc.Choices, acc.Usage)
			}
			r := do(t, "POST", f.inference+"/v1/chat/completions", "", chat("m", true))
			for line := range strings.SplitSeq(r.body, "\n") {
				if line != "" && !strings.HasPrefix(line, "data: ") {
					t.Fatalf("a line that is no data line: %q in\n%s", line, r.body)
				}
			}
		})
	}
}
