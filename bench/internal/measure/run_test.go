package measure

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestSequentialCountsCallsAndFailures(t *testing.T) {
	t.Parallel()
	var calls int
	res, err := Sequential(context.Background(), 10, 3, func(context.Context, int) (time.Duration, error) {
		calls++
		if calls > 3 && calls%5 == 0 { // counted calls 2 and 7 fail
			return 0, errors.New("boom")
		}
		return time.Duration(calls) * time.Microsecond, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 13 || res.Requests != 8 || res.Errors != 2 || res.FirstError != "boom" || res.P50 == 0 || res.P99 < res.P50 {
		t.Fatalf("calls %d, result %+v", calls, res)
	}
}

func TestSequentialStopsOnAFailedWarmup(t *testing.T) {
	t.Parallel()
	_, err := Sequential(context.Background(), 10, 1, func(context.Context, int) (time.Duration, error) {
		return 0, errors.New("connection refused")
	})
	if err == nil || err.Error() != "warm-up: connection refused" {
		t.Fatalf("err = %v", err)
	}
}

func TestThroughputUsesEveryWorker(t *testing.T) {
	t.Parallel()
	var seen [4]atomic.Int64
	res, err := Throughput(context.Background(), 4, 8, 50*time.Millisecond, func(_ context.Context, w int) (time.Duration, error) {
		seen[w].Add(1)
		time.Sleep(time.Millisecond) // a call that takes time, so the run is bounded
		return time.Millisecond, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests == 0 || res.Errors != 0 || res.RPS <= 0 {
		t.Fatalf("result %+v", res)
	}
	for w := range seen {
		if seen[w].Load() < 3 { // two warm-up calls and at least one counted call each
			t.Fatalf("worker %d made %d calls", w, seen[w].Load())
		}
	}
}
