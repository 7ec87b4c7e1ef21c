package router

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/semantic-router/semantic-router/internal/balancer"
	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// balanced is a provider over several endpoints of one model: each call goes to the
// endpoint the pool picks, and its outcome is reported back so that failing endpoints are
// ejected. Providers stay unaware of it: each endpoint is an ordinary provider.
type balanced struct {
	name string
	pool *balancer.Pool
	eps  []provider.Provider

	stop context.CancelFunc // stops the health checks
	wg   sync.WaitGroup
}

var policies = map[string]balancer.Policy{
	config.BalanceRoundRobin: balancer.RoundRobin, config.BalanceLeastInFlight: balancer.LeastInFlight, config.BalanceWeighted: balancer.Weighted,
}

// healthProbe is how the health checks reach an endpoint: the model's transport and key.
type healthProbe struct {
	client *http.Client
	apiKey func() (string, error)
}

// newBalanced builds one provider per endpoint of m with build, and starts the health checks
// when m has them.
func (r *Router) newBalanced(m config.Model, build func(baseURL string) (provider.Provider, error), probe healthProbe) (*balanced, error) {
	p := m.Provider
	list := p.EndpointList()
	eps := make([]balancer.Endpoint, len(list))
	b := &balanced{name: m.Name, eps: make([]provider.Provider, len(list))}
	for i, e := range list {
		pr, err := build(e.BaseURL)
		if err != nil {
			return nil, err
		}
		b.eps[i] = pr
		eps[i] = balancer.Endpoint{ID: e.BaseURL, Weight: e.Weight}
	}
	od := p.OutlierDetection
	b.pool = balancer.New(eps, balancer.Options{
		Policy: policies[p.LoadBalancing], ConsecutiveFailures: od.ConsecutiveFailures,
		EjectionTime: od.EjectionTime.D(), MaxEjectionTime: od.MaxEjectionTime.D(),
		OnEject: func(id string, d time.Duration) {
			r.log.Warn("endpoint ejected", LogKeyModel, m.Name, "endpoint", id, "for_ms", d.Milliseconds())
			if r.metrics != nil {
				r.metrics.EndpointEjections.WithLabelValues(m.Name, id).Inc()
			}
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	b.stop = cancel
	if hc := p.HealthCheck; hc != nil {
		for i, e := range list {
			b.wg.Add(1)
			go func() {
				defer b.wg.Done()
				b.healthLoop(ctx, i, e.BaseURL+hc.Path, hc, probe)
			}()
		}
	}
	return b, nil
}

// healthLoop probes one endpoint every interval until ctx ends.
func (b *balanced) healthLoop(ctx context.Context, i int, url string, hc *config.HealthCheck, probe healthProbe) {
	t := time.NewTicker(hc.Interval.D())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		healthy := probeOnce(ctx, url, hc.Timeout.D(), probe)
		if ctx.Err() != nil {
			return
		}
		b.pool.Probe(i, healthy)
	}
}

func probeOnce(ctx context.Context, url string, timeout time.Duration, probe healthProbe) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	if probe.apiKey != nil {
		key, err := probe.apiKey()
		if err != nil {
			return false
		}
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := probe.client.Do(req)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	return resp.StatusCode >= 200 && resp.StatusCode < 300
}

// Close stops the health checks and waits for them.
func (b *balanced) Close() error {
	b.stop()
	b.wg.Wait()
	return nil
}

// pick chooses an endpoint, or explains why there is none.
func (b *balanced) pick() (int, error) {
	i, err := b.pool.Pick()
	if err != nil {
		return -1, &provider.Error{Kind: provider.KindConnect, Model: b.name, Err: err,
			Message: err.Error() + " (provider.outlier_detection)"}
	}
	return i, nil
}

// attempts is how many endpoints a call may try: a connection that could not be made sent
// nothing, so another endpoint may take the call at once, without waiting for a retry.
func (b *balanced) attempts() int { return b.pool.Len() }

// ChatCompletion implements provider.Provider.
func (b *balanced) ChatCompletion(ctx context.Context, req *openai.ChatRequest) (*provider.Response, error) {
	var err error
	for range b.attempts() {
		var i int
		if i, err = b.pick(); err != nil {
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
		if i, err = b.pick(); err != nil {
			return nil, err
		}
		var s provider.Stream
		if s, err = b.eps[i].ChatCompletionStream(ctx, req); err == nil {
			return &balancedStream{Stream: s, b: b, i: i, ctx: ctx}, nil
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
	if !errors.As(err, &pe) {
		return balancer.Neutral
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
	b      *balanced
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

// fail records that the router refused what the endpoint sent (an event that is not JSON):
// a failure, whatever the stream's end looks like.
func (s *balancedStream) fail() { s.failed = true }

func (s *balancedStream) Close() error {
	err := s.Stream.Close()
	s.once.Do(func() {
		if s.failed {
			s.result = balancer.Failure
		}
		s.b.pool.Done(s.i, s.result)
	})
	return err
}

// endpointStatus reports the endpoints of a balanced model, or nil.
func endpointStatus(p provider.Provider) []balancer.Status {
	if b, ok := p.(*balanced); ok {
		return b.pool.Status()
	}
	return nil
}

var (
	_ provider.Provider = (*balanced)(nil)
	_ provider.Stream   = (*balancedStream)(nil)
)
