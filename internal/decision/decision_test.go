package decision

import (
	"slices"
	"testing"

	"github.com/semantic-router/semantic-router/internal/config"
)

func sig(name string) config.Rule { return config.Rule{Signal: name} }

func TestEvaluate(t *testing.T) {
	ds := []config.Decision{
		{Name: "low", Priority: 1, AppliesTo: "auto", Rules: sig("code")},
		{Name: "math", Priority: 10, AppliesTo: "auto", Rules: config.Rule{Any: []config.Rule{sig("math"), sig("physics")}}},
		{Name: "hard_not_german", Priority: 5, AppliesTo: "auto", Rules: config.Rule{All: []config.Rule{sig("hard"), {Not: &config.Rule{Signal: "german"}}}}},
		{Name: "pii_block", Priority: 100, AppliesTo: "all", Rules: sig("pii"), Block: &config.Block{Status: 403}},
	}
	e := New(ds, nil)
	tests := []struct {
		name     string
		matches  Matches
		direct   bool
		want     string
		wantConf float64
	}{
		{"nothing matches", matchesOf(map[string]Match{}), false, "", 0},
		{"priority wins over order", matchesOf(map[string]Match{"code": {Matched: true, Confidence: 1}, "math": {Matched: true, Confidence: 0.7}}), false, "math", 0.7},
		{"any takes the strongest", matchesOf(map[string]Match{"math": {Matched: true, Confidence: 0.4}, "physics": {Matched: true, Confidence: 0.9}}), false, "math", 0.9},
		{"all with not", matchesOf(map[string]Match{"hard": {Matched: true, Confidence: 0.8}, "german": {Matched: false, Confidence: 0.3}}), false, "hard_not_german", 0.7},
		{"not blocks", matchesOf(map[string]Match{"hard": {Matched: true, Confidence: 0.8}, "german": {Matched: true, Confidence: 0.9}}), false, "", 0},
		{"policy applies to all", matchesOf(map[string]Match{"pii": {Matched: true, Confidence: 1}, "math": {Matched: true, Confidence: 1}}), false, "pii_block", 1},
		{"direct requests see only policies", matchesOf(map[string]Match{"math": {Matched: true, Confidence: 1}}), true, "", 0},
		{"direct request hits the policy", matchesOf(map[string]Match{"pii": {Matched: true, Confidence: 1}}), true, "pii_block", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := e.Evaluate(tt.matches, tt.direct)
			got := ""
			if ok {
				got = r.Decision.Name
			}
			if got != tt.want || r.Confidence != tt.wantConf {
				t.Errorf("got %q (%.2f), want %q (%.2f)", got, r.Confidence, tt.want, tt.wantConf)
			}
		})
	}
}

func TestPickModelByWeight(t *testing.T) {
	d := &config.Decision{Models: []config.ModelRef{{Model: "a", Weight: 1}, {Model: "b", Weight: 3}}}
	counts := map[string]int{}
	for n := range 4 {
		counts[PickModel(d, func(int) int { return n })]++
	}
	if counts["a"] != 1 || counts["b"] != 3 {
		t.Errorf("picks over every draw = %v, want a:1 b:3", counts)
	}
	if PickModel(&config.Decision{}, nil) != "" {
		t.Error("a decision without models picked one")
	}
}

func BenchmarkEvaluate(b *testing.B) {
	var ds []config.Decision
	for i := range 20 {
		ds = append(ds, config.Decision{Name: "d", Priority: i, AppliesTo: "auto",
			Rules: config.Rule{All: []config.Rule{sig("a"), {Any: []config.Rule{sig("b"), sig("c")}}, {Not: &config.Rule{Signal: "d"}}}}})
	}
	e := New(ds, nil)
	m := matchesOf(map[string]Match{"a": {Matched: true, Confidence: 0.9}, "b": {Matched: false, Confidence: 0}, "c": {Matched: false, Confidence: 0}, "d": {Matched: false, Confidence: 0}})
	b.ReportAllocs()
	for b.Loop() {
		e.Evaluate(m, false)
	}
}

