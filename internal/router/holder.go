package router

import (
	"sync"
	"sync/atomic"
)

// Holder holds the router that serves new requests, so that a reloaded configuration can
// replace it while requests run: each request acquires the current router and releases it
// when it ends, and a replaced router is closed once its last request has released it.
// It is safe for concurrent use.
type Holder struct {
	cur atomic.Pointer[generation]
}

type generation struct {
	r       *Router
	refs    atomic.Int64
	retired atomic.Bool
	closed  sync.Once
	drained chan struct{}
}

// NewHolder returns a holder serving r.
func NewHolder(r *Router) *Holder {
	h := &Holder{}
	h.cur.Store(&generation{r: r, drained: make(chan struct{})})
	return h
}

// Acquire returns the current router and the function that releases it, which must be
// called exactly once when the request is done with it.
func (h *Holder) Acquire() (*Router, func()) {
	for {
		g := h.cur.Load()
		g.refs.Add(1)
		// A swap between the load and the count would hand out a retired router that
		// might already be closed; take the new one instead.
		if h.cur.Load() == g {
			var once sync.Once
			return g.r, func() { once.Do(g.release) }
		}
		g.release()
	}
}

// Current returns the current router for a quick look (listings, the config API) that
// needs no hold: a closed router still answers those.
func (h *Holder) Current() *Router { return h.cur.Load().r }

// Swap makes r serve new requests and retires the router it replaces, which is closed when
// its last request ends. The returned channel is closed then.
func (h *Holder) Swap(r *Router) <-chan struct{} {
	old := h.cur.Swap(&generation{r: r, drained: make(chan struct{})})
	old.retired.Store(true)
	if old.refs.Load() == 0 {
		old.close()
	}
	return old.drained
}

// Close closes the current router; call it after the listeners have drained.
func (h *Holder) Close() error {
	g := h.cur.Load()
	var err error
	g.closed.Do(func() {
		err = g.r.Close()
		close(g.drained)
	})
	return err
}

func (g *generation) release() {
	if g.refs.Add(-1) == 0 && g.retired.Load() {
		g.close()
	}
}

func (g *generation) close() {
	g.closed.Do(func() {
		_ = g.r.Close()
		close(g.drained)
	})
}
