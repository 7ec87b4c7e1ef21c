package signal

import "sync"

// Long texts that repeat from request to request (an agent's tool definitions, a long system
// prompt) are scored once: their result is kept by text. Shorter texts, the questions, are
// scored each time; they cost little and rarely repeat.
const (
	cachedTextMin = 1 << 10 // bytes; shorter texts are not kept
	cachedTexts   = 256     // results kept; past it, any one is dropped for the new one
)

// scoreCache keeps the results of long texts. A result depends on the text and on how it was
// scored: with a vector or without (the builtin and remote embedders give a text the same
// vector every time), or by the rules only (a system prompt).
type scoreCache struct {
	mu      sync.Mutex
	results map[scoreKey]JailbreakResult
}

// How a text was scored.
type scoring uint8

const (
	scoredWithoutVector scoring = iota
	scoredWithVector
	scoredByRules
)

type scoreKey struct {
	text string
	how  scoring
}

// score returns the result of text from the cache, or computes it with detect and keeps it.
// The result's Reasons are shared: callers read them only.
func (c *scoreCache) score(text string, how scoring, detect func() JailbreakResult) JailbreakResult {
	if len(text) < cachedTextMin {
		return detect()
	}
	k := scoreKey{text, how}
	c.mu.Lock()
	r, ok := c.results[k]
	c.mu.Unlock()
	if ok {
		return r
	}
	r = detect()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.results == nil {
		c.results = make(map[scoreKey]JailbreakResult, cachedTexts)
	}
	if len(c.results) >= cachedTexts {
		for old := range c.results {
			delete(c.results, old)
			break
		}
	}
	c.results[k] = r
	return r
}