// TestEvaluateFailedSignals: a decision whose outcome depends on a signal that could not be
// computed refuses when its on_error says so (policies by default) and otherwise reads the
// signal as not matched.
func TestEvaluateFailedSignals(t *testing.T) {
	failed := Match{Failed: true}
	yes := Match{Matched: true, Confidence: 1}
	no := Match{}
	ds := []config.Decision{
		{Name: "jb_block", Priority: 100, AppliesTo: "all", OnError: config.OnErrorRefuse, Rules: sig("jailbreak")},
		{Name: "pii_or_jb", Priority: 90, AppliesTo: "all", OnError: config.OnErrorRefuse,
			Rules: config.Rule{Any: []config.Rule{sig("pii"), sig("jb2")}}},
		{Name: "lenient", Priority: 80, AppliesTo: "all", OnError: config.OnErrorAllow,
			Rules: config.Rule{Not: &config.Rule{Signal: "safe"}}},
		{Name: "default_policy", Priority: 70, AppliesTo: "all", Rules: sig("toxic")},
		{Name: "ssn_block", Priority: 60, AppliesTo: "all", Rules: sig("ssn"), Block: &config.Block{Status: 403, Message: "no SSNs"}},
		{Name: "stem", Priority: 10, AppliesTo: "auto", OnError: config.OnErrorAllow,
			Rules: config.Rule{All: []config.Rule{sig("domain"), {Not: &config.Rule{Signal: "cheap"}}}}},
	}
	e := New(ds, nil)
	tests := []struct {
		name       string
		matches    Matches
		want       string
		wantUndet  bool
		wantFailed []string
	}{
		{"failed policy signal refuses", matchesOf(map[string]Match{"jailbreak": failed}), "jb_block", true, []string{"jailbreak"}},
		{"a matched alternative decides despite the failure", matchesOf(map[string]Match{"pii": yes, "jb2": failed}), "pii_or_jb", false, nil},
		{"an unmatched alternative leaves it undetermined", matchesOf(map[string]Match{"pii": no, "jb2": failed}), "pii_or_jb", true, []string{"jb2"}},
		{"on_error allow reads the signal as not matched", matchesOf(map[string]Match{"safe": failed}), "lenient", false, nil},
		{"an unset on_error on a policy refuses", matchesOf(map[string]Match{"safe": yes, "toxic": failed}), "default_policy", true, []string{"toxic"}},
		{"routing reads a failed signal as not matched", matchesOf(map[string]Match{"safe": yes, "domain": failed}), "", false, nil},
		{"routing not over a failed signal", matchesOf(map[string]Match{"safe": yes, "domain": yes, "cheap": failed}), "stem", false, nil},
		{"a later block that matches for certain answers instead of the refusal", matchesOf(map[string]Match{"jailbreak": failed, "ssn": yes}), "ssn_block", false, []string{"jailbreak"}},
		{"a later block that does not match leaves the refusal", matchesOf(map[string]Match{"jailbreak": failed, "ssn": no}), "jb_block", true, []string{"jailbreak"}},
		{"a later block that failed too leaves the first refusal", matchesOf(map[string]Match{"jailbreak": failed, "ssn": failed}), "jb_block", true, []string{"jailbreak"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := e.Evaluate(tt.matches, false)
			got := ""
			if ok {
				got = r.Decision.Name
			}
			if got != tt.want || r.Undetermined != tt.wantUndet || !slices.Equal(r.Failed, tt.wantFailed) {
				t.Errorf("got %q undetermined=%v failed=%v, want %q %v %v", got, r.Undetermined, r.Failed, tt.want, tt.wantUndet, tt.wantFailed)
			}
		})
	}
}

