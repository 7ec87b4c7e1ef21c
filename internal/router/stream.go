package router

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// Stream is a routed streamed answer whose first chunk has already arrived. It enforces the
// model's stream_idle_timeout, records the upstream time and token usage, and its errors are
// *openai.APIError. It is not safe for concurrent use, except Close.
type Stream struct {
	r            *Router
	model        string
	s            provider.Stream
	start        time.Time
	cancel       context.CancelFunc // cancels this model's call
	budgetCancel context.CancelFunc // cancels the request budget; set by Router.Stream
	first        []byte             // the first chunk, not yet returned
	eof          bool               // the upstream ended before its first chunk

	idle      time.Duration
	idleTimer *time.Timer
	idleFired atomic.Bool

	closed sync.Once
	err    error
	usage  *openai.Usage // from the chunk that carried it
}

// Usage returns the token usage the stream reported (with stream_options.include_usage), or
// nil.
func (s *Stream) Usage() *openai.Usage { return s.usage }

var usageKey = []byte(`"usage":{`)

// openStream starts a stream on m and waits for its first chunk, within the model's
// first_token_timeout when one is set.
func (r *Router) openStream(ctx context.Context, m *model, req *openai.ChatRequest) (*Stream, error) {
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	// The first-token clock runs from the request: a backend that never sends its headers
	// is as late as one that sends no event.
	var ttftFired atomic.Bool
	if ttft := m.cfg.FirstTokenTimeout.D(); ttft > 0 {
		t := time.AfterFunc(ttft, func() { ttftFired.Store(true); cancel() })
		defer t.Stop()
	}
	timedOut := func(err error) error {
		if !ttftFired.Load() {
			return err
		}
		return &provider.Error{Kind: provider.KindTimeout, Model: m.cfg.Name, Err: err,
			Message: fmt.Sprintf("no first event within %s (first_token_timeout)", m.cfg.FirstTokenTimeout)}
	}
	s, err := m.provider.ChatCompletionStream(ctx, req)
	if err != nil {
		cancel()
		return nil, timedOut(err)
	}
	st := &Stream{r: r, model: m.cfg.Name, s: s, start: start, cancel: cancel, idle: m.cfg.StreamIdleTimeout.D()}
	first, err := s.Next()
	switch {
	case errors.Is(err, io.EOF):
		st.eof = true
	case err != nil:
		_ = s.Close()
		cancel()
		return nil, timedOut(err)
	default:
		st.first = first
		st.usage = r.observeUsage(m.cfg.Name, first)
	}
	if r.metrics != nil {
		r.metrics.TimeToFirstToken.WithLabelValues(m.cfg.Name).Observe(time.Since(start).Seconds())
	}
	r.inFlight(m.cfg.Name, 1) // for the stream's life; Close takes it back
	return st, nil
}

// Next returns the next chunk's JSON, valid until the next call, or io.EOF at the end.
func (s *Stream) Next() ([]byte, error) {
	if s.first != nil {
		first := s.first
		s.first = nil
		return first, nil
	}
	if s.eof {
		return nil, io.EOF
	}
	if s.idle > 0 {
		if s.idleTimer == nil {
			s.idleTimer = time.AfterFunc(s.idle, func() { s.idleFired.Store(true); s.cancel() })
		} else {
			s.idleTimer.Reset(s.idle)
		}
	}
	data, err := s.s.Next()
	if s.idleTimer != nil {
		s.idleTimer.Stop()
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			s.eof = true
			return nil, io.EOF
		}
		if s.idleFired.Load() {
			err = &provider.Error{Kind: provider.KindTimeout, Model: s.model, Err: err,
				Message: fmt.Sprintf("no event for %s (stream_idle_timeout)", s.idle)}
		}
		s.err = err
		return nil, s.r.apiError(s.model, err)
	}
	if u := s.r.observeUsage(s.model, data); u != nil {
		s.usage = u
	}
	return data, nil
}

// observeUsage counts the tokens of a chunk that carries usage (the last one, with
// stream_options.include_usage); other chunks are not decoded.
func (r *Router) observeUsage(model string, data []byte) *openai.Usage {
	if !bytes.Contains(data, usageKey) {
		return nil
	}
	var c struct {
		Usage *openai.Usage `json:"usage"`
	}
	if json.Unmarshal(data, &c) != nil {
		return nil
	}
	r.countTokens(model, c.Usage)
	return c.Usage
}

// Abort cancels the upstream call. Unlike Close it may be called while another goroutine is
// in Next, which then returns an error; Close must still be called, after Next returned.
func (s *Stream) Abort() { s.cancel() }

// Close ends the stream, cancels the upstream call if it is still running, and records the
// outcome. It is safe to call more than once.
func (s *Stream) Close() error {
	var err error
	s.closed.Do(func() {
		if s.idleTimer != nil {
			s.idleTimer.Stop()
		}
		err = s.s.Close()
		s.cancel()
		if s.budgetCancel != nil {
			s.budgetCancel()
		}
		s.r.observeUpstream(s.model, s.start, s.err)
		s.r.inFlight(s.model, -1)
	})
	return err
}
