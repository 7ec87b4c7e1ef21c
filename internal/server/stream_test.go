package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingListener counts the writes made on the connections it accepts.
type countingListener struct {
	net.Listener
	writes atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, writes: &l.writes}, nil
}

type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c *countingConn) Write(b []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(b)
}

// TestEventsThatArriveTogetherLeaveTogether: events the model server sent in one write reach
// the client in one write, headers included, and none of them waits for the events after
// them: the client reads all four before the backend sends the rest.
func TestEventsThatArriveTogetherLeaveTogether(t *testing.T) {
	t.Parallel()
	event := func(delta string) string {
		return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
	}
	release := make(chan struct{})
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, event(`{"role":"assistant"}`)+event(`{"content":"a"}`)+event(`{"content":"b"}`)+event(`{"content":"c"}`))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		_, _ = io.WriteString(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(backend.Close)
	f := newFixture(t, "models:\n  - model_name: m\n    provider: {type: openai_compatible, base_url: "+backend.URL+"/v1}\n", nil)
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &countingListener{Listener: raw}
	addr := serveListener(t, f.infHandler, f.holder.Current().Config().Server, false, ln)

	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`
	c, br := dial(t, addr, fmt.Sprintf("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
	_ = c.SetReadDeadline(time.Now().Add(waitLimit))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	events := bufio.NewReader(resp.Body)
	readEvents := func(n int) []string {
		var got []string
		for len(got) < n {
			line, err := events.ReadString('\n')
			if err != nil {
				t.Fatalf("after %d events: %v", len(got), err)
			}
			if strings.HasPrefix(line, "data: ") {
				got = append(got, strings.TrimSpace(line))
			}
		}
		return got
	}
	if got := readEvents(4); !strings.Contains(got[3], `"content":"c"`) {
		t.Fatalf("the fourth event is %s, want the content c", got[3])
	}
	if n := ln.writes.Load(); n != 1 {
		t.Errorf("the headers and the four events that arrived together took %d writes, want 1", n)
	}
	close(release)
	if got := readEvents(2); got[1] != "data: [DONE]" {
		t.Errorf("the stream ends with %s, want data: [DONE]", got[1])
	}
}