// TestEvaluatePoliciesThatOnlyModify: a policy that masks or adds a system prompt, without
// models or a block, does not end the search: the request is still routed, and blocked, by
// the decisions after it.
func TestEvaluatePoliciesThatOnlyModify(t *testing.T) {
	t.Parallel()
	block := &config.Block{Status: 403}
	e := New([]config.Decision{
		{Name: "mask", Priority: 100, AppliesTo: "all", Rules: sig("pii"), MaskPII: true},
		{Name: "jailbreak", Priority: 90, AppliesTo: "all", Rules: sig("jailbreak"), Block: block},
		{Name: "prompt", Priority: 80, AppliesTo: "all", Rules: sig("legal"), SystemPrompt: "Cite sources."},
		{Name: "math", Priority: 10, Rules: sig("math"), Models: []config.ModelRef{{Model: "qwen"}}},
		{Name: "failing", Priority: 5, AppliesTo: "all", Rules: sig("embedder"), Block: block},
	}, nil)
	on := Match{Matched: true, Confidence: 1}
	tests := []struct {
		name      string
		matches   Matches
		direct    bool
		want      string
		modifiers []string
		undet     bool
	}{
		{"the routing decision after a mask", matchesOf(map[string]Match{"pii": on, "math": on}), false, "math", []string{"mask"}, false},
		{"a block after a mask", matchesOf(map[string]Match{"pii": on, "jailbreak": on, "math": on}), false, "jailbreak", []string{"mask"}, false},
		{"a block after a mask, named model", matchesOf(map[string]Match{"pii": on, "jailbreak": on}), true, "jailbreak", []string{"mask"}, false},
		{"two modifiers, then routing", matchesOf(map[string]Match{"pii": on, "legal": on, "math": on}), false, "math", []string{"mask", "prompt"}, false},
		{"a mask alone", matchesOf(map[string]Match{"pii": on}), false, "mask", nil, false},
		{"two modifiers alone", matchesOf(map[string]Match{"pii": on, "legal": on}), true, "mask", []string{"prompt"}, false},
		{"a failed policy after a mask refuses", matchesOf(map[string]Match{"pii": on, "embedder": {Failed: true}}), false, "failing", []string{"mask"}, true},
		{"named model: routing decisions stay out", matchesOf(map[string]Match{"pii": on, "math": on}), true, "mask", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, ok := e.Evaluate(tt.matches, tt.direct)
			if !ok {
				t.Fatal("nothing matched")
			}
			var mods []string
			for _, d := range r.Modifiers {
				mods = append(mods, d.Name)
			}
			if r.Decision.Name != tt.want || !slices.Equal(mods, tt.modifiers) || r.Undetermined != tt.undet {
				t.Errorf("got %s %v undetermined=%v, want %s %v %v", r.Decision.Name, mods, r.Undetermined, tt.want, tt.modifiers, tt.undet)
			}
		})
	}
}

// matchesOf lists m's outcomes, in no particular order, as Set.Evaluate returns them.
func matchesOf(m map[string]Match) Matches {
	out := Matches{}
	for name, match := range m {
		out = append(out, NamedMatch{Name: name, Match: match})
	}
	return out
}

// reads records the signals the engine asks for, in order, and answers from its outcomes.
type reads struct {
	m    Matches
	read []string
}

func (r *reads) Get(name string) Match {
	r.read = append(r.read, name)
	return r.m.Get(name)
}

// TestEvaluateReadsCheapSignalsFirst: inside an all or an any the engine reads the cheaper
// signals first and stops once the outcome is settled, so that an expensive signal is not
// computed when a cheap one already decides.
func TestEvaluateReadsCheapSignalsFirst(t *testing.T) {
	t.Parallel()
	cost := map[string]int{"domain": 16, "hard": 2, "urgent": 1, "jailbreak": 16}
	ds := []config.Decision{
		{Name: "block", Priority: 100, AppliesTo: "all", Rules: sig("jailbreak"), Block: &config.Block{}},
		{Name: "stem", Priority: 10, Rules: config.Rule{Any: []config.Rule{
			{All: []config.Rule{sig("domain"), sig("hard")}}, sig("urgent"),
		}}},
	}
	on := Match{Matched: true, Confidence: 1}
	tests := []struct {
		name    string
		cost    func(string) int
		matches Matches
		want    []string
	}{
		{"a cheap member that did not match ends the all", func(s string) int { return cost[s] }, matchesOf(map[string]Match{}),
			[]string{"jailbreak", "urgent", "hard"}},
		{"a certain match ends the any", func(s string) int { return cost[s] }, matchesOf(map[string]Match{"urgent": on}),
			[]string{"jailbreak", "urgent"}},
		{"the expensive member when the cheap one matched", func(s string) int { return cost[s] }, matchesOf(map[string]Match{"hard": on}),
			[]string{"jailbreak", "urgent", "hard", "domain"}},
		{"a block ends the search", func(s string) int { return cost[s] }, matchesOf(map[string]Match{"jailbreak": on}),
			[]string{"jailbreak"}},
		{"without costs, configuration order", nil, matchesOf(map[string]Match{}),
			[]string{"jailbreak", "domain", "urgent"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &reads{m: tt.matches}
			New(ds, tt.cost).Evaluate(r, false)
			if !slices.Equal(r.read, tt.want) {
				t.Errorf("read %v, want %v", r.read, tt.want)
			}
		})
	}
}

