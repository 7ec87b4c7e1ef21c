package router

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/semantic-router/semantic-router/internal/balancer"
	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// balanced is a provider over the endpoints of one model: each call goes to the endpoint the
// model's pool picks, and its outcome is reported back so that failing endpoints are
// ejected. Providers stay unaware of it: each endpoint is an ordinary provider. The pool is
// the model's own (see endpointPool), shared with the external processor's picks.
type balanced struct {
	name string
	pool *endpointPool
	eps  []provider.Provider
}

// newBalanced builds one provider per endpoint of m with build, over the pool that New gave
// m, and starts the pool's health checks with probe, the transport and key of m's provider.
func (r *Router) newBalanced(m config.Model, build func(baseURL string) (provider.Provider, error), probe healthProbe) (*balanced, error) {
	rm := r.models[m.Name]
	if rm == nil || rm.pool == nil {
		return nil, fmt.Errorf("model %q has no endpoint pool", m.Name) // a bug: New builds the pool first
	}
	b := &balanced{name: m.Name, pool: rm.pool, eps: make([]provider.Provider, len(rm.pool.urls))}
	for i, u := range rm.pool.urls {
		p, err := build(u)
		if err != nil {
			return nil, err
		}
		b.eps[i] = p
	}
	r.checkHealth(rm.pool, m.Provider.HealthCheck, probe)
	return b, nil
}

// attempts is how many endpoints a call may try: a connection that could not be made sent
// nothing, so another endpoint may take the call at once, without waiting for a retry.
func (b *balanced) attempts() int { return b.pool.Len() }

// ChatCompletion implements provider.Provider.
func (b *balanced) ChatCompletion(ctx context.Context, req *openai.ChatRequest) (*provider.Response, error) {
	var err error
	for range b.attempts() {
		var i int
		if i, err = b.pool.pick(); err != nil {
			return nil, err
		}
		var resp *provider.Response
		resp, err = b.eps[i].ChatCompletion(ctx, req)
		b.pool.Done(i, outcome(ctx, err))
		if !unreachable(err) || ctx.Err() != nil {
			return resp, err
		}
	}
	return nil, err
}

// ChatCompletionStream implements provider.Provider.
func (b *balanced) ChatCompletionStream(ctx context.Context, req *openai.ChatRequest) (provider.Stream, error) {
	var err error
	for range b.attempts() {
		var i int
		if i, err = b.pool.pick(); err != nil {
			return nil, err
		}
		var s provider.Stream
		if s, err = b.eps[i].ChatCompletionStream(ctx, req); err == nil {
			return &balancedStream{Stream: s, pool: b.pool, i: i, ctx: ctx}, nil
		}
		b.pool.Done(i, outcome(ctx, err))
		if !unreachable(err) || ctx.Err() != nil {
			return nil, err
		}
	}
	return nil, err
}

func unreachable(err error) bool {
	var pe *provider.Error
	return errors.As(err, &pe) && pe.Kind == provider.KindConnect
}

// outcome says what a call's result tells about the endpoint's health. A call the client
// abandoned tells nothing; one the router cut short at its first_token_timeout or
// stream_idle_timeout is a failure, as a hung endpoint must be ejected.
func outcome(ctx context.Context, err error) balancer.Outcome {
	if err == nil {
		return balancer.Success
	}
	if ctx.Err() != nil {
		if routerTimeout(context.Cause(ctx)) {
			return balancer.Failure
		}
		return balancer.Neutral
	}
	var pe *provider.Error
	if !errors.As(err, &pe) || errors.As(err, new(*provider.ModelOutputError)) {
		return balancer.Neutral // the endpoint answered: what the model wrote is not its health
	}
	switch pe.Kind {
	case provider.KindConnect, provider.KindTLS, provider.KindTimeout, provider.KindUpstream, provider.KindProtocol:
		return balancer.Failure
	}
	return balancer.Neutral
}

// balancedStream reports the stream's outcome to the pool when it is closed.
type balancedStream struct {
	provider.Stream
	pool   *endpointPool
	i      int
	ctx    context.Context
	result balancer.Outcome
	failed bool
	once   sync.Once
}

func (s *balancedStream) Next() ([]byte, error) {
	data, err := s.Stream.Next()
	switch {
	case err == nil:
	case errors.Is(err, io.EOF):
		s.result = balancer.Success
	default:
		s.result = outcome(s.ctx, err)
	}
	return data, err
}

// Buffered tells whether the endpoint's next event has arrived (Stream.Buffered).
func (s *balancedStream) Buffered() bool { return upstreamBuffered(s.Stream) }

// fail records that the router refused what the endpoint sent (an event that is not JSON):
// a failure, whatever the stream's end looks like.
func (s *balancedStream) fail() { s.failed = true }

func (s *balancedStream) Close() error {
	err := s.Stream.Close()
	s.once.Do(func() {
		if s.failed {
			s.result = balancer.Failure
		}
		s.pool.Done(s.i, s.result)
	})
	return err
}

var (
	_ provider.Provider = (*balanced)(nil)
	_ provider.Stream   = (*balancedStream)(nil)
)
