package router

import (
	"testing"

	"github.com/semantic-router/semantic-router/internal/config"
)

func newSimRouter(t *testing.T) *Router {
	t.Helper()
	cfg, err := config.Parse([]byte("models:\n  - model_name: m\n    provider: {type: sim}\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestHolderClosesARetiredRouterAfterItsLastRequest: a swap hands new requests to the new
// router at once, and the old one is closed only when the requests holding it are done.
func TestHolderClosesARetiredRouterAfterItsLastRequest(t *testing.T) {
	t.Parallel()
	first, second, third := newSimRouter(t), newSimRouter(t), newSimRouter(t)
	h := NewHolder(first)
	got1, release1 := h.Acquire()
	got2, release2 := h.Acquire()
	if got1 != first || got2 != first {
		t.Fatal("Acquire did not return the current router")
	}
	drained := h.Swap(second)
	if got, release := h.Acquire(); got != second {
		t.Error("a request after the swap got the old router")
	} else {
		release()
	}
	if h.Current() != second {
		t.Error("Current is not the new router")
	}
	release1()
	release1() // a second call is harmless
	if closed(drained) {
		t.Fatal("the old router closed while a request still held it")
	}
	release2()
	if !closed(drained) {
		t.Fatal("the old router was not closed after its last request")
	}
	// A router with nothing in flight closes at the swap.
	if !closed(h.Swap(third)) {
		t.Error("an idle router was not closed at the swap")
	}
	if err := h.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}
