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
	byFirst  map[string][]int // keyword indices by their first word
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
		// Normalize folds accents in the text the matcher reads, so keywords fold them too.
		words := splitWords(foldAccents(k), opts.CaseSensitive)
		if len(words) == 0 {
			errs = append(errs, fmt.Errorf("keywords[%d] %q: has no letters or digits", i, k))
			continue
		}
		if m.byFirst == nil {
			m.byFirst = map[string][]int{}
		}
		m.byFirst[words[0]] = append(m.byFirst[words[0]], len(m.keywords))
		m.keywords = append(m.keywords, words)
		m.original = append(m.original, k)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("keyword: %w", err)
	}
	return m, nil
}

// MaxFuzzyWords bounds fuzzy matching: only the first MaxFuzzyWords words of a text are
// compared within edits; the rest of the text is matched exactly. Exact matching is linear
// in the text, while fuzzy matching costs a comparison per word and keyword.
const MaxFuzzyWords = 4096

// maxFuzzyRunes is the longest word or keyword compared within edits; longer ones match
// only exactly. It keeps the edit distance in fixed-size buffers on the stack.
const maxFuzzyRunes = 32

// Match checks text, normalised (Normalize) or as sent: accents are folded on both sides,
// so "café" matches "cafe". It is linear in the text's words, plus a comparison per keyword
// for each of the first MaxFuzzyWords words when fuzzy.
func (m *KeywordMatcher) Match(text string) KeywordResult {
	return m.match(splitWords(foldAccents(text), m.caseSens))
}

// matchText is Match on a request's shared analysis.
func (m *KeywordMatcher) matchText(a *analysis) KeywordResult {
	if m.caseSens {
		return m.match(splitWords(a.text, true))
	}
	return m.match(a.foldedWords())
}

func (m *KeywordMatcher) match(words []string) KeywordResult {
	var buf [64]bool
	var found []bool
	if len(m.keywords) > len(buf) {
		found = make([]bool, len(m.keywords))
	} else {
		found = buf[:len(m.keywords)]
	}
	left := len(m.keywords)
	for i := 0; i < len(words) && left > 0; i++ {
		if m.maxEdits > 0 && i < MaxFuzzyWords {
			for k, kw := range m.keywords {
				if !found[k] && matchAt(words, i, kw, true, m.maxEdits) {
					found[k], left = true, left-1
				}
			}
			continue
		}
		for _, k := range m.byFirst[words[i]] {
			if !found[k] && matchAt(words, i, m.keywords[k], false, 0) {
				found[k], left = true, left-1
			}
		}
	}
	var res KeywordResult
	for k, f := range found {
		if f {
			res.Found = append(res.Found, m.original[k])
		}
	}
	if m.mode == KeywordAll {
		res.Matched = len(res.Found) == len(m.keywords)
	} else {
		res.Matched = len(res.Found) > 0
	}
	return res
}

// matchAt reports whether the keyword's words occur at words[i:].
func matchAt(words []string, i int, kw []string, fuzzy bool, maxEdits int) bool {
	if i+len(kw) > len(words) {
		return false
	}
	for j, k := range kw {
		if !wordEqual(words[i+j], k, fuzzy, maxEdits) {
			return false
		}
	}
	return true
}

// wordEqual compares a word of the text with a keyword's word, within maxEdits when fuzzy
// (for keywords of at least 4 letters). It does not allocate.
func wordEqual(w, k string, fuzzy bool, maxEdits int) bool {
	if w == k {
		return true
	}
	if !fuzzy {
		return false
	}
	// Byte lengths bound rune counts within a factor of 4; compare rune counts only when
	// the bytes allow a match.
	if len(w) > 4*(len(k)+maxEdits) || len(k) > 4*(len(w)+maxEdits) {
		return false
	}
	nk := utf8.RuneCountInString(k)
	if nk < 4 {
		return false
	}
	if d := utf8.RuneCountInString(w) - nk; d > maxEdits || -d > maxEdits {
		return false
	}
	return editDistance(w, k, maxEdits) <= maxEdits
}

// splitWords splits on anything that is not a letter, digit or
// apostrophe; CJK ideographs stand alone as words.
func splitWords(s string, caseSensitive bool) []string {
	if !caseSensitive {
		s = strings.ToLower(s)
	}
	return splitLowerWords(s)
}

// splitLowerWords is splitWords without the case folding.
func splitLowerWords(s string) []string {
	out := make([]string, 0, len(s)/6+1)
	start := -1
	for i, r := range s {
		if r < utf8.RuneSelf { // ASCII: a letter or digit continues a word
			if isWordByte(s[i]) || s[i] == '\'' && start >= 0 {
				if start < 0 {
					start = i
				}
			} else if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		switch {
		case isIdeographic(r):
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			out = append(out, s[i:i+utf8.RuneLen(r)])
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

// isIdeographic reports Han, Hiragana and Katakana characters (none below U+2E80).
func isIdeographic(r rune) bool {
	return r >= 0x2E80 && unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

// editDistance is the Levenshtein distance between a and b in runes, giving up early
// (returning limit+1) once it must exceed limit, or when either is longer than
// maxFuzzyRunes. It does not allocate.
func editDistance(a, b string, limit int) int {
	var bufA, bufB [maxFuzzyRunes]rune
	ra, okA := runesInto(bufA[:0], a)
	rb, okB := runesInto(bufB[:0], b)
	if !okA || !okB {
		return limit + 1
	}
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	var rowA, rowB [maxFuzzyRunes + 1]int
	prev, cur := rowA[:len(rb)+1], rowB[:len(rb)+1]
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

// runesInto decodes s into buf (of capacity maxFuzzyRunes); false when s is longer.
func runesInto(buf []rune, s string) ([]rune, bool) {
	for _, r := range s {
		if len(buf) == cap(buf) {
			return buf, false
		}
		buf = append(buf, r)
	}
	return buf, true
}
