package router

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// burstBackend streams each of bursts in one write, and waits for a value on next before
// each burst after the first.
func burstBackend(t *testing.T, bursts []string) (url string, next chan struct{}) {
	t.Helper()
	next = make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for i, b := range bursts {
			if i > 0 {
				select {
				case <-next:
				case <-r.Context().Done():
					return
				}
			}
			_, _ = io.WriteString(w, b)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, next
}

// sseEvent is data as one SSE event; textEvent is one of a content chunk of s.
func sseEvent(data string) string { return "data: " + data + "\n\n" }
func textEvent(s string) string   { return sseEvent(contentChunk(0, s, "")) }

var (
	finishEvent = sseEvent(`{"id":"c","object":"chat.completion.chunk","created":7,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
	usageEvent  = sseEvent(`{"id":"c","object":"chat.completion.chunk","created":7,"model":"m","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`)
	doneEvent   = sseEvent("[DONE]")
	// cutB is the content chunk "b", which the tests cut in two.
	cutB = textEvent("b")
)

// TestStreamBuffered: Buffered is true exactly when Next returns without waiting for the
// model server, and it never waits itself, even when the events it reads ahead are not the
// client's (a usage chunk the client did not ask for, text the redaction holds back).
func TestStreamBuffered(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		key    bool // the model has an API key: the router redacts it from the answer
		bursts []string
		// want is, for each chunk the client is sent, its content and Buffered after it;
		// "|" marks where the test lets the next burst go.
		want string
	}{
		{"events that arrive together", false,
			[]string{textEvent("a") + textEvent("b") + textEvent("c"), finishEvent + doneEvent},
			"a:true b:true c:false | :true"},
		{"one event a write", false,
			[]string{textEvent("a"), textEvent("b"), finishEvent, doneEvent},
			"a:false | b:false | :false |"},
		{"the next event cut", false,
			[]string{textEvent("a") + cutB[:30], cutB[30:] + finishEvent + doneEvent},
			"a:false | b:true :true"},
		{"a usage chunk the client did not ask for", false,
			[]string{textEvent("a") + finishEvent + usageEvent, doneEvent},
			"a:true :false |"},
		// The redaction holds the end of the text back until it knows no credential starts
		// there, so its chunks carry the text later than the model sent it.
		{"text the redaction holds back", true,
			[]string{textEvent("a") + textEvent("sk-f"), textEvent("ish") + finishEvent + doneEvent},
			":true :false | ask-fi:true sh:true :true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			url, next := burstBackend(t, tt.bursts)
			key := ""
			if tt.key {
				key = ", api_key: env.FAKE_KEY"
			}
			r := buildRouter(t, fmt.Sprintf("models:\n  - model_name: m\n    provider: {type: openai_compatible, base_url: %s/v1%s}\n", url, key), fakeEnv, Options{})
			res, err := openStreamOn(t, NewPipeline(NewHolder(r), PipelineOptions{}), chatBody("m", "hi", true))
			if err != nil {
				t.Fatal(err)
			}
			defer res.Close()
			var got []string
			for {
				var data []byte
				var err error
				within(t, "Next", func() { data, err = res.Stream.Next() })
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				content := contentOf(t, data)
				var buffered bool
				within(t, "Buffered after "+content, func() { buffered = res.Stream.Buffered() })
				got = append(got, fmt.Sprintf("%s:%v", content, buffered))
				if !buffered {
					got = append(got, "|")
					next <- struct{}{}
				}
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("chunks and Buffered after each = %q, want %q", g, tt.want)
			}
		})
	}
}

// within runs f, and fails the test if it waits for the model server: the backend sends
// nothing more until the test lets it.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s waited for the model server", what)
	}
}

// contentOf returns a chunk's delta content.
func contentOf(t *testing.T, data []byte) string {
	t.Helper()
	var c openai.ChatChunk
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatalf("chunk %s: %v", data, err)
	}
	var b strings.Builder
	for _, ch := range c.Choices {
		b.WriteString(ch.Delta.Content)
	}
	return b.String()
}
