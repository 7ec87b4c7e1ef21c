package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/semantic-router/semantic-router/internal/provider"
)

func TestExplainContext(t *testing.T) {
	t.Parallel()
	canceled := func() context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx
	}
	byCause := func() context.Context {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(&provider.DeadlineCause{Setting: "stream_idle_timeout", After: 3 * time.Second})
		return ctx
	}
	ownDeadline := func() context.Context {
		ctx, cancel := provider.WithTimeout(context.Background(), time.Nanosecond)
		t.Cleanup(cancel)
		<-ctx.Done()
		return ctx
	}
	tests := []struct {
		name string
		ctx  context.Context
		kind provider.Kind
		msg  string
	}{
		{"the client went away", canceled(), provider.KindCanceled, "the request was canceled"},
		{"a limit of the caller passed", byCause(), provider.KindTimeout, "no answer from http://b in time: stream_idle_timeout of 3s passed"},
		{"the model's timeout passed", ownDeadline(), provider.KindTimeout, "no answer from http://b in time: timeout of 1ns passed"},
		{"the context is live", context.Background(), provider.KindConnect, "calling http://b: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := ExplainContext(tt.ctx, "m", "http://b", errors.New("boom"))
			if e.Kind != tt.kind || e.Message != tt.msg {
				t.Fatalf("ExplainContext = %v %q, want %v %q", e.Kind, e.Message, tt.kind, tt.msg)
			}
		})
	}
	if e := ExplainContext(byCause(), "m", "http://b", errors.New("boom")); !errors.Is(e, context.DeadlineExceeded) {
		t.Fatalf("a caller's deadline %v does not match context.DeadlineExceeded", e)
	}
}

func TestReadBody(t *testing.T) {
	t.Parallel()
	if b, err := ReadBody(context.Background(), "m", "http://b", strings.NewReader("12345"), 5, 5); err != nil || string(b) != "12345" {
		t.Fatalf("a body at the limit: %q, %v", b, err)
	}
	_, err := ReadBody(context.Background(), "m", "http://b", strings.NewReader("123456"), 5, 5)
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.KindProtocol || !errors.Is(err, provider.ErrResponseTooLarge) ||
		pe.Message != "the answer of http://b is larger than max_response_body_bytes (5 bytes) and was refused" {
		t.Fatalf("a body over the limit: %v", err)
	}
}

// TestReadAll: whatever the announced length says (right, short, long, none, past the
// limit or past what is made room for), ReadAll reads what io.ReadAll of an io.LimitReader
// reads, through readers that hand out a byte at a time or the end with the last bytes.
func TestReadAll(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("0123456789", 3000) // 30,000 bytes: past maxPresized
	for _, tt := range []struct {
		name        string
		n           int // bytes of body sent
		size, limit int64
	}{
		{"as announced", 1200, 1200, 1 << 20},
		{"announced none", 1200, -1, 1 << 20},
		{"announced zero, sent none", 0, 0, 1 << 20},
		{"longer than announced", 1200, 100, 1 << 20},
		{"shorter than announced", 100, 1200, 1 << 20},
		{"announced past the room made", 30000, 30000, 1 << 20},
		{"announced past the room made, sent less", 20000, 30000, 1 << 20},
		{"announced past the room made, sent more", 30000, 20000, 1 << 20},
		{"announced past the limit", 30000, 30000, 25000},
		{"at the limit", 1200, 1200, 1200},
		{"past the limit", 1201, 1201, 1200},
		{"past the limit, announced within", 5000, 1000, 1200},
	} {
		for _, wrap := range []struct {
			name string
			r    func(io.Reader) io.Reader
		}{
			{"whole", func(r io.Reader) io.Reader { return r }},
			{"a byte at a time", iotest.OneByteReader},
			{"the end with the data", iotest.DataErrReader},
		} {
			want, _ := io.ReadAll(io.LimitReader(strings.NewReader(body[:tt.n]), tt.limit+1))
			got, err := ReadAll(wrap.r(strings.NewReader(body[:tt.n])), tt.size, tt.limit)
			if err != nil || string(got) != string(want) {
				t.Errorf("%s, %s: %d bytes, %v; want %d bytes", tt.name, wrap.name, len(got), err, len(want))
			}
		}
	}
	if _, err := ReadAll(iotest.ErrReader(io.ErrUnexpectedEOF), 10, 100); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a failing read: %v", err)
	}
}

