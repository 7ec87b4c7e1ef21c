package balancer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// HealthCheck probes the endpoints of a pool actively: every Interval, each endpoint gets a
// GET of its ID (a base URL) followed by Path. A 2xx answer within Timeout is healthy and
// returns an ejected endpoint to rotation at once; anything else counts as a failure
// towards ejection (see Pool.Probe).
type HealthCheck struct {
	// Interval between two probes of one endpoint; the first probe comes one interval after
	// the start. Zero or less runs no probes.
	Interval time.Duration
	// Timeout bounds one probe, answer included. Zero or less takes Interval.
	Timeout time.Duration
	// Path is appended to each endpoint's ID, such as "/models".
	Path string
	// Client sends the probes; nil uses one with the default transport. Redirects are
	// answers like any other: a client that follows them probes where they lead.
	Client *http.Client
	// Token returns the bearer token that each probe carries; it is called for every probe,
	// so a rotated credential applies to the next one. Nil sends no Authorization header; a
	// token that cannot be read fails the probe.
	Token func() (string, error)
	// OnChange, if set, is called when an endpoint's probes change verdict: with the
	// reason when a probe fails after a healthy one (or as the first), with nil when one
	// passes after a failed one. It runs on the endpoint's probing goroutine.
	OnChange func(id string, err error)
}

// maxProbeBody is how much of a probe's answer is read, so that the connection can be
// reused; the rest is dropped with the connection.
const maxProbeBody = 64 << 10

// StartHealthChecks probes every endpoint of p as hc says, one goroutine per endpoint,
// until stop is called. stop cancels the probes in flight and waits for the goroutines; it
// is safe to call more than once, and from several goroutines.
func (p *Pool) StartHealthChecks(hc HealthCheck) (stop func()) {
	if hc.Interval <= 0 {
		return func() {}
	}
	if hc.Timeout <= 0 {
		hc.Timeout = hc.Interval
	}
	if hc.Client == nil {
		hc.Client = &http.Client{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, e := range p.eps {
		wg.Go(func() { p.healthLoop(ctx, i, e.ID, hc) })
	}
	return func() {
		cancel()
		wg.Wait()
	}
}

// healthLoop probes endpoint i, whose ID is id, every interval until ctx ends. A probe cut
// short by the stop is not recorded: it says nothing about the endpoint.
func (p *Pool) healthLoop(ctx context.Context, i int, id string, hc HealthCheck) {
	t := time.NewTicker(hc.Interval)
	defer t.Stop()
	healthy := true // as the endpoint is taken to be before any probe
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		err := probe(ctx, id+hc.Path, hc)
		if ctx.Err() != nil {
			return
		}
		p.Probe(i, err == nil)
		if (err == nil) != healthy && hc.OnChange != nil {
			hc.OnChange(id, err)
		}
		healthy = err == nil
	}
}

// errUnhealthy is the cause of a probe answered with a status other than 2xx.
var errUnhealthy = errors.New("unhealthy answer")

// probe sends one health check to url. It returns nil when the endpoint is healthy, else
// why not.
func probe(ctx context.Context, url string, hc HealthCheck) error {
	ctx, cancel := context.WithTimeout(ctx, hc.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	if hc.Token != nil {
		token, err := hc.Token()
		if err != nil {
			return fmt.Errorf("probe token: %w", err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Client.Do(req)
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxProbeBody))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("probe: %w: %s", errUnhealthy, resp.Status)
	}
	return nil
}
