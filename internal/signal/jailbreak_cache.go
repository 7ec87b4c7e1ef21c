package signal

import "github.com/semantic-router/semantic-router/internal/longtext"

// scoreCache keeps the jailbreak results of long texts (see longtext.Memo). A result
// depends on the text and on how it was scored: with a vector or without (the builtin and
// remote embedders give a text the same vector every time), or by the rules only (a system
// prompt).
type scoreCache struct {
	memo longtext.Memo[JailbreakResult]
}

// How a text was scored.
type scoring uint8

const (
	scoredWithoutVector scoring = iota
	scoredWithVector
	scoredByRules
)

// score returns the result of text from the cache, or computes it with detect and keeps it.
// The result's Reasons are shared: callers read them only.
func (c *scoreCache) score(text string, how scoring, detect func() JailbreakResult) JailbreakResult {
	if len(text) < longtext.MinKept {
		return detect()
	}
	k := longtext.KeyOf(text, uint8(how))
	if r, ok := c.memo.Get(k); ok {
		return r
	}
	r := detect()
	c.memo.Put(k, r)
	return r
}
