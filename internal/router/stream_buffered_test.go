package router

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
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

func chunkEvent(delta string) string {
	return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
}

var (
	finishEvent = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"
	usageEvent  = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}` + "\n\n"
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
			[]string{chunkEvent(`{"content":"a"}`) + chunkEvent(`{"content":"b"}`) + chunkEvent(`{"content":"c"}`), finishEvent + "data: [DONE]\n\n"},
			"a:true b:true c:false | :true"},
		{"one event a write", false,
			[]string{chunkEvent(`{"content":"a"}`), chunkEvent(`{"content":"b"}`), finishEvent, "data: [DONE]\n\n"},
			"a:false | b:false | :false |"},
		{"the next event cut", false,
			[]string{chunkEvent(`{"content":"a"}`) + `data: {"id":"c","object":"chat.`, `completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"b"},"finish_reason":null}]}` + "\n\n" + finishEvent + "data: [DONE]\n\n"},
			"a:false | b:true :true"},
		{"a usage chunk the client did not ask for", false,
			[]string{chunkEvent(`{"content":"a"}`) + finishEvent + usageEvent, "data: [DONE]\n\n"},
			"a:true :false |"},
		// The redaction holds the end of the text back until it knows no credential starts
		// there, so its chunks carry the text later than the model sent it.
		{"text the redaction holds back", true,
			[]string{chunkEvent(`{"content":"a"}`) + chunkEvent(`{"content":"sk-f"}`), chunkEvent(`{"content":"ish"}`) + finishEvent + "data: [DONE]\n\n"},
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
				content := contentOf(data)
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
func contentOf(data []byte) string {
	i := strings.Index(string(data), `"content":"`)
	if i < 0 {
		return ""
	}
	rest := string(data[i+len(`"content":"`):])
	return rest[:strings.IndexByte(rest, '"')]
}
