package balancer

import (
	"errors"
	"strings"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// picks returns the ids of n picks, each ended at once with outcome o.
func picks(t *testing.T, p *Pool, n int, o Outcome) string {
	t.Helper()
	var ids []string
	for range n {
		i, err := p.Pick()
		if err != nil {
			t.Fatalf("Pick: %v", err)
		}
		ids = append(ids, p.eps[i].ID)
		p.Done(i, o)
	}
	return strings.Join(ids, "")
}

func TestPolicies(t *testing.T) {
	t.Parallel()
	eps := []Endpoint{{ID: "a", Weight: 3}, {ID: "b", Weight: 1}, {ID: "c"}}
	tests := []struct {
		name   string
		policy Policy
		want   string
	}{
		{"round robin ignores weights", RoundRobin, "abcabcabc"},
		{"weighted interleaves smoothly", Weighted, "abacaabaca"},
		{"least in flight alone is round robin", LeastInFlight, "abcabc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(eps, Options{Policy: tt.policy})
			if got := picks(t, p, len(tt.want), Success); got != tt.want {
				t.Errorf("picks = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestLeastInFlightAvoidsBusyEndpoints(t *testing.T) {
	t.Parallel()
	p := New([]Endpoint{{ID: "a"}, {ID: "b"}, {ID: "c"}}, Options{Policy: LeastInFlight})
	a, _ := p.Pick() // a stays busy
	b, _ := p.Pick() // b stays busy
	if got := picks(t, p, 3, Success); got != "ccc" {
		t.Errorf("with a and b busy, picks = %s, want ccc", got)
	}
	p.Done(a, Success)
	if got := picks(t, p, 2, Success); got != "ac" {
		t.Errorf("with b busy, picks = %s, want ac", got)
	}
	p.Done(b, Neutral)
	if s := p.Status(); s[0].InFlight+s[1].InFlight+s[2].InFlight != 0 {
		t.Errorf("in flight left after every Done: %+v", s)
	}
}

func TestEjectionBackOffAndProbation(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Unix(1000, 0)}
	var ejected []string
	p := New([]Endpoint{{ID: "a"}, {ID: "b"}}, Options{ConsecutiveFailures: 2, EjectionTime: 10 * time.Second,
		MaxEjectionTime: 25 * time.Second, Now: c.now, OnEject: func(id string, d time.Duration) { ejected = append(ejected, id+" "+d.String()) }})
	fail := func(id string) {
		t.Helper()
		for {
			i, err := p.Pick()
			if err != nil {
				t.Fatal(err)
			}
			if p.eps[i].ID == id {
				p.Done(i, Failure)
				return
			}
			p.Done(i, Success)
		}
	}
	fail("a")
	if got := picks(t, p, 2, Success); got != "ba" {
		t.Fatalf("one failure must not eject: %s", got)
	}
	fail("a")
	fail("a") // two in a row
	if got := picks(t, p, 3, Success); got != "bbb" {
		t.Fatalf("ejected endpoint still picked: %s", got)
	}
	if s := p.Status(); !s[0].Ejected || !s[0].EjectedUntil.Equal(c.t.Add(10*time.Second)) || s[1].Ejected {
		t.Errorf("status = %+v", s)
	}
	c.advance(10 * time.Second)
	fail("a") // on probation: one failure ejects again, for twice as long
	c.advance(19 * time.Second)
	if got := picks(t, p, 2, Success); got != "bb" {
		t.Fatalf("second ejection shorter than 20s: %s", got)
	}
	c.advance(time.Second)
	fail("a") // third ejection: 40s capped at 25s
	c.advance(25 * time.Second)
	if got := picks(t, p, 4, Success); got != "abab" && got != "baba" {
		t.Fatalf("after the ejection and a success both serve: %s", got)
	}
	fail("a") // forgiven by the success: no ejection
	if got := picks(t, p, 2, Success); !strings.Contains(got, "a") {
		t.Errorf("a single failure after a success ejected again: %s", got)
	}
	want := []string{"a 10s", "a 20s", "a 25s"}
	if strings.Join(ejected, ",") != strings.Join(want, ",") {
		t.Errorf("ejections = %q, want %q", ejected, want)
	}
}

func TestAllEjected(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Unix(1000, 0)}
	p := New([]Endpoint{{ID: "a"}, {ID: "b"}}, Options{ConsecutiveFailures: 1, EjectionTime: 10 * time.Second, Now: c.now})
	i, _ := p.Pick()
	p.Done(i, Failure)
	c.advance(3 * time.Second)
	j, _ := p.Pick()
	p.Done(j, Failure)
	_, err := p.Pick()
	if !errors.Is(err, ErrAllEjected) || err.Error() != "every endpoint is ejected after consecutive failures; the first returns in 7s" {
		t.Fatalf("Pick = %v", err)
	}
	p.Probe(j, true) // a good health check returns it early
	if got := picks(t, p, 2, Neutral); got != "bb" {
		t.Errorf("after a good probe picks = %s, want bb", got)
	}
	p.Probe(j, false) // on probation: a bad probe ejects again
	if _, err := p.Pick(); !errors.Is(err, ErrAllEjected) {
		t.Errorf("Pick after a bad probe on probation = %v", err)
	}
}

func TestFailuresOfCallsStartedBeforeAnEjectionAddNothing(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Unix(1000, 0)}
	var n int
	p := New([]Endpoint{{ID: "a"}}, Options{ConsecutiveFailures: 1, EjectionTime: time.Second, MaxEjectionTime: time.Minute, Now: c.now,
		OnEject: func(string, time.Duration) { n++ }})
	x, _ := p.Pick()
	y, _ := p.Pick()
	p.Done(x, Failure)
	p.Done(y, Failure)
	if n != 1 {
		t.Errorf("%d ejections, want 1", n)
	}
}
