// Command inprocbench measures what the router adds on top of a model server, against a plain
// httputil.ReverseProxy in front of the same mock backend, in one run:
//
//   - added latency (p50, p99) of non-streamed completions at concurrency 1,
//   - added time to the first streamed event,
//   - saturation throughput at a fixed concurrency.
//
// Everything runs in this process on loopback: the mock OpenAI backend (the simulated model
// with no latency), the plain proxy, the router's real HTTP handler, and the load generator.
// The three paths are measured in interleaved rounds so that machine noise hits them alike.
//
// Sharing one process with the load generator (its scheduler and garbage collector) flatters
// the router, so these are not the reported numbers: `make bench` (bench/cmd/loadbench)
// measures out of process. This one stays because one process is the easier one to profile.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/semantic-router/semantic-router/bench/internal/harness"
	"github.com/semantic-router/semantic-router/internal/provider/sim"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "inprocbench:", err)
		os.Exit(1)
	}
}

type target struct {
	name string
	base string
}

func run() error {
	latencyN := flag.Int("latency-requests", 3000, "requests per path for the latency measurement")
	rounds := flag.Int("rounds", 5, "interleaved rounds")
	conc := flag.Int("concurrency", 64, "concurrency of the throughput measurement")
	dur := flag.Duration("duration", 4*time.Second, "duration of each throughput round per path")
	flag.Parse()

	backend, err := harness.Listen(sim.Handler(sim.Options{Model: "mock", Reply: "ok, here is a short answer"}))
	if err != nil {
		return err
	}
	proxy, err := plainProxy(backend)
	if err != nil {
		return err
	}
	routerURL, err := routerFor(backend)
	if err != nil {
		return err
	}
	targets := []target{{"direct", backend}, {"reverse-proxy", proxy}, {"router", routerURL}}

	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024, DisableCompression: true}}
	const plain = `{"model":"bench","messages":[{"role":"user","content":"What is the capital of France?"}]}`
	const streamed = `{"model":"bench","stream":true,"messages":[{"role":"user","content":"What is the capital of France?"}]}`

	lat := map[string][]time.Duration{}
	ttfb := map[string][]time.Duration{}
	rps := map[string][]float64{}
	per := *latencyN / *rounds
	for range *rounds {
		for _, t := range targets {
			for range 50 { // warm the connection pools
				if _, err := once(client, t.base, plain, false); err != nil {
					return fmt.Errorf("%s: %w", t.name, err)
				}
			}
			for range per {
				d, err := once(client, t.base, plain, false)
				if err != nil {
					return fmt.Errorf("%s: %w", t.name, err)
				}
				lat[t.name] = append(lat[t.name], d)
				d, err = once(client, t.base, streamed, true)
				if err != nil {
					return fmt.Errorf("%s stream: %w", t.name, err)
				}
				ttfb[t.name] = append(ttfb[t.name], d)
			}
			r, err := throughput(client, t.base, plain, *conc, *dur/time.Duration(*rounds))
			if err != nil {
				return fmt.Errorf("%s throughput: %w", t.name, err)
			}
			rps[t.name] = append(rps[t.name], r)
		}
	}
	report(os.Stdout, targets, lat, ttfb, rps, *latencyN, *conc, *dur)
	return nil
}

// plainProxy is the baseline: the standard library's reverse proxy with the same pool size as
// the router's transport, flushing streamed responses at once. Without full duplex, Go's
// server can cut a response that is written while the request body is still being read,
// which cuts a few percent of SSE streams; the baseline gets the same fix the router has.
func plainProxy(backend string) (string, error) {
	u, err := url.Parse(backend)
	if err != nil {
		return "", err
	}
	p := httputil.NewSingleHostReverseProxy(u)
	p.FlushInterval = -1
	p.Transport = &http.Transport{MaxIdleConns: 2048, MaxIdleConnsPerHost: 512, IdleConnTimeout: 90 * time.Second, DisableCompression: true}
	return harness.Listen(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).EnableFullDuplex()
		p.ServeHTTP(w, r)
	}))
}

// routerFor serves the router's real inference handler with one openai_compatible model on
// the backend.
func routerFor(backend string) (string, error) {
	return harness.Router(fmt.Appendf(nil, `
models:
  - model_name: bench
    provider: {type: openai_compatible, base_url: %s/v1, model: mock}
`, backend))
}

// once sends one request; for a stream it returns the time to the first data event and reads
// the rest, else the time to the whole body.
func once(c *http.Client, base, body string, stream bool) (time.Duration, error) {
	start := time.Now()
	resp, err := c.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return 0, fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	if !stream {
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return 0, err
		}
		return time.Since(start), nil
	}
	br := bufio.NewReader(resp.Body)
	var first time.Duration
	done := false
	for {
		line, err := br.ReadBytes('\n')
		if first == 0 && bytes.HasPrefix(line, []byte("data: ")) {
			first = time.Since(start)
		}
		if bytes.HasPrefix(line, []byte("data: [DONE]")) {
			done = true
		}
		if err != nil {
			break
		}
	}
	if !done {
		return 0, fmt.Errorf("stream without [DONE]")
	}
	return first, nil
}

func throughput(c *http.Client, base, body string, conc int, d time.Duration) (float64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var n, failed atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if _, err := once(c, base, body, false); err != nil {
					failed.Add(1)
					continue
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	if f := failed.Load(); f > 0 {
		return 0, fmt.Errorf("%d requests failed", f)
	}
	return float64(n.Load()) / time.Since(start).Seconds(), nil
}

func pct(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d.Microseconds())/1000) }

func report(w io.Writer, targets []target, lat, ttfb map[string][]time.Duration, rps map[string][]float64, n, conc int, dur time.Duration) {
	fmt.Fprintf(w, "Go %s, GOMAXPROCS %d, %d requests per path, throughput at concurrency %d for %s per path.\n\n",
		runtime.Version(), runtime.GOMAXPROCS(0), n, conc, dur)
	fmt.Fprintln(w, "| path | p50 ms | p99 ms | added p50 ms | added p99 ms | stream first event p50 ms | added | throughput req/s |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	base50, base99, baseT := pct(lat["direct"], .5), pct(lat["direct"], .99), pct(ttfb["direct"], .5)
	total := map[string]float64{}
	for _, t := range targets {
		for _, r := range rps[t.name] {
			total[t.name] += r / float64(len(rps[t.name]))
		}
		p50, p99, t50 := pct(lat[t.name], .5), pct(lat[t.name], .99), pct(ttfb[t.name], .5)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %.0f |\n", t.name, ms(p50), ms(p99), ms(p50-base50), ms(p99-base99),
			ms(t50), ms(t50-baseT), total[t.name])
	}
	addedProxy := pct(lat["reverse-proxy"], .5) - base50
	addedRouter := pct(lat["router"], .5) - base50
	fmt.Fprintf(w, "\nRouter vs plain reverse proxy: added p50 %.2f× (target ≤ 1.5×), throughput %.2f× (target ≥ 0.8×).\n",
		float64(addedRouter)/float64(max(addedProxy, time.Microsecond)), total["router"]/total["reverse-proxy"])
}
