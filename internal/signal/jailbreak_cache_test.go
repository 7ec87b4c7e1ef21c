package signal

import (
	"strings"
	"testing"
)

// TestScoreCacheKeepsLongTextsOnly: a long text is scored once, a short one each time, and
// a full cache makes room.
func TestScoreCacheKeepsLongTextsOnly(t *testing.T) {
	t.Parallel()
	var c scoreCache
	calls := 0
	detect := func() JailbreakResult { calls++; return JailbreakResult{Score: 0.7, Reasons: []string{"r"}} }
	long := strings.Repeat("tool definitions ", 100)
	for range 3 {
		if r := c.score(long, scoredWithVector, detect); r.Score != 0.7 {
			t.Fatalf("score %v", r.Score)
		}
	}
	if calls != 1 {
		t.Errorf("a long text was scored %d times, want once", calls)
	}
	c.score(long, scoredWithoutVector, detect) // without a vector it is another result
	c.score(long, scoredByRules, detect)       // and by the rules only another
	c.score("short", scoredWithVector, detect)
	c.score("short", scoredWithVector, detect)
	if calls != 5 {
		t.Errorf("%d scorings, want 5", calls)
	}
	for i := range cachedTexts + 10 {
		c.score(long+strings.Repeat("x", i), scoredWithVector, detect)
	}
	if n := len(c.results); n != cachedTexts {
		t.Errorf("%d results kept, want %d", n, cachedTexts)
	}
}
