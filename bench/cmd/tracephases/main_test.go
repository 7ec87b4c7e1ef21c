package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"runtime/trace"
	"strconv"
	"strings"
	"testing"
	"time"

	xtrace "golang.org/x/exp/trace"
)

// The reverse proxy's pattern: the request's headers and body go upstream in two writes, a
// background read starts on the client connection while the upstream answers, and an
// upstream read that finds nothing (EAGAIN) follows the one that brought the answer.
func TestCut(t *testing.T) {
	us := func(n int) xtrace.Time { return xtrace.Time(n * 1000) }
	calls := []call{
		{us(0), clientRead, false}, {us(1), clientRead, true}, // nothing yet
		{us(100), clientRead, false}, {us(102), clientRead, true}, // the request
		{us(130), upstreamWrite, false}, {us(140), upstreamWrite, true},
		{us(141), upstreamWrite, false}, {us(150), upstreamWrite, true},
		{us(152), clientRead, false}, // the background read
		{us(300), upstreamRead, false}, {us(303), upstreamRead, true},
		{us(310), upstreamRead, false}, {us(311), upstreamRead, true}, // EAGAIN
		{us(320), clientWrite, false}, {us(330), clientWrite, true},
		{us(339), clientRead, true},                               // the background read ends
		{us(345), clientRead, false}, {us(346), clientRead, true}, // the next request
		{us(360), upstreamWrite, false}, {us(365), upstreamWrite, true},
		{us(500), upstreamRead, false}, {us(505), upstreamRead, true},
		{us(507), clientWrite, false}, {us(520), clientWrite, true},
	}
	marks := []mark{ // out of order, as a caller may collect them
		{us(152), goStarted},   // the background read, while the upstream answers
		{us(5), procStarted},   // before the first request: in no phase
		{us(110), procStarted}, // while the request is read
		{us(120), goWoken},
		{us(146), goWoken},
		{us(315), goWoken},     // the answer
		{us(340), procStarted}, // after
		{us(346), goWoken},     // the second request's phase, from the read's return
		{us(507), goWoken},     // the second answer's write starts: in no phase
	}
	p := cut(calls, marks)
	want := Phases{
		Request:          []time.Duration{28 * time.Microsecond, 14 * time.Microsecond},
		Upstream:         []time.Duration{181 * time.Microsecond, 145 * time.Microsecond},
		Answer:           []time.Duration{9 * time.Microsecond, 2 * time.Microsecond},
		After:            []time.Duration{15 * time.Microsecond},
		RequestHandoffs:  Handoffs{ProcsStarted: 1, GoroutinesWoken: 2},
		UpstreamHandoffs: Handoffs{GoroutinesStarted: 1, GoroutinesWoken: 1},
		AnswerHandoffs:   Handoffs{GoroutinesWoken: 1},
		AfterHandoffs:    Handoffs{ProcsStarted: 1},
	}
	if fmt.Sprint(*p) != fmt.Sprint(want) {
		t.Fatalf("cut = %+v, want %+v", *p, want)
	}
	sum := p.Summary()
	if got := sum[0].PerRequest; got.ProcsStarted != 0.5 || got.GoroutinesStarted != 0 || got.GoroutinesWoken != 1 {
		t.Errorf("request phase per request = %+v, want 0.5 processors started, 0 goroutines started, 1 woken", got)
	}
	if got := sum[3].PerRequest; got.ProcsStarted != 1 {
		t.Errorf("after phase per request = %+v, want 1 processor started (one 'after' phase)", got)
	}
}

// A real reverse proxy traced while a client sends it one request at a time: every request
// is found and its phases are in order.
func TestReadFindsEveryRequestOfAProxy(t *testing.T) {
	backend := rawBackend(t)
	target, _ := url.Parse("http://" + backend)
	rp := httputil.NewSingleHostReverseProxy(target)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: rp, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	br := bufio.NewReader(conn)
	send := func() {
		body := `{"model":"m","messages":[{"role":"user","content":"hi"}]}`
		fmt.Fprintf(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	send() // the upstream connection is open before the trace starts

	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Fatal(err)
	}
	const n = 50
	for range n {
		send()
	}
	trace.Stop()

	raw := bytes.Clone(buf.Bytes())
	p, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if p.Requests() != n {
		t.Fatalf("found %d requests, want %d", p.Requests(), n)
	}
	if len(p.After) < n-1 {
		t.Errorf("found %d 'after' phases, want at least %d", len(p.After), n-1)
	}
	for i := range p.Request {
		if p.Request[i] <= 0 || p.Upstream[i] <= 0 || p.Answer[i] <= 0 {
			t.Fatalf("request %d: phases %v, %v, %v are not all positive", i, p.Request[i], p.Upstream[i], p.Answer[i])
		}
	}
	var out strings.Builder
	if err := run([]string{writeTemp(t, raw)}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), ": 50 requests\n") || !strings.Contains(out.String(), "\nafter ") {
		t.Errorf("output:\n%s", out.String())
	}
	// The proxy starts the client connection's background read once the transport has
	// read the request body to send it, after the first write upstream. (The trace is of
	// the whole test process: the runtime may start a goroutine of its own anywhere.)
	if p.UpstreamHandoffs.GoroutinesStarted < n || p.RequestHandoffs.GoroutinesStarted > n/10 {
		t.Errorf("goroutines started: %d in the request phases, %d in the upstream phases; want at most %d and at least %d",
			p.RequestHandoffs.GoroutinesStarted, p.UpstreamHandoffs.GoroutinesStarted, n/10, n)
	}
}

// rawBackend answers every request on a connection with the same small JSON completion,
// without net/http, so that none of its system calls look like the gateway's.
func rawBackend(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	answer := `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer func() { _ = c.Close() }()
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					if _, err := io.Copy(io.Discard, req.Body); err != nil {
						return
					}
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %s\r\n\r\n%s", strconv.Itoa(len(answer)), answer)
				}
			}()
		}
	}()
	return ln.Addr().String()
}

func writeTemp(t *testing.T, b []byte) string {
	t.Helper()
	path := t.TempDir() + "/r.trace"
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
