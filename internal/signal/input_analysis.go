package signal

import (
	"strings"
	"unicode/utf8"
)

// analysis is what the detectors read of one normalised text, each part computed on first
// use and then shared by every signal of the request that reads the same text: the
// lower-cased text, the word view and its lexicon cues, the words as the keyword matcher
// splits them, and the distinct words and stems the domain classifier weighs. The
// detectors whose word boundaries are their own (complexity, language) scan the shared
// lower-cased text without copying it. An analysis belongs to one goroutine.
type analysis struct {
	text string

	lowerDone, viewDone, cuesDone, wordsDone, domainDone bool

	lower string
	view  string // wordView(text)
	cues  cueSet // mechCues(view)
	words []string
	// domainWords are the distinct words of wordSet(text) in the order they first occur;
	// domainStems the stems of those that are not stop words (stemsOf).
	domainWords, domainStems []string
}

func newAnalysis(text string) *analysis { return &analysis{text: text} }

// lowerText is strings.ToLower(text); text itself when it has no upper-case letter.
func (a *analysis) lowerText() string {
	if !a.lowerDone {
		a.lower, a.lowerDone = strings.ToLower(a.text), true
	}
	return a.lower
}

// wordView is wordView(text).
func (a *analysis) wordView() string {
	if !a.viewDone {
		a.view, a.viewDone = wordView(a.text), true
	}
	return a.view
}

// cueSet is the lexicon categories of the word view.
func (a *analysis) cueSet() cueSet {
	if !a.cuesDone {
		a.cues, a.cuesDone = mechCues(a.wordView()), true
	}
	return a.cues
}

// foldedWords is splitWords(text, false): the words the keyword matcher compares when it
// folds case.
func (a *analysis) foldedWords() []string {
	if !a.wordsDone {
		a.words, a.wordsDone = splitLowerWords(a.lowerText()), true
	}
	return a.words
}

// domainTerms returns the distinct words of wordSet(text), in the order they first occur,
// and the stems of those stemsOf keeps. The order fixes the order in which the classifier
// adds up its word scores.
func (a *analysis) domainTerms() (words, stems []string) {
	if !a.domainDone {
		a.domainDone = true
		a.domainWords = appendWordSet(nil, a.lowerText())
		a.domainStems = make([]string, 0, len(a.domainWords))
		for _, w := range a.domainWords {
			if !bayesStop[w] && len(w) >= 2 {
				a.domainStems = append(a.domainStems, stem(w))
			}
		}
	}
	return a.domainWords, a.domainStems
}

// countWords counts the letter and digit words of lower, as appendWordSet splits them.
func countWords(lower string) int {
	n, in := 0, false
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		w := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// appendWordSet appends the distinct letter and digit words of lower (already lower-cased),
// as wordSet finds them, in the order they first occur.
func appendWordSet(dst []string, lower string) []string {
	// An open-addressed set of indices into dst, sized for the words the text can hold. A
	// short text's table is small: the whole buffer is zeroed, and on a cold stack each
	// cache line of it costs a miss.
	size := 16
	for size < len(lower)/2+2 {
		size *= 2
	}
	var table []int32
	switch {
	case size <= 64:
		var buf [64]int32
		table = buf[:size]
	case size <= 512:
		var buf [512]int32
		table = buf[:size]
	default:
		table = make([]int32, size)
	}
	if dst == nil {
		dst = make([]string, 0, countWords(lower)) // one allocation, not one per doubling
	}
	add := func(w string) {
		h := uint32(2166136261) // FNV-1a
		for i := 0; i < len(w); i++ {
			h ^= uint32(w[i])
			h *= 16777619
		}
		for k := int(h) & (size - 1); ; k = (k + 1) & (size - 1) {
			switch at := table[k]; {
			case at == 0:
				table[k] = int32(len(dst) + 1) //nolint:gosec // bounded by the text's length
				dst = append(dst, w)
				return
			case dst[at-1] == w:
				return
			}
		}
	}
	// Bytes of non-ASCII runes are all >= 0x80, so a byte scan splits as a rune scan would.
	from := -1
	for i := 0; i < len(lower); i++ {
		if c := lower[i]; c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf {
			if from < 0 {
				from = i
			}
		} else if from >= 0 {
			add(lower[from:i])
			from = -1
		}
	}
	if from >= 0 {
		add(lower[from:])
	}
	return dst
}
