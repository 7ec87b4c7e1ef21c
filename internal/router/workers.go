package router

import (
	"context"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/semantic-router/semantic-router/internal/decision"
	"github.com/semantic-router/semantic-router/internal/openai"
)

// Routing with signals runs on goroutines of its own, not on the client connection's.
//
// A goroutine's stack doubles when a call needs more room, and a connection's goroutine
// keeps what it grew to for as long as the connection lives: a held stream keeps it for
// minutes. Without signals a request fits in the 8 KiB a connection starts with
// (TestRequestPathFitsEightKiBStack). The signals do not, and cannot be made to: their
// depth depends on the detectors and, under them, on the regular expression matcher, which
// recurses once per alternative it follows. So the connection hands the signals and the
// decisions to a routing worker, waits, and keeps its small stack; the workers' stacks grow
// once and serve request after request.
//
// A call takes an idle worker or starts one, so a remote embedder that keeps a worker
// waiting holds up no other request. Up to maxIdle workers stay for the next calls; one more
// exits when its call is done, and every idle worker exits when the router is closed.
type routingWorkers struct {
	calls chan *decideCall
	// idle counts the workers waiting for a call and not yet claimed by one: a caller that
	// takes one from it sends to calls, where that worker (or another) receives.
	idle    atomic.Int32
	maxIdle int32
	quit    chan struct{}
	once    sync.Once
	pool    sync.Pool // *decideCall
}

func newRoutingWorkers() *routingWorkers {
	// Signals are computed on the CPU, so more idle workers than processors would wait in
	// vain, save for calls that wait for a remote embedder.
	n := int32(max(4, 2*runtime.GOMAXPROCS(0))) //nolint:gosec // a small count
	return &routingWorkers{calls: make(chan *decideCall), maxIdle: n, quit: make(chan struct{})}
}

// decideCall is one call of Router.decide, its arguments and its results.
type decideCall struct {
	// run is what the worker runs: (*decideCall).decide but in tests.
	run     func(*decideCall)
	r       *Router
	ctx     context.Context
	req     *openai.ChatRequest
	h       http.Header
	names   map[string]bool
	direct  bool
	res     *decision.Result
	rt      *Route
	matched bool
	sigErr  error
	// panicked is what run panicked with, if it did: do panics with it on the caller's
	// goroutine, where the server recovers it as it would any request's.
	panicked any
	done     chan struct{}
}

func (c *decideCall) decide() {
	c.matched, c.sigErr = c.r.decide(c.ctx, c.req, c.h, c.names, c.direct, c.res, c.rt)
}

// decide runs r.decide on a routing worker and returns its results.
func (w *routingWorkers) decide(r *Router, ctx context.Context, req *openai.ChatRequest, h http.Header, names map[string]bool,
	direct bool, res *decision.Result, rt *Route) (bool, error) {
	c := w.call()
	c.run, c.r, c.ctx, c.req, c.h, c.names, c.direct, c.res, c.rt = (*decideCall).decide, r, ctx, req, h, names, direct, res, rt
	w.do(c)
	matched, err := c.matched, c.sigErr
	w.release(c)
	return matched, err
}

// call returns a call to fill, from the pool.
func (w *routingWorkers) call() *decideCall {
	if c, ok := w.pool.Get().(*decideCall); ok {
		return c
	}
	return &decideCall{done: make(chan struct{}, 1)}
}

// release clears c and returns it to the pool.
func (w *routingWorkers) release(c *decideCall) {
	*c = decideCall{done: c.done}
	w.pool.Put(c)
}

// do hands c to an idle worker, or to a new one, and waits until it has run.
func (w *routingWorkers) do(c *decideCall) {
	if w.claim() {
		w.calls <- c
	} else {
		go w.work(c)
	}
	<-c.done
	if p := c.panicked; p != nil {
		w.release(c)
		panic(p)
	}
}

// work runs c, then the calls that claim it while it waits, until there are idle workers
// enough or the router is closed.
func (w *routingWorkers) work(c *decideCall) {
	for {
		c.runRecovered()
		c.done <- struct{}{}
		if !w.rest() {
			return
		}
		select {
		case c = <-w.calls:
			continue
		case <-w.quit:
		}
		if w.claim() {
			return
		}
		// A caller claimed a worker before this one could leave: it is sending its call.
		c = <-w.calls
	}
}

// runRecovered runs c, keeping a panic for the caller: a worker serves request after
// request, and one request's failure must not end the process.
func (c *decideCall) runRecovered() {
	defer func() {
		if p := recover(); p != nil {
			c.panicked = p
		}
	}()
	c.run(c)
}

// rest counts the worker as idle unless maxIdle already are.
func (w *routingWorkers) rest() bool {
	for {
		n := w.idle.Load()
		if n >= w.maxIdle {
			return false
		}
		if w.idle.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// claim takes one idle worker from the count; false when none is idle.
func (w *routingWorkers) claim() bool {
	for {
		n := w.idle.Load()
		if n <= 0 {
			return false
		}
		if w.idle.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

// close makes every idle worker exit; a busy one exits once it is idle.
func (w *routingWorkers) close() { w.once.Do(func() { close(w.quit) }) }
