// Package balancer spreads the calls of one model over its endpoints and keeps failing
// endpoints out of rotation for a while (passive outlier ejection), and probes them over HTTP
// when asked to (active health checks, health.go). The pool itself does no I/O and knows no
// configuration types; its clock is replaceable in tests. Whoever makes the calls (the
// router's providers, or Envoy for the router's external processor) reports each outcome
// back.
package balancer

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// Policy chooses among the endpoints in rotation.
type Policy int

// Policies.
const (
	// RoundRobin takes the endpoints in turn.
	RoundRobin Policy = iota
	// LeastInFlight takes the endpoint with the fewest calls running, in turn among equals.
	LeastInFlight
	// Weighted takes each endpoint in proportion to its weight, interleaved smoothly (a
	// weight-3 and a weight-1 endpoint go a, a, b, a rather than a, a, a, b).
	Weighted
)

// Outcome is what a call on an endpoint says about the endpoint's health.
type Outcome int

// Outcomes.
const (
	// Neutral says nothing: the client went away, or the request itself was wrong.
	Neutral Outcome = iota
	// Success forgives every past failure.
	Success
	// Failure counts towards ejection.
	Failure
)

// Endpoint is one endpoint of a pool.
type Endpoint struct {
	// ID names the endpoint (its base URL) in Status.
	ID string
	// Weight is its share under Weighted; less than 1 counts as 1.
	Weight int
}

// Options configure a pool. The zero value is round robin without ejection.
type Options struct {
	Policy Policy
	// ConsecutiveFailures ejects an endpoint; 0 never ejects.
	ConsecutiveFailures int
	// EjectionTime is the first ejection's length; each ejection in a row doubles it, up to
	// MaxEjectionTime.
	EjectionTime    time.Duration
	MaxEjectionTime time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// OnEject is called, under the pool's lock, when an endpoint is ejected; it must not
	// block or call the pool.
	OnEject func(id string, d time.Duration)
}

// ErrAllEjected is returned by Pick when every endpoint is ejected.
var ErrAllEjected = errors.New("every endpoint is ejected")

// AllEjectedError says when the first endpoint returns. It wraps ErrAllEjected.
type AllEjectedError struct{ RetryIn time.Duration }

func (e *AllEjectedError) Error() string {
	return fmt.Sprintf("%v after consecutive failures; the first returns in %s", ErrAllEjected, e.RetryIn.Round(time.Millisecond))
}

// Unwrap returns ErrAllEjected.
func (e *AllEjectedError) Unwrap() error { return ErrAllEjected }

// Status is an endpoint's state, for the management API.
type Status struct {
	ID                  string    `json:"base_url"`
	Weight              int       `json:"weight"`
	InFlight            int       `json:"in_flight"`
	ConsecutiveFailures int       `json:"consecutive_failures"`
	Ejected             bool      `json:"ejected"`
	EjectedUntil        time.Time `json:"ejected_until,omitzero"`
}

type endpoint struct {
	Endpoint
	inFlight     int
	failures     int
	ejections    int  // ejections in a row, for the doubling
	probation    bool // back from an ejection and not yet forgiven: one failure ejects again
	ejectedUntil time.Time
	current      int // smooth weighted round robin state
}

// Pool is the endpoints of one model. It is safe for concurrent use.
type Pool struct {
	opts Options
	mu   sync.Mutex
	eps  []*endpoint
	next int // round robin position
}

// New returns a pool of eps, which must not be empty.
func New(eps []Endpoint, o Options) *Pool {
	if o.Now == nil {
		o.Now = time.Now
	}
	p := &Pool{opts: o, eps: make([]*endpoint, len(eps))}
	for i, e := range eps {
		e.Weight = max(e.Weight, 1)
		p.eps[i] = &endpoint{Endpoint: e}
	}
	return p
}

// Len returns the number of endpoints.
func (p *Pool) Len() int { return len(p.eps) }

// Pick chooses an endpoint in rotation and counts a call on it; the caller must report the
// call's end with Done. It fails with *AllEjectedError when every endpoint is ejected.
func (p *Pool) Pick() (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.opts.Now()
	n := len(p.eps)
	best := -1
	switch p.opts.Policy {
	case Weighted:
		total := 0
		for i, e := range p.eps {
			if e.ejected(now) {
				continue
			}
			e.current += e.Weight
			total += e.Weight
			if best < 0 || e.current > p.eps[best].current {
				best = i
			}
		}
		if best >= 0 {
			p.eps[best].current -= total
		}
	default:
		for k := range n {
			i := (p.next + k) % n
			e := p.eps[i]
			if e.ejected(now) {
				continue
			}
			if best < 0 || (p.opts.Policy == LeastInFlight && e.inFlight < p.eps[best].inFlight) {
				best = i
			}
			if p.opts.Policy == RoundRobin {
				break
			}
		}
		if best >= 0 {
			p.next = (best + 1) % n
		}
	}
	if best < 0 {
		first := p.eps[0].ejectedUntil
		for _, e := range p.eps[1:] {
			if e.ejectedUntil.Before(first) {
				first = e.ejectedUntil
			}
		}
		return -1, &AllEjectedError{RetryIn: first.Sub(now)}
	}
	p.eps[best].inFlight++
	return best, nil
}

// Done ends a call counted by Pick and records its outcome.
func (p *Pool) Done(i int, o Outcome) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.eps[i]
	e.inFlight--
	p.record(e, o)
}

// Probe records the result of an active health check of endpoint i: a good probe returns an
// ejected endpoint to rotation at once, on probation; a bad one counts as a failure.
func (p *Pool) Probe(i int, healthy bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.eps[i]
	if !healthy {
		p.record(e, Failure)
		return
	}
	if e.ejected(p.opts.Now()) {
		e.ejectedUntil = time.Time{}
	}
}

func (p *Pool) record(e *endpoint, o Outcome) {
	switch o {
	case Success:
		e.failures, e.ejections, e.probation = 0, 0, false
	case Failure:
		now := p.opts.Now()
		if p.opts.ConsecutiveFailures <= 0 || e.ejected(now) {
			return // calls that started before the ejection add nothing
		}
		e.failures++
		if e.failures < p.opts.ConsecutiveFailures && !e.probation {
			return
		}
		d := p.opts.EjectionTime << min(e.ejections, 30)
		if d <= 0 || (p.opts.MaxEjectionTime > 0 && d > p.opts.MaxEjectionTime) {
			d = p.opts.MaxEjectionTime
		}
		e.ejections++
		e.failures, e.probation = 0, true
		e.ejectedUntil = now.Add(d)
		if p.opts.OnEject != nil {
			p.opts.OnEject(e.ID, d)
		}
	}
}

func (e *endpoint) ejected(now time.Time) bool { return now.Before(e.ejectedUntil) }

// Status reports every endpoint's state, in configuration order.
func (p *Pool) Status() []Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.opts.Now()
	out := make([]Status, len(p.eps))
	for i, e := range p.eps {
		out[i] = Status{ID: e.ID, Weight: e.Weight, InFlight: e.inFlight, ConsecutiveFailures: e.failures, Ejected: e.ejected(now)}
		if out[i].Ejected {
			out[i].EjectedUntil = e.ejectedUntil
		}
	}
	return out
}
