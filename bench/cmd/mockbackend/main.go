// Command mockbackend is the model server of the out-of-process benchmark: an
// OpenAI-compatible POST /v1/chat/completions that answers every request at once with the same
// JSON completion, or the same SSE stream (a role event, -tokens content events, a finish
// event, a usage event when asked, [DONE]), each event written and flushed as a real server
// does. Its answers cost the same whoever calls it, so the difference between calling it
// directly and through a gateway is the gateway's own work.
//
// With -hold, a stream stops after its first content event and waits until POST /release (or
// -hold-max), so that a load generator can keep thousands of streams open at once.
//
// With -token-interval, a stream waits that long before each content event after the first,
// as a model that decodes one token at a time does, so that each event reaches a gateway on
// its own instead of in a burst with the others.
//
// It logs {"msg":"listening","server":"backend","address":...} and {"msg":"ready"} on stderr.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mockbackend:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("mockbackend", flag.ContinueOnError)
	addr := fs.String("address", "127.0.0.1:0", "listen address")
	tokens := fs.Int("tokens", 8, "content events per stream")
	hold := fs.Bool("hold", false, "hold each stream after its first content event until POST /release")
	holdMax := fs.Duration("hold-max", 2*time.Minute, "longest a held stream waits for /release")
	h2c := fs.Bool("h2c", false, "also serve HTTP/2 without TLS (prior knowledge), as a sidecar set up for it does")
	interval := fs.Duration("token-interval", 0, "wait before each content event after the first, as a model decoding one token at a time")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	if *interval < 0 {
		return fmt.Errorf("-token-interval: %s is negative", *interval)
	}
	b := newBackend(*tokens, *hold, *holdMax)
	b.interval = *interval
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", b.chat)
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"mock","object":"model","created":1700000000,"owned_by":"bench"}]}`)
	})
	mux.HandleFunc("POST /release", b.release)

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listening: %w", err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	if *h2c {
		srv.Protocols = new(http.Protocols)
		srv.Protocols.SetHTTP1(true)
		srv.Protocols.SetUnencryptedHTTP2(true)
	}
	log.Info("listening", "server", "backend", "address", ln.Addr().String())
	log.Info("ready")
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	b.releaseAll()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// backend holds the pre-encoded answers and the release gate of held streams.
type backend struct {
	completion []byte
	role       []byte   // the first stream event
	content    [][]byte // the content events
	finish     []byte
	usage      []byte
	hold       bool
	holdMax    time.Duration
	interval   time.Duration // before each content event after the first

	mu      sync.Mutex
	gate    chan struct{} // closed by release; streams held now wait on it
	holding atomic.Int64
}

func newBackend(tokens int, hold bool, holdMax time.Duration) *backend {
	const head = `{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1700000000,"model":"mock","choices":[`
	b := &backend{
		completion: []byte(`{"id":"chatcmpl-mock","object":"chat.completion","created":1700000000,"model":"mock",` +
			`"choices":[{"index":0,"message":{"role":"assistant","content":"Paris is the capital and largest city of France."},` +
			`"finish_reason":"stop"}],"usage":{"prompt_tokens":14,"completion_tokens":10,"total_tokens":24}}` + "\n"),
		role:    event(head + `{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`),
		finish:  event(head + `{"index":0,"delta":{},"finish_reason":"stop"}]}`),
		usage:   event(head + `],"usage":{"prompt_tokens":14,"completion_tokens":` + strconv.Itoa(tokens) + `,"total_tokens":` + strconv.Itoa(14+tokens) + `}}`),
		hold:    hold,
		holdMax: holdMax,
		gate:    make(chan struct{}),
	}
	for i := range tokens {
		b.content = append(b.content, event(head+`{"index":0,"delta":{"content":"word`+strconv.Itoa(i)+` "},"finish_reason":null}]}`))
	}
	return b
}

func event(data string) []byte { return []byte("data: " + data + "\n\n") }

// request is what the backend reads of a chat request; it decodes the whole body, as a model
// server must.
type request struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

func (b *backend) chat(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":{"message":"invalid JSON body","type":"invalid_request_error","param":null,"code":null}}`)
		return
	}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(b.completion)))
		_, _ = w.Write(b.completion)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	rc := http.NewResponseController(w)
	send := func(p []byte) bool {
		if _, err := w.Write(p); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send(b.role) {
		return
	}
	for i, c := range b.content {
		if i > 0 && b.interval > 0 && !pause(r.Context(), b.interval) {
			return
		}
		if !send(c) {
			return
		}
		if i == 0 && b.hold && !b.wait(r.Context()) {
			return
		}
	}
	if !send(b.finish) {
		return
	}
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage && !send(b.usage) {
		return
	}
	send([]byte("data: [DONE]\n\n"))
}

// pause waits d, or until the client leaves; it reports whether the stream should go on.
func pause(ctx context.Context, d time.Duration) bool {
	select {
	case <-time.After(d): // an unstopped timer is collected once unreachable
		return true
	case <-ctx.Done():
		return false
	}
}

// wait blocks a held stream until the next release, -hold-max, or the client leaving; it
// reports whether the stream should go on.
func (b *backend) wait(ctx context.Context) bool {
	b.mu.Lock()
	gate := b.gate
	b.mu.Unlock()
	b.holding.Add(1)
	defer b.holding.Add(-1)
	t := time.NewTimer(b.holdMax)
	defer t.Stop()
	select {
	case <-gate:
		return true
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// release lets every held stream go on and answers with how many were held.
func (b *backend) release(w http.ResponseWriter, _ *http.Request) {
	n := b.holding.Load()
	b.releaseAll()
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, "{\"released\":%d}\n", n)
}

func (b *backend) releaseAll() {
	b.mu.Lock()
	close(b.gate)
	b.gate = make(chan struct{})
	b.mu.Unlock()
}
