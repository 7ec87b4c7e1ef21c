package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/provider/transport"
)

func constant(v string) func() (string, error) { return func() (string, error) { return v, nil } }

// vectors answers every input with [1, 2, 3].
func vectors(w http.ResponseWriter, n int) {
	w.Header().Set("Content-Type", "application/json")
	var items []string
	for i := range n {
		items = append(items, fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":[1,2,3]}`, i))
	}
	fmt.Fprintf(w, `{"object":"list","data":[%s]}`, strings.Join(items, ","))
}

func TestKeyIsReadOnEveryCall(t *testing.T) {
	t.Parallel()
	var want atomic.Value
	want.Store("key-one-111")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+want.Load().(string) {
			http.Error(w, `{"error":{"message":"bad key"}}`, http.StatusUnauthorized)
			return
		}
		vectors(w, 1)
	}))
	t.Cleanup(srv.Close)
	var current atomic.Value
	current.Store("key-one-111")
	c, err := New(Options{BaseURL: srv.URL, Model: "m", APIKey: func() (string, error) { return current.Load().(string), nil }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Embed(context.Background(), []string{"a"}); err != nil {
		t.Fatal(err)
	}
	// The key is rotated: the server takes only the new one, and so does the client.
	want.Store("key-two-222")
	current.Store("key-two-222")
	if _, err := c.Embed(context.Background(), []string{"a"}); err != nil {
		t.Fatalf("after rotation: %v", err)
	}
}

func TestHardenedCalls(t *testing.T) {
	t.Parallel()
	const key = "sk-embed-secret-key"
	tests := []struct {
		name    string
		opts    func(*Options)
		handler http.HandlerFunc
		want    string // the error's tail after "remote embedder: POST <endpoint>: "
	}{
		{name: "a key read error is reported",
			opts:    func(o *Options) { o.APIKey = func() (string, error) { return "", errors.New("file gone") } },
			handler: func(w http.ResponseWriter, r *http.Request) { vectors(w, 1) },
			want:    "reading the API key from file:/keys/embed: file gone"},
		{name: "an echoed key is redacted",
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, `{"error":{"message":"bad request, got `+r.Header.Get("Authorization")+`"}}`, http.StatusBadRequest)
			},
			want: "status 400: bad request, got Bearer [redacted]"},
		{name: "a redirect is not followed",
			handler: func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/elsewhere" {
					vectors(w, 1)
					return
				}
				http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
			},
			want: "status 307: a redirect, which is not followed: point base_url at the server itself"},
		{name: "an oversized answer is refused",
			opts: func(o *Options) { o.MaxResponseBytes = 1024 },
			handler: func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprintf(w, `{"data":[{"index":0,"embedding":[%s1]}]}`, strings.Repeat("1,", 4096))
			},
			want: "the answer is larger than 1024 bytes and was refused"},
		{name: "a zero vector is refused",
			handler: func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprint(w, `{"data":[{"index":0,"embedding":[0,0,0,0]}]}`)
			},
			want: "embedding 0 is all zeros: the server is not embedding the text"},
		{name: "a hung endpoint times out",
			opts: func(o *Options) { o.Timeout = 50 * time.Millisecond },
			handler: func(w http.ResponseWriter, r *http.Request) {
				// Read the body first: only then does the server notice the client hang up.
				_, _ = io.Copy(io.Discard, r.Body)
				<-r.Context().Done()
			},
			want: "no answer within 50ms (timeout)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(tt.handler)
			t.Cleanup(srv.Close)
			o := Options{BaseURL: srv.URL, Model: "m", APIKey: constant(key), APIKeySource: "file:/keys/embed"}
			if tt.opts != nil {
				tt.opts(&o)
			}
			c, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Embed(context.Background(), []string{"x"})
			prefix := "remote embedder: POST " + srv.URL + "/embeddings: " + tt.want
			if err == nil || !strings.HasPrefix(err.Error(), prefix) {
				t.Fatalf("err = %v\nwant  %s...", err, prefix)
			}
			if n := strings.Count(err.Error(), tt.want); n != 1 {
				t.Errorf("err = %v: says %q %d times", err, tt.want, n)
			}
			if strings.Contains(err.Error(), key) {
				t.Fatalf("error leaks the key: %v", err)
			}
		})
	}
}

func TestTrustsTheConfiguredCA(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { vectors(w, 1) }))
	t.Cleanup(srv.Close)
	// Without the bundle the certificate is unknown; with it the call succeeds.
	c, err := New(Options{BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Embed(context.Background(), []string{"x"}); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("without the CA bundle: err = %v, want a certificate error", err)
	}
	pool := srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	tr, err := transport.New(transport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr.TLSClientConfig.RootCAs = pool
	c, err = New(Options{BaseURL: srv.URL, Model: "m", Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
}

// TestReadyWhenTheServiceComesUp builds the client while nothing listens at its address,
// then starts the service there.
func TestReadyWhenTheServiceComesUp(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, err := New(Options{BaseURL: "http://" + addr, Model: "m"})
	if err != nil {
		t.Fatalf("New while the service is down: %v", err)
	}
	if err := c.Ready(context.Background()); err == nil || !strings.Contains(err.Error(), "not answering yet: remote embedder: POST http://"+addr+"/embeddings: ") ||
		!strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("Ready while down = %v", err)
	}
	if c.Dimensions() != 0 {
		t.Fatalf("Dimensions while down = %d, want 0 (not known yet)", c.Dimensions())
	}
	ln, err = net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listening again at %s: %v", addr, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { vectors(w, 1) })}}
	srv.Start()
	t.Cleanup(srv.Close)
	if err := c.Ready(context.Background()); err != nil {
		t.Fatalf("Ready once up: %v", err)
	}
	if c.Dimensions() != 3 {
		t.Fatalf("Dimensions once up = %d, want 3", c.Dimensions())
	}
}
