package openaicompat_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/openaicompat"
)

// TestStreamConnectionCut: a server whose connection ends in the middle of a stream (a
// crash, a restart) cut its answer short; a server whose body ends cleanly inside an event
// sent a malformed stream. The two call for different looks at the server, so the errors
// tell them apart.
func TestStreamConnectionCut(t *testing.T) {
	t.Parallel()
	const event = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n"
	tests := []struct {
		name      string
		body      string
		abort     bool // drop the connection after body instead of ending the response
		wantCause error
		want      string
	}{
		{"dropped between events", event + event, true, provider.ErrCutShort,
			"the stream of URL/v1 was cut short after 2 events (unexpected EOF): the server closed the connection before the end of its answer; check its logs for a crash or restart, or a proxy's timeout"},
		{"dropped inside an event", event + `data: {"choi`, true, provider.ErrCutShort,
			"the stream of URL/v1 was cut short after 1 event (unexpected EOF): the server closed the connection before the end of its answer; check its logs for a crash or restart, or a proxy's timeout"},
		{"dropped before the first event", "", true, provider.ErrCutShort,
			"the stream of URL/v1 was cut short after 0 events (unexpected EOF): the server closed the connection before the end of its answer; check its logs for a crash or restart, or a proxy's timeout"},
		{"ended inside an event", event + `data: {"choi`, false, provider.ErrMalformedStream,
			"URL/v1: the stream was cut in the middle of an event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				_, _ = io.WriteString(w, tt.body)
				w.(http.Flusher).Flush()
				if tt.abort {
					panic(http.ErrAbortHandler)
				}
			}))
			t.Cleanup(srv.Close)
			p, err := openaicompat.New(openaicompat.Options{Name: "m", BaseURL: srv.URL + "/v1", Model: "up"})
			if err != nil {
				t.Fatal(err)
			}
			s, err := p.ChatCompletionStream(context.Background(), &openai.ChatRequest{Model: "m", Stream: true,
				Messages: []openai.Message{{Role: "user", Content: openai.TextContent("hi")}}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for err == nil {
				_, err = s.Next()
			}
			var pe *provider.Error
			if !errors.As(err, &pe) || pe.Kind != provider.KindProtocol || !errors.Is(err, tt.wantCause) {
				t.Fatalf("end = %v (%#v), want KindProtocol wrapping %v", err, pe, tt.wantCause)
			}
			if want := strings.ReplaceAll(tt.want, "URL", srv.URL); pe.Message != want {
				t.Errorf("message:\n got %s\nwant %s", pe.Message, want)
			}
		})
	}
}
