// Package decision evaluates the configured decisions against a request's signal matches.
// It is pure: no I/O, no clocks, safe for concurrent use once built.
package decision

import (
	"cmp"
	"math/rand/v2"
	"slices"

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

// Signals are a request's signal outcomes, by name. Get may compute a signal when it is
// first asked for (signal.Run does): the engine asks only for the signals whose answers can
// still change the decision.
type Signals interface {
	Get(name string) Match
}

// Engine holds the decisions in evaluation order: the policies (applies_to: all) first, then
// the routing decisions.
type Engine struct {
	decisions []entry
	// policies is how many of decisions are policies: a request that named a model reads
	// decisions[:policies] only.
	policies int
}

// entry is one decision and its rules with the members of every all and any in the order
// they are read: cheapest first.
type entry struct {
	d     *config.Decision
	rules config.Rule
}

// New orders the decisions for evaluation: the policies (applies_to: all) before the routing
// decisions (applies_to: auto), each group by descending priority, keeping configuration order
// among equals. Policies go first whatever their priority, so that no routing decision ends the
// search before a policy has read the request: a prompt that adds a routing keyword is blocked,
// and masked, as the same prompt naming a model is. The order is set here, once per
// configuration, not per request.
//
// cost, when not nil, is a signal's relative cost to compute: inside each all and any the
// engine reads the cheaper members first, so that an outcome settled by a cheap signal (an
// all with a member that did not match) never computes the expensive ones. The order changes
// no outcome: an all or an any means the same whatever the order of its members.
func New(ds []config.Decision, cost func(signal string) int) *Engine {
	e := &Engine{decisions: make([]entry, len(ds))}
	for i := range ds {
		e.decisions[i] = entry{d: &ds[i], rules: ds[i].Rules}
		if cost != nil {
			e.decisions[i].rules, _ = cheapestFirst(ds[i].Rules, cost)
		}
	}
	slices.SortStableFunc(e.decisions, func(a, b entry) int {
		return cmp.Or(cmp.Compare(policyRank(b.d), policyRank(a.d)), cmp.Compare(b.d.Priority, a.d.Priority))
	})
	for e.policies < len(e.decisions) && policyRank(e.decisions[e.policies].d) == 1 {
		e.policies++
	}
	return e
}

// policyRank is 1 for a policy (applies_to: all) and 0 for a routing decision.
func policyRank(d *config.Decision) int {
	if d.AppliesTo == "all" {
		return 1
	}
	return 0
}

// candidates are the decisions a request reads, in evaluation order: only the policies for
// a request that named a model (direct).
func (e *Engine) candidates(direct bool) []entry {
	if direct {
		return e.decisions[:e.policies]
	}
	return e.decisions
}

// cheapestFirst returns a copy of r whose all and any members are ordered by the cost of the
// signals they read (stable among equals), and that cost. r itself is not changed.
func cheapestFirst(r config.Rule, cost func(string) int) (config.Rule, int) {
	switch {
	case r.Signal != "":
		return r, cost(r.Signal)
	case r.Not != nil:
		sub, c := cheapestFirst(*r.Not, cost)
		r.Not = &sub
		return r, c
	case r.All == nil && r.Any == nil:
		return r, 0
	}
	type costed struct {
		rule config.Rule
		cost int
	}
	members := r.All
	if r.Any != nil {
		members = r.Any
	}
	cs := make([]costed, len(members))
	total := 0
	for i, sub := range members {
		cs[i].rule, cs[i].cost = cheapestFirst(sub, cost)
		total += cs[i].cost
	}
	slices.SortStableFunc(cs, func(a, b costed) int { return cmp.Compare(a.cost, b.cost) })
	sorted := make([]config.Rule, len(cs))
	for i := range cs {
		sorted[i] = cs[i].rule
	}
	if r.Any != nil {
		r.Any = sorted
	} else {
		r.All = sorted
	}
	return r, total
}

// Result is the decision that matched and how confident the match is.
type Result struct {
	Decision   *config.Decision
	Confidence float64
	// Undetermined says the decision was taken because its rules depend on signals that
	// failed (listed in Failed) and its on_error is refuse: the request must be refused
	// without calling a model.
	Undetermined bool
	// Failed lists the failed signals of the policy that could not be decided. When a later
	// decision blocked the request for certain, that one is the Decision, not Undetermined,
	// and Failed still names the signals whose policy would have refused it.
	Failed []string
	// Modifiers are the policies that matched before Decision and only modify the request
	// (config.Decision.OnlyModifies), in evaluation order: their changes apply too.
	Modifiers []*config.Decision
}

// Evaluate returns the first decision whose rules match, in the order New set: the policies,
// then the routing decisions. For a request that named a model (direct), only the policies
// are considered. A matching policy that only modifies the request does not end the search:
// it is kept in Modifiers, and the search goes on for the decision that routes or blocks;
// when none matches, the first such policy is the Decision (and the request goes to the
// default or the named model).
func (e *Engine) Evaluate(m Signals, direct bool) (Result, bool) {
	var res Result
	ok := e.evaluate(m, direct, &res)
	return res, ok
}

// evaluate is Evaluate with the result written to res. The rules and the results go by
// pointer: a rule is 72 bytes, and eval3 reads it once per level of nesting.
func (e *Engine) evaluate(m Signals, direct bool, res *Result) bool {
	var mods []*config.Decision
	var firstConf float64
	ds := e.candidates(direct)
	for i := range ds {
		en := &ds[i]
		if !match(en.d, &en.rules, m, res) {
			continue
		}
		switch {
		case res.Undetermined:
			// The request is refused either way. A later decision that blocks it for certain
			// says why better than "try again later", which a retry would not change.
			definiteBlock(ds[i+1:], m, res)
		case en.d.OnlyModifies():
			if mods == nil {
				firstConf = res.Confidence
			}
			mods = append(mods, en.d)
			continue
		}
		res.Modifiers = mods
		return true
	}
	if mods == nil {
		return false
	}
	*res = Result{Decision: mods[0], Confidence: firstConf, Modifiers: mods[1:]}
	return true
}

// definiteBlock replaces the undetermined res with the first of ds that blocks and whose
// rules match whatever the failed signals would have said, keeping res.Failed; it leaves res
// as it is when there is none.
func definiteBlock(ds []entry, m Signals, res *Result) {
	for i := range ds {
		en := &ds[i]
		d := en.d
		if d.Block == nil {
			continue
		}
		if st, conf := eval3(&en.rules, m); st == isTrue {
			*res = Result{Decision: d, Confidence: conf, Failed: res.Failed}
			return
		}
	}
}

// match evaluates one decision's rules (d.Rules, with members in reading order) and, when
// they decide the request, writes the outcome to res; res is left alone otherwise.
func match(d *config.Decision, rules *config.Rule, m Signals, res *Result) bool {
	switch st, conf := eval3(rules, m); {
	case st == isTrue:
		*res = Result{Decision: d, Confidence: conf}
		return true
	case st == isUnknown && d.RefusesOnError():
		// failedSignals reads every signal of the rule, in configuration order, computing those
		// not read yet: the refusal names each one that failed.
		*res = Result{Decision: d, Undetermined: true, Failed: failedSignals(&d.Rules, m, nil)}
		return true
	case st == isUnknown:
		// on_error allow: the failed signals read as not matched (Matched is false).
		if ok, conf := eval(rules, m); ok {
			*res = Result{Decision: d, Confidence: conf}
			return true
		}
	}
	return false
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
// failed signal makes the rule unknown. It reads no member after the outcome is settled: an
// all after a member that is false, an any after a member that is true with confidence 1.
func eval3(r *config.Rule, m Signals) (truth, float64) {
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
		for i := range r.All {
			st, c := eval3(&r.All[i], m)
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
		for i := range r.Any {
			switch st, c := eval3(&r.Any[i], m); st {
			case isTrue:
				if c >= 1 {
					return isTrue, c
				}
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
		switch st, c := eval3(r.Not, m); st {
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
func failedSignals(r *config.Rule, m Signals, out []string) []string {
	if r.Signal != "" && m.Get(r.Signal).Failed && !slices.Contains(out, r.Signal) {
		out = append(out, r.Signal)
	}
	for i := range r.All {
		out = failedSignals(&r.All[i], m, out)
	}
	for i := range r.Any {
		out = failedSignals(&r.Any[i], m, out)
	}
	if r.Not != nil {
		out = failedSignals(r.Not, m, out)
	}
	return out
}

// eval reports whether the rule matches, with a confidence: a signal's own, the weakest of
// an all, the strongest matching member of an any, and the complement for a not. Like eval3
// it stops once the outcome is settled.
func eval(r *config.Rule, m Signals) (bool, float64) {
	switch {
	case r.Signal != "":
		s := m.Get(r.Signal)
		return s.Matched, s.Confidence
	case r.All != nil:
		conf := 1.0
		for i := range r.All {
			ok, c := eval(&r.All[i], m)
			if !ok {
				return false, 0
			}
			conf = min(conf, c)
		}
		return true, conf
	case r.Any != nil:
		best, found := 0.0, false
		for i := range r.Any {
			if ok, c := eval(&r.Any[i], m); ok {
				if c >= 1 {
					return true, c
				}
				best, found = max(best, c), true
			}
		}
		return found, best
	case r.Not != nil:
		ok, c := eval(r.Not, m)
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
