// Command loadgen is the load generator of the out-of-process benchmark: one measurement of
// one OpenAI-compatible target per run, printed as one JSON line (measure.Result) on stdout.
//
//	loadgen -mode latency    -url U -body F -n N            # sequential requests: p50, p99 of the whole answer
//	loadgen -mode ttfb       -url U -body F -n N            # sequential streams: p50, p99 of the first SSE event
//	loadgen -mode throughput -url U -body F -c 32 -d 3s     # completed requests per second at concurrency c
//	loadgen -mode streams    -url U -body F -n 5000         # N streams open at once, then all finished
//
// -header "Name: value" adds a header to every request. -vary numbers each request's body at
// its first "{{n}}", so that no two requests are the same text.
// Each run first sends -warmup requests that are not counted. In streams mode it prints
// {"event":"held",...} once every stream has its first event (or has failed), then waits for
// the backend to release them (see mockbackend -hold) and counts the streams that end with
// [DONE]. Every run is bounded by -timeout.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/semantic-router/semantic-router/bench/internal/measure"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

type options struct {
	mode, url    string
	header       string
	body         []byte
	n, c, warmup int
	openConc     int
	dur, timeout time.Duration
	h2c          bool
	vary         bool
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	var o options
	var bodyFile string
	fs.StringVar(&o.mode, "mode", "latency", "latency, ttfb, throughput or streams")
	fs.StringVar(&o.url, "url", "", "base URL of the target; requests go to URL/v1/chat/completions")
	fs.StringVar(&bodyFile, "body", "", "file holding the JSON request body")
	fs.StringVar(&o.header, "header", "", `a header sent with every request, "Name: value"`)
	fs.IntVar(&o.n, "n", 1000, "requests (latency, ttfb) or concurrent streams (streams)")
	fs.IntVar(&o.c, "c", 32, "concurrency of a throughput run")
	fs.IntVar(&o.warmup, "warmup", 50, "requests sent first and not counted")
	fs.IntVar(&o.openConc, "open-concurrency", 256, "streams being opened at once in a streams run")
	fs.DurationVar(&o.dur, "d", 3*time.Second, "duration of a throughput run")
	fs.DurationVar(&o.timeout, "timeout", 3*time.Minute, "bound of the whole run")
	fs.BoolVar(&o.vary, "vary", false, `replace the body's first "`+turnMark+`" with a number of each request's own, as an agent's next turn differs from its last`)
	fs.BoolVar(&o.h2c, "h2c", false, "speak HTTP/2 without TLS (prior knowledge), as a proxy set up for HTTP/2 upstreams does: many requests share a connection")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.url == "" || bodyFile == "" {
		return errors.New("-url and -body are required")
	}
	var err error
	if o.body, err = os.ReadFile(bodyFile); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()

	conns := 1
	switch o.mode {
	case "throughput":
		conns = o.c
	case "streams":
		conns = o.n
	}
	tr := &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, IdleConnTimeout: time.Minute, DisableCompression: true}
	if o.h2c {
		tr.Protocols = new(http.Protocols)
		tr.Protocols.SetUnencryptedHTTP2(true)
	}
	defer tr.CloseIdleConnections()
	c := &client{http: &http.Client{Transport: tr}, url: o.url + "/v1/chat/completions", body: o.body, vary: o.vary}
	if o.header != "" {
		name, value, ok := strings.Cut(o.header, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return fmt.Errorf(`-header %q: want "Name: value"`, o.header)
		}
		c.header = http.Header{}
		c.header.Set(strings.TrimSpace(name), strings.TrimSpace(value))
	}

	var res measure.Result
	switch o.mode {
	case "latency", "ttfb":
		res, err = measure.Sequential(ctx, o.n, o.warmup, func(ctx context.Context, _ int) (time.Duration, error) { return c.do(ctx, nil) })
	case "throughput":
		res, err = measure.Throughput(ctx, o.c, o.warmup, o.dur, func(ctx context.Context, _ int) (time.Duration, error) { return c.do(ctx, nil) })
	case "streams":
		res, err = streams(ctx, c, o, os.Stdout)
	default:
		return fmt.Errorf("-mode: unknown mode %q", o.mode)
	}
	if err != nil {
		return err
	}
	return measure.Print(os.Stdout, res)
}

// turnMark is the place in a body that -vary numbers.
const turnMark = "{{n}}"

// client sends one body to one target.
type client struct {
	http   *http.Client
	url    string
	body   []byte
	header http.Header // sent with every request, besides Content-Type
	// vary numbers each request's body at turnMark; sent counts the requests.
	vary bool
	sent atomic.Int64
}

// bodyOf returns the body of the next request.
func (c *client) bodyOf() []byte {
	if !c.vary {
		return c.body
	}
	return bytes.Replace(c.body, []byte(turnMark), strconv.AppendInt(nil, c.sent.Add(1), 10), 1)
}

// do sends the request and reads the whole answer. It returns the time to the whole answer,
// or for a stream to its first data event, and fails on a non-200 status or a stream without
// [DONE]. onFirst, if set, runs when a stream's first event arrives.
func (c *client) do(ctx context.Context, onFirst func()) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(c.bodyOf()))
	if err != nil {
		return 0, err
	}
	for name, vs := range c.header {
		req.Header[name] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return 0, fmt.Errorf("status %d: %s", resp.StatusCode, bytes.TrimSpace(b))
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return 0, err
		}
		return time.Since(start), nil
	}
	br := bufio.NewReader(resp.Body)
	var first time.Duration
	for {
		line, err := br.ReadSlice('\n')
		if first == 0 && bytes.HasPrefix(line, []byte("data: ")) {
			first = time.Since(start)
			if onFirst != nil {
				onFirst()
			}
		}
		if bytes.HasPrefix(line, []byte("data: [DONE]")) {
			_, _ = io.Copy(io.Discard, br)
			return first, nil
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			if errors.Is(err, io.EOF) {
				return 0, errors.New("stream ended without data: [DONE]")
			}
			return 0, err
		}
	}
}
