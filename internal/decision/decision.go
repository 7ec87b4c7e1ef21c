// Package decision evaluates the configured decisions against a request's signal matches.
// It is pure: no I/O, no clocks, safe for concurrent use once built.
package decision

import (
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/semantic-router/semantic-router/internal/config"
)

// Match is one signal's outcome for a request.
type Match struct {
	Matched bool
	// Confidence in [0,1]: how sure the signal is of its answer (1 for exact signals).
	Confidence float64
	// Failed says the signal could not be computed (a dependency such as a remote embedder
	// did not answer); Matched is then false. A decision whose outcome depends on it takes
	// its on_error: refuse, or read the signal as not matched.
	Failed bool
}

// Matches are the outcomes of the signals computed for a request, each under its signal's
// name. A signal that was not computed is absent and counts as not matched. A request computes
// a handful of signals: a list searched from the start is built with one allocation and read
// with a few comparisons, where a map takes several allocations and more memory touched.
type Matches []NamedMatch

// NamedMatch is one signal's outcome.
type NamedMatch struct {
	Name string
	Match
}

// Get returns the outcome of the signal called name, or the zero Match (not matched) when it
// was not computed.
func (m Matches) Get(name string) Match {
	for i := range m {
		if m[i].Name == name {
			return m[i].Match
		}
	}
	return Match{}
}

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
	// Undetermined says the decision was taken because its rules depend on signals that
	// failed (listed in Failed) and its on_error is refuse: the request must be refused
	// without calling a model.
	Undetermined bool
	Failed       []string
	// Modifiers are the policies that matched before Decision and only modify the request
	// (config.Decision.OnlyModifies), in evaluation order: their changes apply too.
	Modifiers []*config.Decision
}

// Evaluate returns the first decision whose rules match. For a request that named a model
// (direct), only decisions that apply to all requests are considered. A matching policy that
// only modifies the request does not end the search: it is kept in Modifiers, and the search
// goes on for the decision that routes or blocks; when none matches, the first such policy
// is the Decision (and the request goes to the default or the named model).
func (e *Engine) Evaluate(m Matches, direct bool) (Result, bool) {
	var mods []*config.Decision
	var first Result
	for _, d := range e.decisions {
		if direct && d.AppliesTo != "all" {
			continue
		}
		res, ok := match(d, m)
		if !ok {
			continue
		}
		if res.Undetermined || !d.OnlyModifies() {
			res.Modifiers = mods
			return res, true
		}
		if mods == nil {
			first = res
		}
		mods = append(mods, d)
	}
	if mods == nil {
		return Result{}, false
	}
	first.Modifiers = mods[1:]
	return first, true
}

// match evaluates one decision's rules.
func match(d *config.Decision, m Matches) (Result, bool) {
	switch st, conf := eval3(d.Rules, m); {
	case st == isTrue:
		return Result{Decision: d, Confidence: conf}, true
	case st == isUnknown && d.RefusesOnError():
		return Result{Decision: d, Undetermined: true, Failed: failedSignals(d.Rules, m, nil)}, true
	case st == isUnknown:
		// on_error allow: the failed signals read as not matched (Matched is false).
		if ok, conf := eval(d.Rules, m); ok {
			return Result{Decision: d, Confidence: conf}, true
		}
	}
	return Result{}, false
}

// truth is a three-valued rule outcome: a failed signal is unknown.
type truth uint8

const (
	isFalse truth = iota
	isTrue
	isUnknown
)

// eval3 is eval in Kleene's three-valued logic: an all is false if any member is false, an
// any is true if any member is true, whatever the failed signals would have said; otherwise a
// failed signal makes the rule unknown.
func eval3(r config.Rule, m Matches) (truth, float64) {
	switch {
	case r.Signal != "":
		s := m.Get(r.Signal)
		switch {
		case s.Failed:
			return isUnknown, 0
		case s.Matched:
			return isTrue, s.Confidence
		}
		return isFalse, s.Confidence
	case r.All != nil:
		conf, unknown := 1.0, false
		for _, sub := range r.All {
			st, c := eval3(sub, m)
			switch st {
			case isFalse:
				return isFalse, 0
			case isUnknown:
				unknown = true
			default:
				conf = min(conf, c)
			}
		}
		if unknown {
			return isUnknown, 0
		}
		return isTrue, conf
	case r.Any != nil:
		best, found, unknown := 0.0, false, false
		for _, sub := range r.Any {
			switch st, c := eval3(sub, m); st {
			case isTrue:
				best, found = max(best, c), true
			case isUnknown:
				unknown = true
			}
		}
		switch {
		case found:
			return isTrue, best
		case unknown:
			return isUnknown, 0
		}
		return isFalse, 0
	case r.Not != nil:
		switch st, c := eval3(*r.Not, m); st {
		case isTrue:
			return isFalse, 0
		case isFalse:
			return isTrue, 1 - c
		}
		return isUnknown, 0
	}
	return isFalse, 0
}

// failedSignals appends the failed signals that r reads, once each, in rule order.
func failedSignals(r config.Rule, m Matches, out []string) []string {
	if r.Signal != "" && m.Get(r.Signal).Failed && !slices.Contains(out, r.Signal) {
		out = append(out, r.Signal)
	}
	for _, sub := range r.All {
		out = failedSignals(sub, m, out)
	}
	for _, sub := range r.Any {
		out = failedSignals(sub, m, out)
	}
	if r.Not != nil {
		out = failedSignals(*r.Not, m, out)
	}
	return out
}

// eval reports whether the rule matches, with a confidence: a signal's own, the weakest of
// an all, the strongest matching member of an any, and the complement for a not.
func eval(r config.Rule, m Matches) (bool, float64) {
	switch {
	case r.Signal != "":
		s := m.Get(r.Signal)
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
