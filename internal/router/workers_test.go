package router

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestRoutingWorkerCallsDoNotWaitForEachOther: a call that waits (as one does for a remote
// embedder) holds up no other, each call gets its own results, and no more than maxIdle
// workers stay once the calls are done.
func TestRoutingWorkerCallsDoNotWaitForEachOther(t *testing.T) {
	t.Parallel()
	w := newRoutingWorkers()
	defer w.close()
	release := make(chan struct{})
	waiting := make(chan struct{})
	slow := w.call()
	slow.run = func(c *decideCall) {
		close(waiting)
		<-release
		c.matched = true
	}
	slowDone := make(chan struct{})
	go func() {
		w.do(slow)
		close(slowDone)
	}()
	<-waiting
	var wg sync.WaitGroup
	for i := range 3 * int(w.maxIdle) {
		wg.Go(func() {
			c := w.call()
			c.run = func(c *decideCall) { c.matched = i%2 == 0 }
			w.do(c)
			if c.matched != (i%2 == 0) {
				t.Errorf("call %d: matched %v", i, c.matched)
			}
			w.release(c)
		})
	}
	wg.Wait()
	select {
	case <-slowDone:
		t.Fatal("the waiting call returned before it was released")
	default:
	}
	close(release)
	<-slowDone
	if !slow.matched {
		t.Error("the waiting call lost its result")
	}
	waitIdle(t, w, func(n int32) bool { return n >= 1 && n <= w.maxIdle }, "1 to maxIdle")
}

// TestRoutingWorkersExitOnClose: closing the workers makes the idle ones exit, and a call
// made after still runs.
func TestRoutingWorkersExitOnClose(t *testing.T) {
	t.Parallel()
	w := newRoutingWorkers()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			c := w.call()
			c.run = func(*decideCall) { time.Sleep(time.Millisecond) }
			w.do(c)
			w.release(c)
		})
	}
	wg.Wait()
	waitIdle(t, w, func(n int32) bool { return n > 0 }, "some")
	w.close()
	waitIdle(t, w, func(n int32) bool { return n == 0 }, "none")
	c := w.call()
	c.run = func(c *decideCall) { c.matched = true }
	w.do(c)
	if !c.matched {
		t.Error("a call after close did not run")
	}
}

// TestRoutingWorkerPanicReachesTheCaller: a call that panics panics on the caller's
// goroutine, where the server recovers it, and the worker serves the next call.
func TestRoutingWorkerPanicReachesTheCaller(t *testing.T) {
	t.Parallel()
	w := newRoutingWorkers()
	defer w.close()
	got := func() (p any) {
		defer func() { p = recover() }()
		c := w.call()
		c.run = func(*decideCall) { panic("detector failed") }
		w.do(c)
		return nil
	}()
	if got != "detector failed" {
		t.Fatalf("recovered %v, want the worker's panic", got)
	}
	c := w.call()
	c.run = func(c *decideCall) { c.matched = true }
	w.do(c)
	if !c.matched {
		t.Error("the call after a panic did not run")
	}
	waitIdle(t, w, func(n int32) bool { return n == 1 }, "1")
}

// TestRoutesOnWorkersUnderLoad routes concurrently through the signals and decisions, as
// requests do, and checks each request's own decision.
func TestRoutesOnWorkersUnderLoad(t *testing.T) {
	t.Parallel()
	r := buildRouter(t, routeConfig, nil, Options{})
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			for j := range 20 {
				prompt, want := "hello there", "default"
				if (i+j)%2 == 0 {
					prompt, want = "please prove this theorem", "math"
				}
				_, _, rt, err := routeOf(r, chat("auto", prompt), http.Header{})
				if err != nil || rt.Decision != want {
					t.Errorf("%q: decision %q, err %v; want %q", prompt, rt.Decision, err, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// waitIdle waits until the count of idle workers satisfies ok: a worker counts itself idle
// just after its caller has its results.
func waitIdle(t *testing.T, w *routingWorkers, ok func(int32) bool, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok(w.idle.Load()) {
		if time.Now().After(deadline) {
			t.Fatalf("%d idle workers, want %s", w.idle.Load(), want)
		}
		time.Sleep(time.Millisecond)
	}
}
