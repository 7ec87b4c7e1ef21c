package router

import (
	"net/http"
	"testing"
)

// TestExplain: the exact headers, in order, for each kind of route.
func TestExplain(t *testing.T) {
	t.Parallel()
	signals := []SignalResult{{Name: "pii", Matched: false}, {Name: "math", Matched: true}, {Name: "urgent", Matched: true}}
	for _, tt := range []struct {
		name  string
		rt    Route
		debug bool
		want  [][2]string
	}{
		{"nothing known", Route{}, false, [][2]string{}},
		{"a direct request", Route{Model: "m"}, false, [][2]string{{"x-vsr-selected-model", "m"}}},
		{"a routed request", Route{Model: "m", Decision: "math", Confidence: 0.875}, false,
			[][2]string{{"x-vsr-selected-model", "m"}, {"x-vsr-selected-decision", "math"}, {"x-vsr-selected-confidence", "0.88"}}},
		{"the default route", Route{Model: "m", Decision: "default", Confidence: 1}, false,
			[][2]string{{"x-vsr-selected-model", "m"}, {"x-vsr-selected-decision", "default"}, {"x-vsr-selected-confidence", "1.00"}}},
		{"a fallback", Route{Model: "b", FallbackFrom: "a", Decision: "math", Confidence: 0.5}, false,
			[][2]string{{"x-vsr-selected-model", "b"}, {"x-vsr-fallback-from", "a"}, {"x-vsr-selected-decision", "math"}, {"x-vsr-selected-confidence", "0.50"}}},
		{"a decision's own header, lower-cased", Route{Model: "m", Decision: "d", Confidence: 1, Headers: map[string]string{"X-Team-Route": "Math Team"}}, false,
			[][2]string{{"x-team-route", "Math Team"}, {"x-vsr-selected-model", "m"}, {"x-vsr-selected-decision", "d"}, {"x-vsr-selected-confidence", "1.00"}}},
		{"debug: the matched signals' names only", Route{Model: "m", Signals: signals}, true,
			[][2]string{{"x-vsr-selected-model", "m"}, {"x-vsr-matched-signals", "math,urgent"}}},
		{"debug with nothing matched", Route{Model: "m", Signals: signals[:1]}, true,
			[][2]string{{"x-vsr-selected-model", "m"}, {"x-vsr-matched-signals", ""}}},
		{"signals without debug", Route{Model: "m", Signals: signals}, false, [][2]string{{"x-vsr-selected-model", "m"}}},
	} {
		got := tt.rt.Explain(tt.debug)
		if len(got) != len(tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
				break
			}
		}
	}
}

// TestExplainOrdersDecisionHeaders: a decision's own headers come in the order of their
// names, the same on every answer, whatever the map's order.
func TestExplainOrdersDecisionHeaders(t *testing.T) {
	t.Parallel()
	rt := Route{Model: "m", Headers: map[string]string{"X-C": "3", "x-a": "1", "X-B": "2", "X-E": "5", "X-D": "4"}}
	want := "x-a=1 x-b=2 x-c=3 x-d=4 x-e=5 x-vsr-selected-model=m"
	for range 50 {
		if got := joinHeaders(rt.Explain(false)); got != want {
			t.Fatalf("Explain = %s, want %s", got, want)
		}
	}
}

func TestDebugRequested(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{"true": true, "": false, "false": false, "1": false, "yes": false} {
		h := http.Header{}
		if v != "" {
			h.Set("X-Vsr-Debug", v)
		}
		if got := debugRequested(h.Get); got != want {
			t.Errorf("x-vsr-debug %q: %v, want %v", v, got, want)
		}
	}
}
