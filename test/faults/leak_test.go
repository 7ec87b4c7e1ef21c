package faults

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/provider/sim"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/server"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// TestNoGoroutineLeaks sends plain and streamed requests, with clients that give up before
// the answer and in the middle of a stream, through every moving part (two endpoints with
// health checks, keep-alive comments, the in-flight gate, a hot swap of the router), tears
// everything down and expects the goroutine count back at its baseline. It is not parallel:
// the parallel tests of the package wait while it runs, so the count is its own.
func TestNoGoroutineLeaks(t *testing.T) {
	baseline := runtime.NumGoroutine()
	func() {
		var backends []string
		for range 2 {
			b := httptest.NewServer(sim.Handler(sim.Options{Model: "up", FirstTokenLatency: time.Millisecond, TokenLatency: 15 * time.Millisecond,
				Reply: "a reply long enough to cut in the middle of its stream"}))
			defer b.Close()
			backends = append(backends, b.URL)
		}
		yaml := fmt.Sprintf(`
server: {stream_keepalive: 100ms}
admission: {max_in_flight: 16, queue_timeout: 5s}
models:
  - model_name: primary
    provider:
      type: openai_compatible
      model: up
      endpoints: [{base_url: %s/v1}, {base_url: %s/v1}]
      load_balancing: least_in_flight
      health_check: {interval: 100ms}
`, backends[0], backends[1])
		cfg, err := config.Parse([]byte(yaml))
		if err != nil {
			t.Fatal(err)
		}
		log := slog.New(slog.DiscardHandler)
		metrics := telemetry.NewMetrics(prometheus.NewRegistry())
		rt, err := router.New(cfg, router.Options{Logger: log, Metrics: metrics})
		if err != nil {
			t.Fatal(err)
		}
		holder := router.NewHolder(rt)
		defer func() { _ = holder.Close() }()
		front := httptest.NewServer(server.NewInference(router.NewPipeline(holder, router.PipelineOptions{Logger: log}), log, metrics))
		defer front.Close()
		client := &http.Client{Transport: &http.Transport{}}
		defer client.CloseIdleConnections()

		var wg sync.WaitGroup
		for i := range 120 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				stream := i%2 == 0
				timeout := 10 * time.Second
				switch i % 6 {
				case 1:
					timeout = 5 * time.Millisecond // gone before the answer
				case 2:
					timeout = 60 * time.Millisecond // gone in the middle of the stream
				}
				ctx, cancel := context.WithTimeout(context.Background(), timeout)
				defer cancel()
				req, _ := http.NewRequestWithContext(ctx, "POST", front.URL+"/v1/chat/completions", strings.NewReader(
					fmt.Sprintf(`{"model":"primary","stream":%t,"messages":[{"role":"user","content":"hi"}]}`, stream)))
				resp, err := client.Do(req)
				if err != nil {
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}()
			if i == 60 { // half-way, a reload swaps the router under the traffic
				next, err := router.New(cfg, router.Options{Logger: log, Metrics: metrics})
				if err != nil {
					t.Fatal(err)
				}
				holder.Swap(next)
			}
		}
		wg.Wait()
	}()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > baseline {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, baseline %d:\n%s", runtime.NumGoroutine(), baseline, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
