// Package faults injects backend failures under the router's real HTTP handler and checks the
// documented outcome of each: retry, fallback, error event or timeout, and never a hang.
package faults

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/provider/sim"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/server"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// fault is how the misbehaving backend answers one request.
type fault string

const (
	ok            fault = "ok"             // a normal answer
	refuse        fault = "refuse"         // no server at the address
	hang          fault = "hang"           // accept, then never answer
	status500     fault = "500"            // an OpenAI error with 500
	status429     fault = "429"            // 429 with Retry-After: 1
	cutBefore     fault = "cut-before"     // SSE headers, then the connection drops before any event
	cutMidStream  fault = "cut-mid-stream" // two events, then the connection drops inside the third
	drip          fault = "drip"           // events 30 ms apart
	silentAfter   fault = "silent-after"   // one event, then silence
	notSSE        fault = "not-sse"        // text/event-stream that holds no event at all
	malformedJSON fault = "malformed-json" // 200 with a body that is not a chat completion
	status503     fault = "503"            // 503 with Retry-After: 1
	status429Long fault = "429-long"       // 429 with Retry-After: 300
	echo400       fault = "echo-400"       // 400 whose message echoes the Authorization header
	echo401       fault = "echo-401"       // 401 whose message echoes the Authorization header
	echo500       fault = "echo-500"       // 500 whose message echoes the Authorization header
	echoStream    fault = "echo-stream"    // an event, then an error event that echoes the Authorization header
	echoAnswer    fault = "echo-answer"    // 200 whose answer (JSON or SSE) echoes the Authorization header
	noFinish      fault = "no-finish"      // two events, then the end: neither finish_reason nor [DONE]
	notJSON       fault = "not-json"       // an event, then "data: {not json"
	notJSONFirst  fault = "not-json-first" // "data: {not json" as the first event
	cutAnswer     fault = "cut-answer"     // 200 JSON, part of its body, then the connection drops
)

// badBackend answers each request with the next fault of its script (the last one repeats)
// and counts requests.
type badBackend struct {
	*httptest.Server
	script []fault
	calls  atomic.Int64
	good   http.Handler
}

func newBadBackend(t *testing.T, script ...fault) *badBackend {
	t.Helper()
	b := &badBackend{script: script, good: sim.Handler(sim.Options{Model: "up", Reply: "one two three four"})}
	b.Server = httptest.NewServer(http.HandlerFunc(b.serve))
	t.Cleanup(func() {
		b.CloseClientConnections()
		b.Close()
	})
	return b
}

func (b *badBackend) serve(w http.ResponseWriter, r *http.Request) {
	// Read the request as a real server does; Go's server notices a closed connection (and
	// cancels the request context) only once the body has been read.
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	n := int(b.calls.Add(1)) - 1
	f := b.script[min(n, len(b.script)-1)]
	flush := func() { w.(http.Flusher).Flush() }
	event := func(i int) {
		fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"up\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"e%d \"}}]}\n\n", i)
		flush()
	}
	switch f {
	case ok:
		b.good.ServeHTTP(w, r)
	case hang:
		<-r.Context().Done()
	case status500, status429, status503, status429Long:
		switch f {
		case status429, status503:
			w.Header().Set("Retry-After", "1")
		case status429Long:
			w.Header().Set("Retry-After", "300")
		}
		w.Header().Set("Content-Type", "application/json")
		code := map[fault]int{status500: 500, status429: 429, status503: 503, status429Long: 429}[f]
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"error":{"message":"injected %d"}}`, code)
	case echo400, echo401, echo500:
		code := map[fault]int{echo400: 400, echo401: 401, echo500: 500}[f]
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"error":{"message":"you sent Authorization: %s"}}`, r.Header.Get("Authorization"))
	case echoStream:
		w.Header().Set("Content-Type", "text/event-stream")
		event(0)
		fmt.Fprintf(w, "data: {\"error\":{\"message\":\"you sent Authorization: %s\"}}\n\n", r.Header.Get("Authorization"))
	case echoAnswer:
		if strings.Contains(string(body), `"stream":true`) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"you sent %s\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n", r.Header.Get("Authorization"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"you sent %s"},"finish_reason":"stop"}]}`, r.Header.Get("Authorization"))
	case noFinish:
		w.Header().Set("Content-Type", "text/event-stream")
		event(0)
		event(1)
	case notJSON, notJSONFirst:
		w.Header().Set("Content-Type", "text/event-stream")
		if f == notJSON {
			event(0)
		}
		_, _ = io.WriteString(w, "data: {not json\n\n")
		flush()
	case cutBefore:
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		flush()
		panic(http.ErrAbortHandler)
	case cutMidStream:
		w.Header().Set("Content-Type", "text/event-stream")
		event(0)
		event(1)
		_, _ = io.WriteString(w, `data: {"id":"c","obj`)
		flush()
		panic(http.ErrAbortHandler)
	case drip, silentAfter:
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 4 {
			event(i)
			if f == silentAfter {
				<-r.Context().Done()
				return
			}
			select {
			case <-r.Context().Done():
				return
			case <-time.After(30 * time.Millisecond):
			}
		}
		_, _ = io.WriteString(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	case notSSE:
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "this is not server-sent events\n")
	case malformedJSON:
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"unexpected":`)
	case cutAnswer:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "200")
		_, _ = io.WriteString(w, `{"id":"c","object":"chat.completion",`)
		flush()
		panic(http.ErrAbortHandler)
	}
}

func refusedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + ln.Addr().String()
	_ = ln.Close()
	return u
}

// startRouter serves the router's inference handler with the given models YAML.
func startRouter(t *testing.T, models string) (*httptest.Server, *prometheus.Registry) {
	t.Helper()
	cfg, err := config.Parse([]byte("models:\n" + models))
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	metrics := telemetry.NewMetrics(reg)
	log := slog.New(slog.DiscardHandler)
	rt, err := router.New(cfg, router.Options{Logger: log, Metrics: metrics})
	if err != nil {
		t.Fatal(err)
	}
	s := httptest.NewServer(server.NewInference(router.NewPipeline(router.NewHolder(rt), router.PipelineOptions{Logger: log}), log, metrics))
	t.Cleanup(s.Close)
	return s, reg
}

func model(name, baseURL, extra string) string {
	return fmt.Sprintf("  - model_name: %s\n    provider: {type: openai_compatible, base_url: %s/v1, model: up}\n%s", name, baseURL, extra)
}

type outcome struct {
	status   int
	served   string // x-vsr-selected-model
	from     string // x-vsr-fallback-from
	body     string
	events   []string
	finished bool   // a stream that ended with [DONE]
	retry    string // Retry-After
	id       string // X-Request-Id
}

// call sends one request with a hard deadline, so a hang fails the test instead of stalling it.
func call(t *testing.T, base string, stream bool) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	body := fmt.Sprintf(`{"model":"primary","stream":%t,"messages":[{"role":"user","content":"hi"}]}`, stream)
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/v1/chat/completions", strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("request failed (a hang ends here): %v", err)
	}
	defer resp.Body.Close()
	o := outcome{status: resp.StatusCode, served: resp.Header.Get("X-Vsr-Selected-Model"), from: resp.Header.Get("X-Vsr-Fallback-From"),
		retry: resp.Header.Get("Retry-After"), id: resp.Header.Get("X-Request-Id")}
	if !stream || resp.StatusCode != 200 {
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("reading the body: %v", err)
		}
		o.body = string(b)
		return o
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		switch line := sc.Text(); {
		case line == "data: [DONE]":
			o.finished = true
		case line != "":
			o.events = append(o.events, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading the stream: %v", err)
	}
	return o
}