// TestCheapestFirstChangesNoOutcome evaluates decisions of several shapes against every
// combination of outcomes of their four signals (not matched, matched with confidence 0.5 or
// 1, failed), with the members read in configuration order and cheapest first, and with
// on_error refuse and allow: the decision, its confidence and the failed signals it names
// are the same.
func TestCheapestFirstChangesNoOutcome(t *testing.T) {
	t.Parallel()
	a, b, c, d := sig("a"), sig("b"), sig("c"), sig("d")
	not := func(r config.Rule) config.Rule { return config.Rule{Not: &r} }
	all := func(rs ...config.Rule) config.Rule { return config.Rule{All: rs} }
	anyOf := func(rs ...config.Rule) config.Rule { return config.Rule{Any: rs} }
	shapes := []config.Rule{
		all(a, anyOf(b, c), not(d)),
		anyOf(all(a, b), c, not(d)),
		all(anyOf(a, b), anyOf(c, d)),
		anyOf(a, b, c, d),
		all(a, b, c, d),
		not(all(a, anyOf(b, not(c)), d)),
	}
	cost := map[string]int{"a": 8, "b": 4, "c": 2, "d": 1}
	states := []Match{{}, {Matched: true, Confidence: 0.5}, {Matched: true, Confidence: 1}, {Failed: true}}
	for i, shape := range shapes {
		for _, onError := range []string{config.OnErrorRefuse, config.OnErrorAllow} {
			ds := []config.Decision{{Name: "d", AppliesTo: "all", OnError: onError, Rules: shape}}
			plain, cheap := New(ds, nil), New(ds, func(s string) int { return cost[s] })
			for n := range 256 {
				m := Matches{}
				for k, name := range []string{"a", "b", "c", "d"} {
					m = append(m, NamedMatch{Name: name, Match: states[n>>(2*k)&3]})
				}
				want, wantOK := plain.Evaluate(m, false)
				got, gotOK := cheap.Evaluate(m, false)
				if gotOK != wantOK || got.Confidence != want.Confidence || got.Undetermined != want.Undetermined || !slices.Equal(got.Failed, want.Failed) {
					t.Fatalf("shape %d, on_error %s, outcomes %v: got %v %+v, want %v %+v", i, onError, m, gotOK, got, wantOK, want)
				}
			}
		}
	}
	if shapes[0].All[1].Any[0].Signal != "b" {
		t.Error("New reordered the configuration's own rules")
	}
}

