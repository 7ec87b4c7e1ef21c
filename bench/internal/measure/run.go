package measure

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Call makes one request (an HTTP request, a stream, an ext_proc exchange) with the
// connection of worker and returns its latency. Sequential always passes worker 0.
type Call func(ctx context.Context, worker int) (time.Duration, error)

// Sequential makes warmup uncounted calls, then n counted ones one after another
// (concurrency 1), and reports their p50 and p99. A failed warm-up call ends the run: the
// target is not serving.
func Sequential(ctx context.Context, n, warmup int, call Call) (Result, error) {
	for range warmup {
		if _, err := call(ctx, 0); err != nil {
			return Result{}, fmt.Errorf("warm-up: %w", err)
		}
	}
	ds := make([]time.Duration, 0, n)
	var res Result
	for range n {
		d, err := call(ctx, 0)
		if err != nil {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			res.Errors++
			if res.FirstError == "" {
				res.FirstError = err.Error()
			}
			continue
		}
		ds = append(ds, d)
	}
	res.Requests = len(ds)
	res.P50, res.P99 = Percentile(ds, .5), Percentile(ds, .99)
	return res, nil
}

// Throughput keeps conc calls in flight for dur, after warming each worker's connection with
// its share of warmup calls, and reports the completed calls per second.
func Throughput(ctx context.Context, conc, warmup int, dur time.Duration, call Call) (Result, error) {
	var wg sync.WaitGroup
	for i := range conc {
		wg.Go(func() {
			for range max(1, warmup/conc) {
				_, _ = call(ctx, i)
			}
		})
	}
	wg.Wait()
	var done, failed atomic.Int64
	var firstErr atomic.Value
	// Calls in flight when the time is up finish and count: cutting them would turn the end
	// of the run into errors.
	var stop atomic.Bool
	start := time.Now()
	stopper := time.AfterFunc(dur, func() { stop.Store(true) })
	defer stopper.Stop()
	for i := range conc {
		wg.Go(func() {
			for !stop.Load() && ctx.Err() == nil {
				if _, err := call(ctx, i); err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	res := Result{Requests: int(done.Load()), Errors: int(failed.Load()), RPS: float64(done.Load()) / elapsed.Seconds()}
	if s, ok := firstErr.Load().(string); ok {
		res.FirstError = s
	}
	return res, nil
}