// TestReadAllReadsAnAnnouncedBodyInPlace: a body of the announced length is read into the
// one buffer made for it. (Not parallel: AllocsPerRun counts the whole process's.)
func TestReadAllReadsAnAnnouncedBodyInPlace(t *testing.T) {
	body := strings.Repeat("x", 1200)
	r := strings.NewReader("")
	if n := testing.AllocsPerRun(10, func() {
		r.Reset(body)
		_, _ = ReadAll(r, int64(len(body)), 1<<20)
	}); n != 1 {
		t.Errorf("reading 1,200 announced bytes took %v allocations, want 1", n)
	}
}

// TestReadAllGrowsToAnAnnouncedBody: a body announced past the room made up front (16 KiB)
// is read into buffers that double up to its length and stop there, not into buffers that
// grow by a quarter (as append grows them) and overshoot it. (Not parallel: AllocsPerRun counts the
// whole process's.)
func TestReadAllGrowsToAnAnnouncedBody(t *testing.T) {
	body := strings.Repeat("x", 85_000)
	r := strings.NewReader("")
	var got []byte
	n := testing.AllocsPerRun(10, func() {
		r.Reset(body)
		got, _ = ReadAll(r, int64(len(body)), 1<<20)
	})
	if string(got) != body || cap(got) != len(body)+1 {
		t.Errorf("read %d bytes into a buffer of %d; want %d into %d", len(got), cap(got), len(body), len(body)+1)
	}
	// 16 KiB doubled to 64 KiB, then the announced length: four buffers.
	if n != 4 {
		t.Errorf("reading 85,000 announced bytes took %v allocations, want 4", n)
	}
}

// TestReadBodyCutShort: a server that sends its status and part of the body, then closes
// the connection, cut its answer short; it was reached, and the error says so.
func TestReadBodyCutShort(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "100")
		_, _ = w.Write([]byte(`{"id":"c1",`))
		w.(http.Flusher).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, err = ReadBody(context.Background(), "m", "http://b", resp.Body, resp.ContentLength, 0)
	var pe *provider.Error
	want := "the answer of http://b was cut short after 11 bytes (unexpected EOF): the server closed the connection before the end of its answer; check its logs for a crash or restart, or a proxy's timeout"
	if !errors.As(err, &pe) || pe.Kind != provider.KindProtocol || !errors.Is(err, provider.ErrCutShort) || pe.Message != want {
		t.Fatalf("a body cut short: %v %+v\nwant KindProtocol %q", err, pe, want)
	}
}

func TestRedirectKeepsLocationForLogs(t *testing.T) {
	t.Parallel()
	resp := &http.Response{StatusCode: http.StatusTemporaryRedirect, Header: http.Header{"Location": {"http://internal.example/v1"}}}
	e := Redirect("m", "http://b", resp)
	if strings.Contains(e.Error(), "internal.example") || !errors.Is(e, provider.ErrRedirect) {
		t.Fatalf("client-facing error %q: want no Location and provider.ErrRedirect", e)
	}
	want := `model "m": http://b answered 307 Temporary Redirect, a redirect, which the router does not follow: point base_url at the server itself: redirect not followed: 307 to "http://internal.example/v1"`
	if got := e.Detail(); got != want {
		t.Fatalf("Detail = %s\nwant     %s", got, want)
	}
}

