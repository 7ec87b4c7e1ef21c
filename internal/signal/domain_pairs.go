package signal

import (
	"math"
	"strings"
	"unicode"
)

// pairBayes is a naive Bayes model over adjacent word pairs of the example
// prompts ("is it wrong", "without a will", "interest rate"): a question's
// shape and a field's collocations, which single words miss. Pairs are
// kept by hash in an open-addressed table, as gramBayes keeps n-grams, so
// that scoring a prompt touches one slot and one row per pair and
// allocates nothing.
type pairBayes struct {
	table   []gramSlot // a hash of 0 marks an empty slot; no pair hashes to 0
	mask    uint64     // len(table)-1
	rows    []float32  // [row*classes+class] log P(pair|class)
	classes int
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
				r, ok := index[h]
				if !ok {
					r = int32(len(index)) //nolint:gosec // some ten thousand pairs
					index[h] = r
					counts = append(counts, make([]int32, classes)...)
				}
				counts[int(r)*classes+k]++
				totals[k]++
			})
		}
	}
	b := &pairBayes{classes: classes, rows: make([]float32, len(counts))}
	v := float64(len(index))
	for i, c := range counts {
		b.rows[i] = float32(math.Log((float64(c) + pairAlpha) / (totals[i%classes] + pairAlpha*v)))
	}
	size := 16
	for size < 2*len(index) {
		size *= 2
	}
	b.table = make([]gramSlot, size)
	b.mask = uint64(size - 1) //nolint:gosec // a positive power of two
	for h, r := range index {
		i := h & b.mask
		for b.table[i].hash != 0 {
			i = (i + 1) & b.mask
		}
		b.table[i] = gramSlot{h, r}
	}
	return b
}

// lookup returns the row of pair hash h, or -1.
func (b *pairBayes) lookup(h uint64) int32 {
	for i := h & b.mask; ; i = (i + 1) & b.mask {
		switch b.table[i].hash {
		case h:
			return b.table[i].row
		case 0:
			return -1
		}
	}
}

// logScores writes each class's log-likelihood of the known pairs of lower,
// less the best one's, into s.
func (b *pairBayes) logScores(lower string, s []float64) {
	clear(s)
	eachPair(lower, func(h uint64) {
		if r := b.lookup(h); r >= 0 {
			for k, lp := range b.rows[int(r)*b.classes : int(r+1)*b.classes] {
				s[k] += float64(lp)
			}
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
