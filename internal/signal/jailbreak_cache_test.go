package signal

import (
	"strconv"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/heaptest"
	"github.com/semantic-router/semantic-router/internal/longtext"
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
	for i := range longtext.DefaultLimit + 10 {
		c.score(long+strings.Repeat("x", i), scoredWithVector, detect)
	}
	if n := c.memo.Len(); n != longtext.DefaultLimit {
		t.Errorf("%d results kept, want %d", n, longtext.DefaultLimit)
	}
}

// TestScoreCacheKeepsNoText: what the cache keeps of a long text does not grow with its size.
func TestScoreCacheKeepsNoText(t *testing.T) {
	var c scoreCache
	const n = 32
	per := heaptest.Each(n, func() {
		for i := range n {
			text := strings.Repeat(string(rune('a'+i%26)), 1<<20) + strconv.Itoa(i)
			c.score(text, scoredWithVector, func() JailbreakResult { return JailbreakResult{Score: 0.1} })
		}
	})
	if got := c.memo.Len(); got != n {
		t.Fatalf("%d results kept, want %d", got, n)
	}
	// The map's room for longtext.DefaultLimit results counts too.
	if per > 4<<10 {
		t.Errorf("the cache keeps %d bytes of each 1 MB text, want no more than 4 KB", per)
	}
}
