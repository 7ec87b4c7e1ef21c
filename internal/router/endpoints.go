package router

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/semantic-router/semantic-router/internal/balancer"
	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
)

// logKeyEndpoint names an endpoint (a base_url) in log lines.
const logKeyEndpoint = "endpoint"

var policies = map[string]balancer.Policy{
	config.BalanceRoundRobin: balancer.RoundRobin, config.BalanceLeastInFlight: balancer.LeastInFlight, config.BalanceWeighted: balancer.Weighted,
}

// endpointPool is the endpoints of a model that has several, or outlier detection on its one
// base_url. It is the model's, not a provider's: the HTTP listener's calls go through the
// balanced provider over it, and the external processor, where Envoy makes the calls, picks
// with model.endpoint and reports the status Envoy saw. Both therefore eject the same
// endpoints. Its health checks run until Close.
type endpointPool struct {
	*balancer.Pool
	model string
	urls  []string // base URLs, by endpoint index

	mu   sync.Mutex
	stop func() // stops the health checks; nil while none run
}

// newPool returns m's endpoint pool, or nil for a model with one base_url and no outlier
// detection (the config gives every model with endpoints outlier detection by default). It
// starts no health checks: see checkHealth.
func (r *Router) newPool(m config.Model) *endpointPool {
	p := m.Provider
	if p.OutlierDetection == nil {
		return nil
	}
	list := p.EndpointList()
	if len(list) == 0 {
		return nil
	}
	eps := make([]balancer.Endpoint, len(list))
	pool := &endpointPool{model: m.Name, urls: make([]string, len(list))}
	for i, e := range list {
		eps[i] = balancer.Endpoint{ID: e.BaseURL, Weight: e.Weight}
		pool.urls[i] = e.BaseURL
	}
	if r.metrics != nil {
		// Each endpoint's ejection count starts at 0, so that increase() sees the first one.
		for _, url := range pool.urls {
			r.metrics.EndpointEjections.WithLabelValues(m.Name, url)
		}
	}
	od := p.OutlierDetection
	pool.Pool = balancer.New(eps, balancer.Options{
		Policy: policies[p.LoadBalancing], ConsecutiveFailures: od.ConsecutiveFailures,
		EjectionTime: od.EjectionTime.D(), MaxEjectionTime: od.MaxEjectionTime.D(),
		OnEject: func(id string, d time.Duration) {
			r.log.Warn("endpoint ejected", LogKeyModel, m.Name, logKeyEndpoint, id, "for_ms", d.Milliseconds())
			if r.metrics != nil {
				r.metrics.EndpointEjections.WithLabelValues(m.Name, id).Inc()
			}
		},
	})
	return pool
}

// healthProbe is how the health checks reach an endpoint: the model's transport and key.
type healthProbe struct {
	client *http.Client
	apiKey func() (string, error)
}

// checkHealth starts p's health checks, when hc asks for them, probing with probe. It does
// nothing on a nil pool or one whose checks already run.
func (r *Router) checkHealth(p *endpointPool, hc *config.HealthCheck, probe healthProbe) {
	if p == nil || hc == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop != nil {
		return
	}
	p.stop = p.StartHealthChecks(balancer.HealthCheck{
		Interval: hc.Interval.D(), Timeout: hc.Timeout.D(), Path: hc.Path, Client: probe.client, Token: probe.apiKey,
		OnChange: func(id string, err error) {
			if err != nil {
				r.log.Warn("endpoint health check failed", LogKeyModel, p.model, logKeyEndpoint, id, LogKeyError, err.Error())
				return
			}
			r.log.Info("endpoint health check passed", LogKeyModel, p.model, logKeyEndpoint, id)
		},
	})
}

// checkHealthWithoutProvider starts the health checks of a model that has no provider (a
// PlanOnly router, whose calls Envoy makes): they get a transport and key of their own.
// That router needs no model credentials, so a key or CA bundle it cannot read turns the
// checks off, with a warning, rather than failing: probes without the key would fail on a
// server that wants one and eject healthy endpoints. Outlier detection still works on the
// outcomes that Envoy reports.
func (r *Router) checkHealthWithoutProvider(m *model) {
	p := m.cfg.Provider
	if m.pool == nil || p.HealthCheck == nil {
		return
	}
	probe, err := r.ownProbe(m.cfg)
	if err != nil {
		r.log.Warn("endpoint health checks off", LogKeyModel, m.cfg.Name, LogKeyError, err.Error())
		return
	}
	r.checkHealth(m.pool, p.HealthCheck, probe)
}

