package signal

import (
	_ "embed" // the folding table
	"strings"
	"sync"
	"unicode/utf8"
)

// The jailbreak detector's lexicon and rules are written in Simplified
// Chinese; the same words in Traditional characters (Taiwan, Hong Kong)
// would pass them unseen. The detector reads Chinese text with every
// Traditional character folded to its Simplified form, by a table derived
// from OpenCC (hant_simplified.txt; see internal/hantfold).
//
//go:generate go run ./internal/hantfold -o hant_simplified.txt
//go:embed hant_simplified.txt
var hantTable string

var hantFolds = sync.OnceValue(func() map[rune]rune {
	m := make(map[rune]rune, 4200)
	for line := range strings.SplitSeq(hantTable, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		from, to, ok := strings.Cut(line, "\t")
		if !ok {
			panic("hant_simplified.txt: a line without a tab: " + line)
		}
		t, _ := utf8.DecodeRuneInString(from)
		s, _ := utf8.DecodeRuneInString(to)
		m[t] = s
	}
	return m
})

// foldHant returns s with its Traditional Chinese characters in their
// Simplified forms, and whether any changed. Text without CJK returns at
// once.
func foldHant(s string) (string, bool) {
	if !containsHan(s) {
		return s, false
	}
	m := hantFolds()
	i := strings.IndexFunc(s, func(r rune) bool { _, ok := m[r]; return ok })
	if i < 0 {
		return s, false
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if f, ok := m[r]; ok {
			r = f
		}
		b.WriteRune(r)
	}
	return b.String(), true
}
