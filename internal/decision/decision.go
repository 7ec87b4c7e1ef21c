// Package decision evaluates the configured decisions against a request's signal matches.
// It is pure: no I/O, no clocks, safe for concurrent use once built.
package decision

import (
	"math/rand/v2"
	"sort"

	"github.com/semantic-router/semantic-router/internal/config"
)

// Match is one signal's outcome for a request.
type Match struct {
	Matched bool
	// Confidence in [0,1]: how sure the signal is of its answer (1 for exact signals).
	Confidence float64
}

// Matches maps signal names to their outcomes. A signal that was not computed is absent and
// counts as not matched.
type Matches map[string]Match

// Engine holds the decisions in evaluation order.
type Engine struct {
	decisions []*config.Decision
}

// New orders the decisions by descending priority, keeping configuration order among equals.
func New(ds []config.Decision) *Engine {
	e := &Engine{decisions: make([]*config.Decision, len(ds))}
	for i := range ds {
		e.decisions[i] = &ds[i]
	}
	sort.SliceStable(e.decisions, func(i, j int) bool { return e.decisions[i].Priority > e.decisions[j].Priority })
	return e
}

// Result is the decision that matched and how confident the match is.
type Result struct {
	Decision   *config.Decision
	Confidence float64
}

// Evaluate returns the first decision whose rules match. For a request that named a model
// (direct), only decisions that apply to all requests are considered.
func (e *Engine) Evaluate(m Matches, direct bool) (Result, bool) {
	for _, d := range e.decisions {
		if direct && d.AppliesTo != "all" {
			continue
		}
		if ok, conf := eval(d.Rules, m); ok {
			return Result{Decision: d, Confidence: conf}, true
		}
	}
	return Result{}, false
}

// eval reports whether the rule matches, with a confidence: a signal's own, the weakest of
// an all, the strongest matching member of an any, and the complement for a not.
func eval(r config.Rule, m Matches) (bool, float64) {
	switch {
	case r.Signal != "":
		s := m[r.Signal]
		return s.Matched, s.Confidence
	case r.All != nil:
		conf := 1.0
		for _, sub := range r.All {
			ok, c := eval(sub, m)
			if !ok {
				return false, 0
			}
			conf = min(conf, c)
		}
		return true, conf
	case r.Any != nil:
		best, found := 0.0, false
		for _, sub := range r.Any {
			if ok, c := eval(sub, m); ok {
				best, found = max(best, c), true
			}
		}
		return found, best
	case r.Not != nil:
		ok, c := eval(*r.Not, m)
		if ok {
			return false, 0
		}
		return true, 1 - c
	}
	return false, 0
}

// PickModel chooses one of the decision's models at random by weight; "" when it has none.
func PickModel(d *config.Decision, rnd func(n int) int) string {
	total := 0
	for _, m := range d.Models {
		total += m.Weight
	}
	if total <= 0 {
		return ""
	}
	if rnd == nil {
		rnd = rand.IntN
	}
	n := rnd(total)
	for _, m := range d.Models {
		if n < m.Weight {
			return m.Model
		}
		n -= m.Weight
	}
	return d.Models[len(d.Models)-1].Model
}
