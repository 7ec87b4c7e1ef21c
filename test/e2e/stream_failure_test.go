package e2e

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestStreamCutUpstreamEndsWithAnErrorEvent: once bytes have reached the client the status is
// fixed, so a backend that dies mid-stream must turn into an OpenAI error event and the end of
// the stream, without [DONE] and without a hang.
func TestStreamCutUpstreamEndsWithAnErrorEvent(t *testing.T) {
	t.Parallel()
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 2 {
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"part%d \"}}]}\n\n", i)
			w.(http.Flusher).Flush()
		}
		_, _ = fmt.Fprint(w, "data: {\"id\":\"c\",\"obj") // half an event, then the connection drops
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}))
	t.Cleanup(be.Close)
	r := startRouter(t, compatConfig(be.URL, ""))

	resp, err := http.Post(r.Inference+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"chat","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var events []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			events = append(events, line)
		}
	}
	if len(events) != 3 || !strings.Contains(events[0], "part0") || !strings.Contains(events[1], "part1") {
		t.Fatalf("events: %q", events)
	}
	id := resp.Header.Get("X-Request-Id")
	want := `data: {"error":{"message":"upstream model server for model \"chat\" cut its answer short (request id ` + id + `)","type":"upstream_error","param":null,"code":"upstream_error"}}`
	if events[2] != want {
		t.Errorf("last event\n got %s\nwant %s", events[2], want)
	}
	// The failure is logged with the request at warning level, and its cause with the id.
	if line := logLine(r, id, "upstream failure"); !strings.Contains(line, "the stream of "+be.URL+"/v1 was cut short after 2 events (unexpected EOF)") {
		t.Errorf("the log line lacks the cause: %s", line)
	}
	r.Stop()
	if !strings.Contains(r.logs.String(), `"level":"WARN","msg":"request"`) {
		t.Errorf("the cut stream is not in the access log:\n%s", r.logs)
	}
}