// TestEvaluatePoliciesBeforeRouting: the policies (applies_to: all) are read before every
// routing decision, whatever their priorities, so that a routing keyword in a prompt cannot
// take it past a policy: a request for the virtual model is blocked, masked and refused on
// error as the same request naming a model is. Each group keeps its own priority order.
func TestEvaluatePoliciesBeforeRouting(t *testing.T) {
	t.Parallel()
	to := func(m string) []config.ModelRef { return []config.ModelRef{{Model: m}} }
	e := New([]config.Decision{
		{Name: "code", Priority: 100, AppliesTo: "auto", Rules: sig("code"), Models: to("coder")},
		{Name: "block_secret", Priority: 60, AppliesTo: "auto", Rules: sig("secret"), Block: &config.Block{Status: 451}},
		{Name: "block_pii", Priority: 50, AppliesTo: "all", Rules: sig("ids"), Block: &config.Block{Status: 422}},
		{Name: "mask", Priority: 45, AppliesTo: "all", Rules: sig("email"), MaskPII: true},
		{Name: "vip", Priority: 42, AppliesTo: "all", Rules: sig("vip"), Models: to("premium")},
		{Name: "vip_too", Priority: 42, AppliesTo: "all", Rules: sig("vip"), Models: to("other")},
		{Name: "block_jailbreak", Priority: 40, AppliesTo: "all", Rules: sig("jailbreak"), Block: &config.Block{Status: 403}},
		{Name: "remote_policy", Priority: 30, AppliesTo: "all", Rules: sig("remote"), Block: &config.Block{Status: 403}},
		{Name: "lenient", Priority: 20, AppliesTo: "all", OnError: config.OnErrorAllow, Rules: sig("remote2"), Block: &config.Block{Status: 403}},
		{Name: "math", Priority: 10, AppliesTo: "auto", Rules: sig("math"), Models: to("qwen")},
	}, nil)
	on, failed := Match{Matched: true, Confidence: 1}, Match{Failed: true}
	tests := []struct {
		name      string
		matches   map[string]Match
		direct    bool
		want      string // "" when nothing matches
		modifiers []string
		undet     bool
		failed    []string
	}{
		{"a block below a routing decision blocks", map[string]Match{"code": on, "ids": on}, false, "block_pii", nil, false, nil},
		{"the jailbreak block below a routing decision blocks", map[string]Match{"code": on, "jailbreak": on}, false, "block_jailbreak", nil, false, nil},
		{"policies keep their priority order", map[string]Match{"code": on, "ids": on, "jailbreak": on}, false, "block_pii", nil, false, nil},
		{"a mask below a routing decision modifies", map[string]Match{"code": on, "email": on}, false, "code", []string{"mask"}, false, nil},
		{"a mask below a routing block modifies", map[string]Match{"secret": on, "email": on}, false, "block_secret", []string{"mask"}, false, nil},
		{"a routing policy routes before any routing decision", map[string]Match{"code": on, "vip": on}, false, "vip", nil, false, nil},
		{"a routing policy after a mask", map[string]Match{"code": on, "email": on, "vip": on}, false, "vip", []string{"mask"}, false, nil},
		{"equal priorities keep configuration order", map[string]Match{"vip": on}, true, "vip", nil, false, nil},
		{"routing decisions keep their priority order", map[string]Match{"code": on, "math": on}, false, "code", nil, false, nil},
		{"no policy matches: routing as before", map[string]Match{"math": on}, false, "math", nil, false, nil},
		{"nothing matches", map[string]Match{}, false, "", nil, false, nil},
		{"a failed policy below a routing decision refuses", map[string]Match{"code": on, "remote": failed}, false, "remote_policy", nil, true, []string{"remote"}},
		{"a policy that matched before the failed one decides", map[string]Match{"code": on, "ids": on, "remote": failed}, false, "block_pii", nil, false, nil},
		{"a failed policy after a mask refuses", map[string]Match{"code": on, "email": on, "remote": failed}, false, "remote_policy", []string{"mask"}, true, []string{"remote"}},
		{"a routing block that matches for certain answers the refusal", map[string]Match{"code": on, "secret": on, "remote": failed}, false, "block_secret", nil, false, []string{"remote"}},
		{"named model: a routing block does not answer the refusal", map[string]Match{"secret": on, "remote": failed}, true, "remote_policy", nil, true, []string{"remote"}},
		{"on_error allow below a routing decision reads not matched", map[string]Match{"code": on, "remote2": failed}, false, "code", nil, false, nil},
		{"named model: the block as for the virtual model", map[string]Match{"code": on, "ids": on}, true, "block_pii", nil, false, nil},
		{"named model: the mask alone", map[string]Match{"code": on, "email": on}, true, "mask", nil, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, ok := e.Evaluate(matchesOf(tt.matches), tt.direct)
			got := ""
			if ok {
				got = r.Decision.Name
			}
			var mods []string
			for _, d := range r.Modifiers {
				mods = append(mods, d.Name)
			}
			if got != tt.want || !slices.Equal(mods, tt.modifiers) || r.Undetermined != tt.undet || !slices.Equal(r.Failed, tt.failed) {
				t.Errorf("got %q modifiers=%v undetermined=%v failed=%v, want %q %v %v %v",
					got, mods, r.Undetermined, r.Failed, tt.want, tt.modifiers, tt.undet, tt.failed)
			}
		})
	}
}

// TestEvaluateReadsPoliciesFirst: the signals are computed as the engine reads them, so the
// policies' signals come first, and a routing decision's signal is read only once no policy
// ended the search. A request naming a model reads the policies' signals only.
func TestEvaluateReadsPoliciesFirst(t *testing.T) {
	t.Parallel()
	e := New([]config.Decision{
		{Name: "code", Priority: 100, Rules: sig("code"), Models: []config.ModelRef{{Model: "coder"}}},
		{Name: "block_pii", Priority: 50, AppliesTo: "all", Rules: sig("ids"), Block: &config.Block{Status: 422}},
		{Name: "block_jailbreak", Priority: 40, AppliesTo: "all", Rules: sig("jailbreak"), Block: &config.Block{Status: 403}},
	}, func(string) int { return 1 })
	on := Match{Matched: true, Confidence: 1}
	tests := []struct {
		name    string
		matches map[string]Match
		direct  bool
		want    []string
	}{
		{"policies, then routing", map[string]Match{"code": on}, false, []string{"ids", "jailbreak", "code"}},
		{"a block ends the search before routing", map[string]Match{"code": on, "ids": on}, false, []string{"ids"}},
		{"named model: policies only", map[string]Match{"code": on}, true, []string{"ids", "jailbreak"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &reads{m: matchesOf(tt.matches)}
			e.Evaluate(r, tt.direct)
			if !slices.Equal(r.read, tt.want) {
				t.Errorf("read %v, want %v", r.read, tt.want)
			}
		})
	}
}
