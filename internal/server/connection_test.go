package server

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/semantic-router/semantic-router/internal/config"
)

// shortLimits sets every server limit far below the tests' waitLimit.
const shortLimits = `
server: {read_header_timeout: 200ms, read_timeout: 300ms, idle_timeout: 300ms, write_timeout: 1s}
`

// TestSlowAndIdleConnectionsAreClosed: on each of the three listeners, a client that
// trickles a body and a keep-alive connection left idle are closed by the server.
func TestSlowAndIdleConnectionsAreClosed(t *testing.T) {
	t.Parallel()
	f := newFixture(t, shortLimits+simModels, nil)
	limits := f.holder.Current().Config().Server
	inference, management := f.real(t)
	metrics := listen(t, NewMetrics(promhttp.HandlerFor(f.reg, promhttp.HandlerOpts{})), limits)
	for _, tt := range []struct {
		name, addr, slow, idle string
	}{
		{"inference", inference, "POST /v1/chat/completions", "GET /v1/models"},
		{"management", management, "POST /api/v1/classify", "GET /health"},
		{"metrics", metrics, "GET /metrics", "GET /metrics"},
	} {
		t.Run(tt.name+" slow body", func(t *testing.T) {
			t.Parallel()
			// 10 of 100 bytes, and then nothing.
			c, br := dial(t, tt.addr, tt.slow+" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"model\":")
			waitClosed(t, c, br)
		})
		t.Run(tt.name+" idle keep-alive", func(t *testing.T) {
			t.Parallel()
			c, br := dial(t, tt.addr, tt.idle+" HTTP/1.1\r\nHost: x\r\n\r\n")
			if r := readReply(t, c, br); r.status != 200 || r.close {
				t.Fatalf("first request: %d %v", r.status, r.header)
			}
			waitClosed(t, c, br)
		})
	}
}

// TestSlowBodyGets408: the chat handler tells a client whose body stalled what happened.
func TestSlowBodyGets408(t *testing.T) {
	t.Parallel()
	f := newFixture(t, shortLimits+simModels, nil)
	inference, _ := f.real(t)
	c, br := dial(t, inference, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"model\":")
	r := readReply(t, c, br)
	want := `{"error":{"message":"the request body did not arrive in time (server.read_timeout)","type":"invalid_request_error","param":null,"code":"request_timeout"}}`
	if r.status != 408 || strings.TrimSpace(r.body) != want || !r.close {
		t.Errorf("got %d %v %s\nwant 408, Connection: close, %s", r.status, r.header, r.body, want)
	}
	waitClosed(t, c, br)
}

// TestAmbiguousFramingClosesTheConnection: a request with both Content-Length and
// Transfer-Encoding is served by its chunked body (RFC 9112 §6.1), and the connection is
// closed after the answer; the same request without Content-Length keeps it open.
func TestAmbiguousFramingClosesTheConnection(t *testing.T) {
	t.Parallel()
	f := newFixture(t, simModels, nil)
	inference, _ := f.real(t)
	body := chat("general", false)
	chunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(body), body)
	for _, tt := range []struct {
		name, headers string
		closed        bool
	}{
		{"chunked", "Transfer-Encoding: chunked\r\n", false},
		{"content-length and chunked", "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n", true},
		{"chunked and content-length, any case", "transfer-encoding: chunked\r\nCONTENT-LENGTH: 4\r\n", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, br := dial(t, inference, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+tt.headers+"\r\n"+chunked)
			r := readReply(t, c, br)
			if r.status != 200 || !strings.Contains(r.body, `"chat.completion"`) {
				t.Fatalf("not served by its chunked body: %d %s", r.status, r.body)
			}
			if got := r.close; got != tt.closed {
				t.Fatalf("Connection: close = %v, want %v", got, tt.closed)
			}
			if !tt.closed {
				// Still open: a second request is answered.
				if _, err := fmt.Fprint(c, "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
					t.Fatal(err)
				}
				if r := readReply(t, c, br); r.status != 200 {
					t.Fatalf("second request: %d", r.status)
				}
				return
			}
			waitClosed(t, c, br)
		})
	}
}

