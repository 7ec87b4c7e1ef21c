package decision

import (
	"testing"

	"github.com/semantic-router/semantic-router/internal/config"
)

func sig(name string) config.Rule { return config.Rule{Signal: name} }

func TestEvaluate(t *testing.T) {
	ds := []config.Decision{
		{Name: "low", Priority: 1, AppliesTo: "auto", Rules: sig("code")},
		{Name: "math", Priority: 10, AppliesTo: "auto", Rules: config.Rule{Any: []config.Rule{sig("math"), sig("physics")}}},
		{Name: "hard_not_german", Priority: 5, AppliesTo: "auto", Rules: config.Rule{All: []config.Rule{sig("hard"), {Not: &config.Rule{Signal: "german"}}}}},
		{Name: "pii_block", Priority: 100, AppliesTo: "all", Rules: sig("pii")},
	}
	e := New(ds)
	tests := []struct {
		name     string
		matches  Matches
		direct   bool
		want     string
		wantConf float64
	}{
		{"nothing matches", Matches{}, false, "", 0},
		{"priority wins over order", Matches{"code": {true, 1}, "math": {true, 0.7}}, false, "math", 0.7},
		{"any takes the strongest", Matches{"math": {true, 0.4}, "physics": {true, 0.9}}, false, "math", 0.9},
		{"all with not", Matches{"hard": {true, 0.8}, "german": {false, 0.3}}, false, "hard_not_german", 0.7},
		{"not blocks", Matches{"hard": {true, 0.8}, "german": {true, 0.9}}, false, "", 0},
		{"policy applies to all", Matches{"pii": {true, 1}, "math": {true, 1}}, false, "pii_block", 1},
		{"direct requests see only policies", Matches{"math": {true, 1}}, true, "", 0},
		{"direct request hits the policy", Matches{"pii": {true, 1}}, true, "pii_block", 1},
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
	e := New(ds)
	m := Matches{"a": {true, 0.9}, "b": {false, 0}, "c": {false, 0}, "d": {false, 0}}
	b.ReportAllocs()
	for b.Loop() {
		e.Evaluate(m, false)
	}
}