// TestHugeResponseHeadersAreRefused: a backend whose answer's headers pass the bound is a
// protocol failure named as such, not a server that "could not be reached".
func TestHugeResponseHeadersAreRefused(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		for i := range 40 {
			w.Header().Set(fmt.Sprintf("X-Filler-%d", i), strings.Repeat("x", 8<<10))
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(srv.Close)
	tr, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.CloseIdleConnections)
	_, err = NewClient(tr).Get(srv.URL)
	if err == nil {
		t.Fatal("320 KiB of headers were read")
	}
	e := Explain("m", "http://b", err)
	if want := "the answer of http://b has headers larger than 256 KiB and was refused"; e.Kind != provider.KindProtocol || e.Message != want {
		t.Fatalf("Explain = %v %q, want protocol %q", e.Kind, e.Message, want)
	}
}

// TestExplainContextSaysTheCauseOnce: net/http's error already carries the context's cause;
// the log line's cause must not say it twice.
func TestExplainContextSaysTheCauseOnce(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/body" { // the headers, then nothing
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	tests := []struct {
		path, want string
	}{
		{"/headers", `Get "` + srv.URL + `/headers": no answer within 50ms (timeout)`},
		{"/body", "no answer within 50ms (timeout)"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := provider.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := NewClient(http.DefaultTransport).Do(req)
			if err == nil {
				_, err = ReadBody(ctx, "m", srv.URL, resp.Body, resp.ContentLength, 0)
				resp.Body.Close()
			}
			var pe *provider.Error
			if !errors.As(err, &pe) {
				pe = ExplainContext(ctx, "m", srv.URL, err)
			}
			if pe.Kind != provider.KindTimeout || pe.Err.Error() != tt.want {
				t.Errorf("cause = %v %q, want timeout %q", pe.Kind, pe.Err, tt.want)
			}
		})
	}
}

// TestH2C: with H2C the transport speaks HTTP/2 without TLS to an http:// server that serves
// it, and its requests share one connection; without it, HTTP/1.1.
func TestH2C(t *testing.T) {
	t.Parallel()
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, r.Proto)
	}))
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetHTTP1(true)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		h2c  bool
		want string
	}{{true, "HTTP/2.0"}, {false, "HTTP/1.1"}} {
		tr, err := New(Options{H2C: tc.h2c})
		if err != nil {
			t.Fatal(err)
		}
		conns.Store(0)
		get := func() string {
			resp, err := (&http.Client{Transport: tr}).Get(srv.URL)
			if err != nil {
				return err.Error()
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			return string(b)
		}
		// The first request opens the connection (requests that start together before
		// there is one may each dial); those after it share it.
		got := []string{get(), "", "", "", ""}
		var wg sync.WaitGroup
		for i := 1; i < len(got); i++ {
			wg.Go(func() { got[i] = get() })
		}
		wg.Wait()
		for i, g := range got {
			if g != tc.want {
				t.Errorf("h2c %t, request %d: the server saw %q, want %q", tc.h2c, i, g, tc.want)
			}
		}
		if tc.h2c && conns.Load() != 1 {
			t.Errorf("h2c: %d connections for 5 requests, want 1", conns.Load())
		}
		tr.CloseIdleConnections()
	}
}

// BenchmarkReadAll reads a body as the router reads a request's: announced (Content-Length)
// or not (chunked), short or an agent's conversation.
func BenchmarkReadAll(b *testing.B) {
	for _, n := range []int{1_200, 85_000} {
		body := strings.Repeat("x", n)
		for _, announced := range []bool{true, false} {
			size, name := int64(n), fmt.Sprintf("%d-bytes/announced", n)
			if !announced {
				size, name = -1, fmt.Sprintf("%d-bytes/chunked", n)
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(n))
				b.ReportAllocs()
				r := strings.NewReader("")
				for b.Loop() {
					r.Reset(body)
					if _, err := ReadAll(r, size, 10<<20); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