func TestFramingScanner(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, in string
		want     bool
	}{
		{"both", "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", true},
		{"bare newlines", "POST / HTTP/1.1\nTransfer-Encoding: chunked\ncontent-length: 3\n\n", true},
		{"one only", "POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcPOST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", false},
		{"second request", "GET / HTTP/1.1\r\nHost: x\r\n\r\nPOST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", true},
		{"folded line is not a field", "POST / HTTP/1.1\r\nX: a\r\n Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", false},
		{"block not ended", "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Fed at once and byte by byte, the answer is the same.
			var whole, bytewise framingScanner
			got := whole.feed([]byte(tt.in))
			split := false
			for i := range len(tt.in) {
				split = bytewise.feed([]byte{tt.in[i]}) || split
			}
			if got != tt.want || split != tt.want {
				t.Errorf("whole %v, byte by byte %v, want %v", got, split, tt.want)
			}
		})
	}
}

// FuzzFramingScanner checks the connection framing watch against a plain line-by-line
// reading of the same bytes, however the reads split them.
func FuzzFramingScanner(f *testing.F) {
	f.Add([]byte("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"), uint8(7))
	f.Add([]byte("GET / HTTP/1.1\nHost: x\n\nPOST / HTTP/1.1\ntransfer-encoding: chunked\r\nCONTENT-LENGTH:1\n\r\n"), uint8(1))
	f.Fuzz(func(t *testing.T, in []byte, chunk uint8) {
		want := false
		cl, te := false, false
		lines := strings.Split(string(in), "\n")
		for _, line := range lines[:len(lines)-1] { // the last is unfinished
			l := asciiLower(line)
			switch {
			case line == "" || line == "\r":
				want = want || cl && te
				cl, te = false, false
			case strings.HasPrefix(l, "content-length:"):
				cl = true
			case strings.HasPrefix(l, "transfer-encoding:"):
				te = true
			}
		}
		var s framingScanner
		got := false
		n := int(chunk%16) + 1
		for i := 0; i < len(in); i += n {
			got = s.feed(in[i:min(i+n, len(in))]) || got
		}
		if got != want {
			t.Fatalf("scanner %v, line reading %v, for %q", got, want, in)
		}
	})
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// TestWriteTimeout: a client that does not read a plain answer is cut off at write_timeout,
// while a stream that outlasts write_timeout is not.
func TestWriteTimeout(t *testing.T) {
	t.Parallel()
	limits := config.Server{ReadHeaderTimeout: config.Duration(time.Second),
		ServerLimits: config.ServerLimits{ReadTimeout: config.Duration(time.Second), WriteTimeout: config.Duration(200 * time.Millisecond),
			IdleTimeout: config.Duration(time.Second), MaxHeaderBytes: config.DefaultMaxHeaderBytes}}
	plainErr := make(chan error, 1)
	addr := listen(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stream" {
			w.Header().Set("Content-Type", "text/event-stream")
			rc := http.NewResponseController(w)
			for i := range 3 {
				if i > 0 {
					time.Sleep(200 * time.Millisecond) // the model thinking, as long as write_timeout each time
				}
				_, _ = fmt.Fprintf(w, "data: %d\n\n", i)
				_ = rc.Flush()
			}
			return
		}
		// Far more than the socket buffers hold: the write blocks on a client that does not read.
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		w.Header().Set("Content-Type", "application/json")
		for range 1024 {
			if _, err := w.Write(chunk); err != nil {
				plainErr <- err
				return
			}
		}
		plainErr <- nil
	}), limits)

	c, br := dial(t, addr, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
	if r := readReply(t, c, br); r.status != 200 || r.body != "data: 0\n\ndata: 1\n\ndata: 2\n\n" {
		t.Errorf("the stream was cut: %d %q", r.status, r.body)
	}

	dial(t, addr, "GET /plain HTTP/1.1\r\nHost: x\r\n\r\n") // and never read
	select {
	case err := <-plainErr:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("writing to a client that does not read: %v, want a deadline error", err)
		}
	case <-time.After(waitLimit):
		t.Fatalf("the write to a client that does not read was not cut off within %s", waitLimit)
	}
}

// BenchmarkFramingScanner is the cost of watching a connection's framing, per byte read: a
// request's headers and a 64 KiB body of pretty-printed JSON (one line per 32 bytes).
func BenchmarkFramingScanner(b *testing.B) {
	in := []byte("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 65536\r\n\r\n" +
		strings.Repeat(`  "content": "some words here",`+"\n", 2048))
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		var s framingScanner
		for i := 0; i < len(in); i += 4096 {
			s.feed(in[i:min(i+4096, len(in))])
		}
	}
}
