package main

import (
	"context"
	"io"
	"sync"
	"sync/atomic"

	"github.com/semantic-router/semantic-router/bench/internal/measure"
)

// streams opens o.n streams, at most o.openConc of them being opened at a time, and prints a
// measure.HeldEvent on out once each has its first event or has failed: at that moment every
// successful stream is open at once (the backend holds them). It then waits for all of them
// to end; a stream counts as complete when it ends with [DONE].
func streams(ctx context.Context, c *client, o options, out io.Writer) (measure.Result, error) {
	var (
		wg             sync.WaitGroup
		held, failed   atomic.Int64
		complete       atomic.Int64
		settled        atomic.Int64 // streams that have their first event or failed
		errOnce        sync.Once
		firstErr       string
		allSettled     = make(chan struct{})
		opening        = make(chan struct{}, max(1, o.openConc))
		closeOnSettled sync.Once
	)
	settle := func() {
		if settled.Add(1) == int64(o.n) {
			closeOnSettled.Do(func() { close(allSettled) })
		}
	}
	for range o.n {
		select {
		case opening <- struct{}{}:
		case <-ctx.Done():
			return measure.Result{}, ctx.Err()
		}
		wg.Go(func() {
			first := false
			_, err := c.do(ctx, func() {
				first = true
				held.Add(1)
				<-opening
				settle()
			})
			if err != nil {
				failed.Add(1)
				errOnce.Do(func() { firstErr = err.Error() })
				if !first {
					<-opening
					settle()
				}
				return
			}
			complete.Add(1)
		})
	}
	select {
	case <-allSettled:
	case <-ctx.Done():
		wg.Wait()
		return measure.Result{}, ctx.Err()
	}
	if err := measure.Print(out, measure.HeldEvent{Event: "held", Held: int(held.Load()), Failed: int(failed.Load())}); err != nil {
		return measure.Result{}, err
	}
	wg.Wait()
	return measure.Result{Requests: int(complete.Load()), Errors: int(failed.Load()), FirstError: firstErr, Held: int(held.Load())}, nil
}
