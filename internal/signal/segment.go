package signal

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/semantic-router/semantic-router/internal/embed/builtin"
)

// Word segmentation: reading letters written without word breaks ("ignoreallprevious…", as a
// text spelled out letter by letter, in Morse or in flags reads once its gaps are gone) as
// the words a reader sees in them.

const (
	// segmentMaxWord is the longest word the segmenter looks for.
	segmentMaxWord = 20
	// segmentMaxRun bounds one segmentation; a longer run is read in pieces of this length.
	segmentMaxRun = 2048
	// segmentWordCost is added for every word, so that a reading with fewer, longer words
	// wins over one of many short ones of the same frequency.
	segmentWordCost = 3
	// segmentLetterCost is the cost of a letter read on its own: "a" and "i" are words, any
	// other single letter is a letter no word covers, and costs more than any word.
	segmentLetterCost = 30
)

// segmentWords splits lowercase ASCII letters into the most probable sequence of words of the
// builtin vocabulary, a word's cost being the logarithm of its frequency rank (Zipf's law)
// plus segmentWordCost. Letters that no word covers are kept one by one. Text that is not
// all lowercase ASCII letters is returned as is.
func segmentWords(letters string) string {
	for i := 0; i < len(letters); i++ {
		if c := letters[i]; c < 'a' || c > 'z' {
			return letters
		}
	}
	var b strings.Builder
	b.Grow(len(letters) + len(letters)/4)
	for len(letters) > 0 {
		n := min(len(letters), segmentMaxRun)
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		segmentInto(&b, letters[:n])
		letters = letters[n:]
	}
	return b.String()
}

// segmentInto writes the segmentation of s (lowercase ASCII letters) to b, words separated by
// single spaces.
func segmentInto(b *strings.Builder, s string) {
	cost := make([]float64, len(s)+1)
	from := make([]int, len(s)+1)
	for i := 1; i <= len(s); i++ {
		cost[i] = math.Inf(1)
		for j := max(0, i-segmentMaxWord); j < i; j++ {
			c := cost[j] + wordCost(s[j:i])
			if c < cost[i] {
				cost[i], from[i] = c, j
			}
		}
	}
	var cuts []int
	for i := len(s); i > 0; i = from[i] {
		cuts = append(cuts, from[i])
	}
	for k := len(cuts) - 1; k >= 0; k-- {
		end := len(s)
		if k > 0 {
			end = cuts[k-1]
		}
		if k < len(cuts)-1 {
			b.WriteByte(' ')
		}
		b.WriteString(s[cuts[k]:end])
	}
}

// wordCost is what reading w as one word costs; +Inf when w is not a word of several letters.
func wordCost(w string) float64 {
	rank, ok := builtin.WordRank(w)
	switch {
	case w == "a" || w == "i":
		// The vocabulary holds no single letters; these two are among English's most
		// frequent words.
		rank = 5
	case len(w) == 1:
		return segmentLetterCost
	case !ok:
		return math.Inf(1)
	}
	return math.Log(float64(rank)+2) + segmentWordCost
}

// letterSeparator reports a character that may stand between the letters of a word spelled
// out letter by letter: "i g n o r e", "i.g.n.o.r.e", "i-g-n-o-r-e".
func letterSeparator(r rune) bool {
	switch r {
	case ' ', '.', '-', '_', '*', '|', '/', ',', '\u00b7', '\n':
		return true
	}
	return false
}

// spelledMinLetters is how many letters, each standing alone between separators, make a
// spelled-out run: acronyms ("U.S.A.", "e.g.") and lists of letters are shorter.
const spelledMinLetters = 8

// joinSpacedLetters reads text whose words are spelled out letter by letter ("c o m m e n t
// f a b r i q u e r", "i.g.n.o.r.e a.l.l …"): in a run of spelledMinLetters or more letters,
// each standing alone between separators (spaces, dots, hyphens, underscores, stars, bars,
// slashes, commas, middle dots), a single separator joins two letters and a longer one (two
// spaces, " / ", ". ") is a word break. A run without any word break (all its letters equally
// spaced, or its gaps collapsed by Normalize) is split into words by segmentWords. It returns
// text unchanged, and false, when there is no such run.
func joinSpacedLetters(text string) (string, bool) {
	var (
		b     strings.Builder
		run   []letterCell
		last  int // the end of what b holds of text
		found bool
	)
	flush := func() {
		if len(run) >= spelledMinLetters {
			found = true
			b.WriteString(text[last:run[0].start])
			b.WriteString(readRun(text, run))
			last = run[len(run)-1].end
		}
		run = run[:0]
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) {
			i += size
			continue
		}
		// A letter standing alone: a separator (or the start) before it and after it.
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+size:])
		alone := (i == 0 || letterSeparator(before)) && (i+size == len(text) || letterSeparator(after))
		if !alone {
			flush()
			for i < len(text) {
				r, size := utf8.DecodeRuneInString(text[i:])
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				i += size
			}
			continue
		}
		brk := false
		if len(run) > 0 {
			gap := text[run[len(run)-1].end:i]
			if strings.IndexFunc(gap, func(r rune) bool { return !letterSeparator(r) }) >= 0 || len(gap) > 3 {
				flush()
			} else {
				brk = len(gap) > 1 || gap == "/"
			}
		}
		run = append(run, letterCell{i, i + size, brk})
		i += size
	}
	flush()
	if !found {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// letterCell is one letter of a spelled-out run in joinSpacedLetters.
type letterCell struct {
	start, end int  // the letter's bytes in the text
	brk        bool // a word break comes before it
}

// readRun is the text of a spelled-out run: its letters joined, a space at each word break,
// and, when there is none, the words segmentWords finds in them.
func readRun(text string, run []letterCell) string {
	var w strings.Builder
	breaks := false
	for k, c := range run {
		if c.brk && k > 0 {
			w.WriteByte(' ')
			breaks = true
		}
		w.WriteString(text[c.start:c.end])
	}
	if breaks {
		return w.String()
	}
	lower := strings.ToLower(w.String())
	if seg := segmentWords(lower); seg != lower {
		return seg
	}
	return w.String()
}
