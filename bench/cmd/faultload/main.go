// Command faultload measures what a fallback costs when a model's backend fails: it sends N
// requests (plain and streamed) through the router's real handler to a primary model whose
// backend fails a fixed share of them (half with a 500, half by dropping the connection
// before any byte), with a healthy fallback model configured, and checks that no client sees
// an error. The same load against the same primary without failures is the baseline; both
// run in this process, in interleaved rounds, so that machine noise hits them alike.
//
//	go run ./bench/cmd/faultload -requests 10000 -failure-rate 0.05
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
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
		fmt.Fprintln(os.Stderr, "faultload:", err)
		os.Exit(1)
	}
}

// result is one request's outcome as the client saw it.
type result struct {
	d        time.Duration
	fallback bool // served by the fallback (x-vsr-fallback-from is set)
	err      error
}

func run() error {
	n := flag.Int("requests", 10000, "requests per run (the faulty run and the baseline each)")
	rate := flag.Float64("failure-rate", 0.05, "share of the primary backend's answers that fail")
	conc := flag.Int("concurrency", 4, "concurrent clients")
	rounds := flag.Int("rounds", 4, "interleaved rounds")
	flag.Parse()

	healthy := sim.Handler(sim.Options{Model: "mock", Reply: "ok, here is a short answer"})
	var injected atomic.Int64
	faulty := faultyHandler(healthy, *rate, &injected)
	urls := map[string]string{}
	for name, h := range map[string]http.Handler{"healthy": healthy, "faulty": faulty, "backup": healthy} {
		u, err := harness.Listen(h)
		if err != nil {
			return err
		}
		urls[name] = u
	}
	baseline, err := routerFor(urls["healthy"], urls["backup"])
	if err != nil {
		return err
	}
	withFaults, err := routerFor(urls["faulty"], urls["backup"])
	if err != nil {
		return err
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024, DisableCompression: true}}
	for _, base := range []string{baseline, withFaults} { // warm the pools
		if _, err := load(client, base, 200, *conc); err != nil {
			return err
		}
	}
	injected.Store(0)
	var base, faults []result
	per := *n / *rounds
	for range *rounds {
		b, err := load(client, baseline, per, *conc)
		if err != nil {
			return err
		}
		f, err := load(client, withFaults, per, *conc)
		if err != nil {
			return err
		}
		base, faults = append(base, b...), append(faults, f...)
	}
	return report(os.Stdout, base, faults, injected.Load(), *rate, *conc)
}

// faultyHandler fails a share rate of requests, drawn from a seeded generator: half answer
// 500, half drop the connection before sending anything.
func faultyHandler(next http.Handler, rate float64, injected *atomic.Int64) http.Handler {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(1, 2)) // seeded: the same fault pattern in every run
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		x := rng.Float64()
		mu.Unlock()
		if x >= rate {
			next.ServeHTTP(w, r)
			return
		}
		injected.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		if x < rate/2 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = io.WriteString(w, `{"error":{"message":"injected failure"}}`)
			return
		}
		panic(http.ErrAbortHandler) // the connection drops
	})
}

// routerFor serves the router's inference handler with "primary" on primary and its
// fallback "backup" on backup. No retries: a failure goes to the fallback at once.
func routerFor(primary, backup string) (string, error) {
	return harness.Router(fmt.Appendf(nil, `
models:
  - model_name: primary
    provider: {type: openai_compatible, base_url: %s/v1, model: mock}
    fallbacks: [backup]
  - model_name: backup
    exposed: false
    provider: {type: openai_compatible, base_url: %s/v1, model: mock}
`, primary, backup))
}

// load sends n requests from conc clients, every fourth one streamed.
func load(c *http.Client, base string, n, conc int) ([]result, error) {
	out := make([]result, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				out[i] = once(c, base, i%4 == 0)
			}
		}()
	}
	wg.Wait()
	return out, nil
}

// once sends one request and reads the whole answer; a stream must end with [DONE].
func once(c *http.Client, base string, stream bool) result {
	body := fmt.Sprintf(`{"model":"primary","stream":%t,"messages":[{"role":"user","content":"What is the capital of France?"}]}`, stream)
	start := time.Now()
	resp, err := c.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		return result{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	r := result{d: time.Since(start), fallback: resp.Header.Get("X-Vsr-Fallback-From") != "", err: err}
	switch {
	case err != nil:
	case resp.StatusCode != http.StatusOK:
		r.err = fmt.Errorf("status %d: %s", resp.StatusCode, b)
	case stream && !lastEventIsDone(b):
		r.err = fmt.Errorf("stream without [DONE]: %q", b)
	}
	return r
}

func lastEventIsDone(b []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(b))
	last := ""
	for sc.Scan() {
		if l := sc.Text(); l != "" {
			last = l
		}
	}
	return last == "data: [DONE]"
}

func pct(rs []result, keep func(result) bool, p float64) (time.Duration, int) {
	var ds []time.Duration
	for _, r := range rs {
		if keep(r) {
			ds = append(ds, r.d)
		}
	}
	if len(ds) == 0 {
		return 0, 0
	}
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(float64(len(ds))*p))], len(ds)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d.Microseconds())/1000) }

func report(w io.Writer, base, faults []result, injected int64, rate float64, conc int) error {
	var errs []error
	for _, r := range append(slices.Clone(base), faults...) {
		if r.err != nil {
			errs = append(errs, r.err)
		}
	}
	all := func(result) bool { return true }
	direct := func(r result) bool { return !r.fallback }
	viaFallback := func(r result) bool { return r.fallback }
	b50, _ := pct(base, all, .5)
	b99, _ := pct(base, all, .99)
	fmt.Fprintf(w, "Go %s, GOMAXPROCS %d, %d requests per run (every fourth streamed) at concurrency %d, failure rate %.0f %% (%d failures injected).\n\n",
		runtime.Version(), runtime.GOMAXPROCS(0), len(base), conc, rate*100, injected)
	fmt.Fprintln(w, "| run | requests | client-visible errors | p50 ms | p99 ms | added p50 ms | added p99 ms |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	row := func(name string, rs []result, keep func(result) bool) {
		p50, n := pct(rs, keep, .5)
		p99, _ := pct(rs, keep, .99)
		failed := 0
		for _, r := range rs {
			if keep(r) && r.err != nil {
				failed++
			}
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s | %s |\n", name, n, failed, ms(p50), ms(p99), ms(p50-b50), ms(p99-b99))
	}
	row("no failures (baseline)", base, all)
	row(fmt.Sprintf("%.0f %% failures, all requests", rate*100), faults, all)
	row("… served by the primary", faults, direct)
	row("… served by the fallback", faults, viaFallback)
	if len(errs) > 0 {
		return fmt.Errorf("%d client-visible errors, first: %w", len(errs), errs[0])
	}
	return nil
}
