package signal

import (
	"math"
	"strings"
	"unicode"
)

// pairBayes is a naive Bayes model over adjacent word pairs of the example
// prompts ("is it wrong", "without a will", "interest rate"): a question's
// shape and a field's collocations, which single words miss. Pairs are
// kept by hash, as gramBayes keeps n-grams (hashedRows).
type pairBayes struct {
	hashedRows // pair hash (pairHash, never 0) -> log P(pair|class)
}

const pairAlpha = 0.5

// notPairWordRune separates the words of a pair: anything but a letter, a
// digit or an apostrophe ("ohm's law").
func notPairWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' }

// trimQuotes drops the apostrophes around a word ('quoted' words), keeping
// the ones inside it ("ohm's").
func trimQuotes(w string) string {
	for w != "" && w[0] == '\'' {
		w = w[1:]
	}
	for w != "" && w[len(w)-1] == '\'' {
		w = w[:len(w)-1]
	}
	return w
}

// eachPair calls f with the hash of every adjacent word pair of lower
// (lower-cased), skipping pairs of two stop words.
func eachPair(lower string, f func(h uint64)) {
	prev, prevStop := "", true
	for w := range strings.FieldsFuncSeq(lower, notPairWordRune) {
		if w = trimQuotes(w); w == "" {
			continue
		}
		stop := bayesStop[w]
		if prev != "" && !(stop && prevStop) {
			f(pairHash(prev, w))
		}
		prev, prevStop = w, stop
	}
}

// pairHash is FNV-1a over "a b", never 0.
func pairHash(a, b string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(a); i++ {
		h = (h ^ uint64(a[i])) * 1099511628211
	}
	h = (h ^ ' ') * 1099511628211
	for i := 0; i < len(b); i++ {
		h = (h ^ uint64(b[i])) * 1099511628211
	}
	return h | 1
}

func fitPairBayes(docs [][]string, classes int) *pairBayes {
	index := map[uint64]int32{}
	var counts []int32 // [row*classes+class]
	totals := make([]float64, classes)
	for k, texts := range docs {
		for _, t := range texts {
			eachPair(strings.ToLower(t), func(h uint64) {
				var r int32
				r, counts = countRow(index, counts, h, classes)
				counts[int(r)*classes+k]++
				totals[k]++
			})
		}
	}
	return &pairBayes{newHashedRows(index, counts, totals, pairAlpha, classes)}
}

// logScores writes each class's log-likelihood of the known pairs of lower,
// less the best one's, into s.
func (b *pairBayes) logScores(lower string, s []float64) {
	clear(s)
	eachPair(lower, func(h uint64) {
		for k, lp := range b.row(h) {
			s[k] += float64(lp)
		}
	})
	mx := math.Inf(-1)
	for _, x := range s {
		mx = math.Max(mx, x)
	}
	for k := range s {
		s[k] -= mx
	}
}
