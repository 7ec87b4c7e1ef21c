package signal

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// EstimateTokens approximates how many tokens an LLM tokenizer produces for
// text without loading one: about four characters per token for
// alphabetic scripts, but about one token per CJK character and per two
// characters of other non-Latin scripts, where BPE vocabularies are
// sparse. It is meant for routing by context length, not billing.
func EstimateTokens(text string) int {
	var latin, cjk, other, space int
	for _, r := range text {
		if r < utf8.RuneSelf { // ASCII: most text
			if r == ' ' || r >= '\t' && r <= '\r' {
				space++
			} else {
				latin++
			}
			continue
		}
		switch {
		case unicode.IsSpace(r):
			space++
		case unicode.Is(unicode.Han, r), unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r), unicode.Is(unicode.Hangul, r):
			cjk++
		case r < 0x250:
			latin++
		default:
			other++
		}
	}
	n := float64(latin+space)/4 + float64(cjk) + float64(other)/2
	if n > 0 && n < 1 {
		return 1
	}
	return int(n + 0.5)
}

// ContextLengthOptions configure a ContextLength signal: it matches when
// the estimated token count is within [Min, Max]; Max 0 means no upper
// bound.
type ContextLengthOptions struct {
	Min, Max int
}

// ContextLengthResult is the estimate and whether it is in range.
type ContextLengthResult struct {
	Tokens  int
	Matched bool
}

// ContextLength classifies prompts by estimated length.
type ContextLength struct {
	min, max int
}

// NewContextLength validates the bounds.
func NewContextLength(opts ContextLengthOptions) (*ContextLength, error) {
	if opts.Min < 0 || opts.Max < 0 || opts.Max > 0 && opts.Max < opts.Min {
		return nil, fmt.Errorf("context length: bounds [%d, %d]: need 0 <= min <= max (max 0 means unbounded)", opts.Min, opts.Max)
	}
	return &ContextLength{min: opts.Min, max: opts.Max}, nil
}

// Check estimates the tokens of text.
func (c *ContextLength) Check(text string) ContextLengthResult {
	n := EstimateTokens(text)
	return ContextLengthResult{Tokens: n, Matched: n >= c.min && (c.max == 0 || n <= c.max)}
}
