package signal

import (
	"slices"
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
	cues  cueSet // mechLexicon.scan(view)
	words []string
	// domainWords are the distinct words of wordSet(text), sorted; domainStems the stems of
	// those that are not stop words (stemsOf).
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
		a.cues, a.cuesDone = mechLexicon.scan(a.wordView()), true
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

// domainTerms returns the distinct words of wordSet(text), sorted, and the stems of those
// stemsOf keeps.
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

// appendWordSet appends the distinct letter and digit words of lower (already lower-cased),
// as wordSet finds them, sorted.
func appendWordSet(dst []string, lower string) []string {
	start := len(dst)
	// Bytes of non-ASCII runes are all >= 0x80, so a byte scan splits as a rune scan would.
	from := -1
	for i := 0; i < len(lower); i++ {
		if c := lower[i]; c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf {
			if from < 0 {
				from = i
			}
		} else if from >= 0 {
			dst = append(dst, lower[from:i])
			from = -1
		}
	}
	if from >= 0 {
		dst = append(dst, lower[from:])
	}
	slices.Sort(dst[start:])
	return slices.Compact(dst)
}
