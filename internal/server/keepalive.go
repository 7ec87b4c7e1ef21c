package server

import (
	"context"
	"net/http"
	"time"

	"github.com/semantic-router/semantic-router/internal/router"
)

var keepAliveComment = []byte(": keep-alive\n\n")

// withKeepAlive returns a next function for s that writes an SSE comment every interval
// while it waits for the upstream's next event, so that proxies and load balancers with
// idle timeouts do not cut a stream whose model is thinking. Clients ignore comments, and
// events still arrive one at a time, in order: the reader asks for the next event only after
// the previous one was handed over. stop must be called before s is closed; it lets the
// reader goroutine exit.
func (h *Inference) withKeepAlive(ctx context.Context, w http.ResponseWriter, rc *http.ResponseController, s *router.Stream, interval time.Duration) (next func() ([]byte, error), stop func()) {
	type result struct {
		data []byte
		err  error
	}
	want, got, done := make(chan struct{}), make(chan result), make(chan struct{})
	go func() {
		for {
			select {
			case <-want:
			case <-done:
				return
			}
			data, err := s.Next()
			select {
			case got <- result{data, err}:
			case <-done: // the handler is gone; Close ends the upstream call
				return
			}
			if err != nil {
				return
			}
		}
	}()
	next = func() ([]byte, error) {
		select {
		case want <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case res := <-got:
				return res.data, res.err
			case <-t.C:
				if _, err := w.Write(keepAliveComment); err != nil {
					return nil, err
				}
				if err := rc.Flush(); err != nil {
					return nil, err
				}
				if h.metrics != nil {
					h.metrics.StreamKeepAlives.Inc()
				}
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	return next, func() { close(done) }
}
