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
// the previous one was handed over. stop must be called before s is closed or its usage
// read: it aborts the upstream call if the reader is still waiting on it, and returns once
// the reader goroutine has exited, so that nothing touches s concurrently afterwards.
func (h *Inference) withKeepAlive(ctx context.Context, w http.ResponseWriter, rc *http.ResponseController, s *router.Stream, interval time.Duration) (next func() ([]byte, error), stop func()) {
	type result struct {
		data []byte
		err  error
	}
	want, got, done, exited := make(chan struct{}), make(chan result), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		for {
			select {
			case <-want:
			case <-done:
				return
			}
			data, err := s.Next()
			select {
			case got <- result{data, err}:
			case <-done: // the handler is gone
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
	return next, func() {
		close(done)
		s.Abort() // a reader blocked in Next returns; one that is not ignores it
		<-exited
	}
}
