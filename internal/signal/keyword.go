package signal

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// KeywordMode says how many keywords must match.
type KeywordMode string

// Keyword modes.
const (
	KeywordAny KeywordMode = "any"
	KeywordAll KeywordMode = "all"
)

// KeywordOptions configure a KeywordMatcher.
type KeywordOptions struct {
	Keywords []string
	// Mode is "any" (default) or "all".
	Mode KeywordMode
	// CaseSensitive compares exactly; by default case is folded.
	CaseSensitive bool
	// MaxEdits allows each keyword to match words within this many
	// single-character edits (Levenshtein distance); 0 means exact. Fuzzy
	// matching applies to keywords of at least 4 letters, since short words
	// are within one edit of too many others.
	MaxEdits int
}

// KeywordResult lists the keywords found, in option order, and whether the
// mode is satisfied.
type KeywordResult struct {
	Matched bool
	Found   []string
}

// KeywordMatcher finds keywords on word boundaries; a keyword of several
// words matches that sequence of words. It is safe for concurrent use.
type KeywordMatcher struct {
	keywords [][]string // each keyword split into words, folded if needed
	original []string
	mode     KeywordMode
	caseSens bool
	maxEdits int
}

// NewKeywordMatcher validates the options.
func NewKeywordMatcher(opts KeywordOptions) (*KeywordMatcher, error) {
	var errs []error
	if len(opts.Keywords) == 0 {
		errs = append(errs, errors.New("at least one keyword is required"))
	}
	switch opts.Mode {
	case "", KeywordAny, KeywordAll:
	default:
		errs = append(errs, fmt.Errorf("mode %q: must be any or all", opts.Mode))
	}
	if opts.MaxEdits < 0 || opts.MaxEdits > 3 {
		errs = append(errs, fmt.Errorf("max edits %d: must be between 0 and 3", opts.MaxEdits))
	}
	m := &KeywordMatcher{mode: opts.Mode, caseSens: opts.CaseSensitive, maxEdits: opts.MaxEdits}
	if m.mode == "" {
		m.mode = KeywordAny
	}
	for i, k := range opts.Keywords {
		words := splitWords(k, opts.CaseSensitive)
		if len(words) == 0 {
			errs = append(errs, fmt.Errorf("keywords[%d] %q: has no letters or digits", i, k))
			continue
		}
		m.keywords = append(m.keywords, words)
		m.original = append(m.original, k)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("keyword: %w", err)
	}
	return m, nil
}

// Match checks text.
func (m *KeywordMatcher) Match(text string) KeywordResult {
	words := splitWords(text, m.caseSens)
	var res KeywordResult
	for i, kw := range m.keywords {
		if m.contains(words, kw) {
			res.Found = append(res.Found, m.original[i])
		}
	}
	if m.mode == KeywordAll {
		res.Matched = len(res.Found) == len(m.keywords)
	} else {
		res.Matched = len(res.Found) > 0
	}
	return res
}

func (m *KeywordMatcher) contains(words, kw []string) bool {
	for i := 0; i+len(kw) <= len(words); i++ {
		ok := true
		for j, k := range kw {
			if !m.wordEqual(words[i+j], k) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (m *KeywordMatcher) wordEqual(w, k string) bool {
	if w == k {
		return true
	}
	if m.maxEdits == 0 || utf8.RuneCountInString(k) < 4 {
		return false
	}
	return editDistance(w, k, m.maxEdits) <= m.maxEdits
}

// splitWords splits on anything that is not a letter, digit or
// apostrophe; CJK ideographs stand alone as words.
func splitWords(s string, caseSensitive bool) []string {
	if !caseSensitive {
		s = strings.ToLower(s)
	}
	var out []string
	start := -1
	for i, r := range s {
		switch {
		case isIdeographic(r):
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' && start >= 0:
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

func isIdeographic(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

// editDistance is the Levenshtein distance between a and b in runes,
// giving up early (returning limit+1) once it must exceed limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
