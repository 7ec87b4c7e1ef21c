package transport

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
	"weak"
)

func TestNewPostSendsItsBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			t.Error(err)
		}
		fmt.Fprintf(w, "%s %d %s %x", r.Method, r.ContentLength, r.TransferEncoding, sha256.Sum256(b))
	}))
	defer srv.Close()
	rt, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{0, 1, 1023, 1 << 20} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			body := bytes.Repeat([]byte("x"), size)
			resp := sendPost(t, rt, srv.URL, body)
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			if want := fmt.Sprintf("POST %d [] %x", size, sha256.Sum256(body)); string(got) != want {
				t.Errorf("the server got %q, want %q", got, want)
			}
		})
	}
}

func TestNewPostCanSendItsBodyAgainUntilAnswered(t *testing.T) {
	body := []byte(`{"model":"m"}`)
	req, answered, err := NewPost(context.Background(), "http://127.0.0.1:9/v1/chat/completions", body)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // as the transport would, for each connection it finds closed
		again, err := req.GetBody()
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(again); err != nil || string(got) != string(body) {
			t.Fatalf("GetBody read %q, %v; want %q", got, err, body)
		}
	}
	answered()
	if _, err := req.GetBody(); err == nil || err.Error() != "the request body was let go of once the request was answered" {
		t.Errorf("GetBody once answered: %v", err)
	}
}

// The transport keeps a request until its answer has been read to its end. A request from
// NewPost lets go of its body while the answer is still being read, over HTTP/1.1 and
// HTTP/2 alike; one from http.NewRequest keeps it, which is why NewPost exists.
func TestNewPostLetsGoOfItsBodyWhileTheAnswerIsRead(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, r.Proto)
		w.(http.Flusher).Flush()
		<-release
		_, _ = io.WriteString(w, " and the rest")
	}))
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetHTTP1(true)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	defer srv.Close()
	defer close(release)
	type sent = weak.Pointer[[1 << 20]byte]
	posts := []struct {
		name string
		post func(url string) (*http.Request, func(), sent)
		kept bool
	}{
		{"NewPost", func(url string) (*http.Request, func(), sent) {
			body := new([1 << 20]byte)
			req, answered, err := NewPost(context.Background(), url, body[:])
			if err != nil {
				t.Fatal(err)
			}
			return req, answered, weak.Make(body)
		}, false},
		{"http.NewRequest", func(url string) (*http.Request, func(), sent) {
			body := new([1 << 20]byte)
			req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body[:]))
			if err != nil {
				t.Fatal(err)
			}
			return req, func() {}, weak.Make(body)
		}, true},
	}
	for _, proto := range []string{"HTTP/1.1", "HTTP/2.0"} {
		rt, err := New(Options{H2C: proto == "HTTP/2.0"})
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range posts {
			t.Run(proto+"/"+tc.name, func(t *testing.T) {
				req, answered, body := tc.post(srv.URL)
				resp := roundTrip(t, rt, req, answered)
				defer resp.Body.Close()
				first := make([]byte, len(proto))
				if _, err := io.ReadFull(resp.Body, first); err != nil || string(first) != proto {
					t.Fatalf("the answer's first bytes %q: %v", first, err)
				}
				kept := func() bool { runtime.GC(); return body.Value() != nil }
				if tc.kept {
					if !kept() {
						t.Error("the body was let go of while the answer is read; want it kept")
					}
				} else {
					// The transport's writer lets go of the body just after its last write,
					// which the answer can overtake: wait for that, not for a moment.
					for deadline := time.Now().Add(10 * time.Second); kept(); time.Sleep(10 * time.Millisecond) {
						if time.Now().After(deadline) {
							t.Error("the body is kept while the answer is read")
							break
						}
					}
				}
				runtime.KeepAlive(req)
			})
		}
	}
}

// A short request leaves in one write, headers and body together, as one from
// http.NewRequest does: the transport flushes the headers on their own before a body it does
// not know to be in memory, which costs a system call and a packet on every request.
func TestNewPostLeavesInOneWrite(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	defer srv.Close()
	rt, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var writes atomic.Int64
	dial := rt.DialContext
	rt.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		return countingConn{Conn: c, writes: &writes}, err
	}
	sendPost(t, rt, srv.URL, []byte(`{"model":"m","messages":[{"role":"user","content":"What is the capital city of France?"}]}`)).Body.Close()
	if n := writes.Load(); n != 1 {
		t.Errorf("the request took %d writes, want 1", n)
	}
}

type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// sendPost sends body to url with NewPost over rt.
func sendPost(t *testing.T, rt http.RoundTripper, url string, body []byte) *http.Response {
	t.Helper()
	req, answered, err := NewPost(context.Background(), url, body)
	if err != nil {
		t.Fatal(err)
	}
	return roundTrip(t, rt, req, answered)
}

// roundTrip sends req over rt and calls answered once the transport has returned, as the
// providers do.
func roundTrip(t *testing.T, rt http.RoundTripper, req *http.Request, answered func()) *http.Response {
	t.Helper()
	resp, err := rt.RoundTrip(req)
	answered()
	if err != nil {
		t.Fatal(err)
	}
	return resp
}