// ownProbe builds a health-check client and key getter for m as its provider would: the
// same connect timeout, CA bundle and API key.
func (r *Router) ownProbe(m config.Model) (healthProbe, error) {
	p := m.Provider
	topts := transport.Options{ConnectTimeout: m.ConnectTimeout.D(), H2C: p.H2C}
	if !p.CACertPEM.IsZero() {
		src, err := r.secrets.Open(string(p.CACertPEM))
		if err != nil {
			return healthProbe{}, fmt.Errorf("provider.ca_cert_pem %s: %w", p.CACertPEM, err)
		}
		pem, _ := src.Value()
		_ = src.Close() // read once: a transport's roots are fixed when it is built
		topts.CACertPEM = []byte(pem)
	}
	t, err := transport.New(topts)
	if err != nil {
		return healthProbe{}, fmt.Errorf("provider.%w", err)
	}
	probe := healthProbe{client: transport.NewClient(t)}
	if !p.APIKey.IsZero() {
		src, err := r.secrets.OpenToken(string(p.APIKey))
		if err != nil {
			return healthProbe{}, fmt.Errorf("provider.api_key %s: %w", p.APIKey, err)
		}
		probe.apiKey = src.Value
	}
	return probe, nil
}

// close stops the health checks and waits for them. It is safe on a nil pool.
func (p *endpointPool) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	stop := p.stop
	p.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// status reports the endpoints' states for the management API; nil for a nil pool.
func (p *endpointPool) status() []balancer.Status {
	if p == nil {
		return nil
	}
	return p.Status()
}

// pick chooses an endpoint, or explains why there is none. The caller reports the call's
// end with Done.
func (p *endpointPool) pick() (int, error) {
	i, err := p.Pick()
	if err != nil {
		return -1, &provider.Error{Kind: provider.KindConnect, Model: p.model, Err: err,
			Message: err.Error() + " (provider.outlier_detection)"}
	}
	return i, nil
}

// endpoint picks the base URL a planned request goes to, and returns the function that reports
// how the call went (from the response status Envoy reports). Models with one base_url return it and a no-op.
//
// report must be called once for every pick that succeeded, when the call ends: with the
// answer's status (and the error that cut the answer short, if any), or with status 0 and
// the error when no answer came. Until then the endpoint counts the call as in flight.
// Later calls of report do nothing. When every endpoint is ejected, err is a
// *provider.Error of KindConnect that says when the first returns, and report is a no-op.
func (m *model) endpoint() (baseURL string, report func(status int, err error), err error) {
	if m.pool == nil {
		return m.cfg.Provider.BaseURL, func(int, error) {}, nil
	}
	i, err := m.pool.pick()
	if err != nil {
		return "", func(int, error) {}, err
	}
	var once sync.Once
	return m.pool.urls[i], func(status int, err error) {
		once.Do(func() { m.pool.Done(i, statusOutcome(status, err)) })
	}, nil
}

// statusOutcome is outcome for a call the router did not make: what the answer's status,
// and the error that ended the call if any, tell about the endpoint. 5xx is a failure and
// 4xx neutral, whatever the error; a call that ended with an error and no answer failed
// before one (a connection refused, a reset), unless the client went away; 2xx without an
// error succeeded; any other status (1xx, or a redirect, which the router never follows)
// is not an answer and fails.
func statusOutcome(status int, err error) balancer.Outcome {
	switch {
	case status >= 500:
		return balancer.Failure
	case status >= 400:
		return balancer.Neutral
	case err != nil:
		var pe *provider.Error
		if errors.As(err, &pe) {
			return outcome(context.Background(), err)
		}
		if errors.Is(err, context.Canceled) {
			return balancer.Neutral
		}
		return balancer.Failure
	case status >= 200 && status < 300:
		return balancer.Success
	case status == 0:
		return balancer.Neutral // nothing is known of the call
	}
	return balancer.Failure
}
