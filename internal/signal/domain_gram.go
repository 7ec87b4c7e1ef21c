package signal

import (
	"math"
	"strings"
)

// gramBayes is a naive Bayes model over the character n-grams (3 to 5
// bytes, bounded by "<" and ">": "<neu", "euro", "ons>") of the long words
// of the example prompts. A long word no example uses ("neurotransmitters",
// "thermodynamically") still shares pieces with words of its field, and the
// long words are where those pieces carry the field: on short words the
// n-grams only blurred the word model (cross-validation on the train split).
type gramBayes struct {
	hashedRows // n-gram hash -> log P(n-gram|class); no n-gram hashes to 0: see appendGrams
	// words maps each long word of the examples to the sum of its
	// n-grams' rows, so a prompt's known words cost one lookup each.
	words map[string][]float64
}

const (
	// gramMinWord is the length in bytes from which a word's n-grams count.
	gramMinWord = 9
	gramMin     = 3
	gramMax     = 5
	gramAlpha   = 0.5
	// gramMaxUnseen caps the long words per prompt whose n-grams are
	// looked up one by one (the examples' words are summed in advance).
	gramMaxUnseen = 8
)

// gramMaxWord caps the bytes of a word whose n-grams count, so that
// appendGrams appends at most 87 hashes.
const gramMaxWord = 30

// appendGrams appends the hashes of the word-bounded n-grams of w (of its
// first gramMaxWord bytes).
func appendGrams(dst []uint64, w string) []uint64 {
	if len(w) > gramMaxWord {
		w = w[:gramMaxWord]
	}
	n := len(w) + 2
	for i := range n {
		h := uint64(14695981039346656037) // FNV-1a
		for j := i; j < n && j-i < gramMax; j++ {
			c := byte('<')
			switch {
			case j == n-1:
				c = '>'
			case j > 0:
				c = w[j-1]
			}
			h = (h ^ uint64(c)) * 1099511628211
			if j-i+1 >= gramMin {
				dst = append(dst, h|1) // never 0, the empty slot of gramBayes.table
			}
		}
	}
	return dst
}

type gramSlot struct {
	hash uint64
	row  int32
}

// hashedRows holds one row of per-class log-probabilities per feature,
// found by the feature's 64-bit hash in an open-addressed table (a hash of
// 0 marks an empty slot, so no feature may hash to 0), the rows side by
// side: a feature costs one slot and one row, and looking it up allocates
// nothing.
type hashedRows struct {
	table   []gramSlot
	mask    uint64    // len(table)-1, a power of two less one
	rows    []float32 // [row*classes+class] log P(feature|class)
	classes int
}

// newHashedRows smooths counts ([row*classes+class], rows numbered by
// index) into log-probabilities with additive smoothing alpha, given each
// class's total count.
func newHashedRows(index map[uint64]int32, counts []int32, totals []float64, alpha float64, classes int) hashedRows {
	h := hashedRows{classes: classes, rows: make([]float32, len(counts))}
	v := float64(len(index))
	for i, c := range counts {
		h.rows[i] = float32(math.Log((float64(c) + alpha) / (totals[i%classes] + alpha*v)))
	}
	size := 16
	for size < 2*len(index) {
		size *= 2
	}
	h.table = make([]gramSlot, size)
	h.mask = uint64(size - 1) //nolint:gosec // a positive power of two
	for hash, r := range index {
		i := hash & h.mask
		for h.table[i].hash != 0 {
			i = (i + 1) & h.mask
		}
		h.table[i] = gramSlot{hash, r}
	}
	return h
}

// row returns the log-probabilities of the feature with hash h, or nil.
func (h *hashedRows) row(hash uint64) []float32 {
	for i := hash & h.mask; ; i = (i + 1) & h.mask {
		switch h.table[i].hash {
		case hash:
			r := int(h.table[i].row)
			return h.rows[r*h.classes : (r+1)*h.classes]
		case 0:
			return nil
		}
	}
}

// countRow returns the counts row of hash h in index and counts, adding a
// row of zeros the first time h is seen.
func countRow(index map[uint64]int32, counts []int32, h uint64, classes int) (row int32, _ []int32) {
	r, ok := index[h]
	if !ok {
		r = int32(len(index)) //nolint:gosec // some ten thousand features
		index[h] = r
		counts = append(counts, make([]int32, classes)...)
	}
	return r, counts
}

// fitGramBayes counts the n-grams of the long words of each class's texts.
func fitGramBayes(docs [][]string, classes int) *gramBayes {
	b := &gramBayes{}
	index := map[uint64]int32{}
	var counts []int32 // [row*classes+class]
	totals := make([]float64, classes)
	var hs []uint64
	var words []string
	seen := map[string]bool{}
	for k, texts := range docs {
		for _, t := range texts {
			words = appendWordSet(words[:0], strings.ToLower(t))
			for _, w := range words {
				if len(w) < gramMinWord {
					continue
				}
				seen[w] = true
				hs = appendGrams(hs[:0], w)
				for _, h := range hs {
					var r int32
					r, counts = countRow(index, counts, h, classes)
					counts[int(r)*classes+k]++
					totals[k]++
				}
			}
		}
	}
	b.hashedRows = newHashedRows(index, counts, totals, gramAlpha, classes)
	b.words = make(map[string][]float64, len(seen))
	sums := make([]float64, len(seen)*classes)
	for w := range seen {
		row := sums[:classes:classes]
		sums = sums[classes:]
		b.addGrams(row, w, hs[:0])
		b.words[w] = row
	}
	return b
}

// addGrams adds to s the rows of the known n-grams of w.
func (b *gramBayes) addGrams(s []float64, w string, buf []uint64) {
	for _, h := range appendGrams(buf, w) {
		for k, lp := range b.row(h) {
			s[k] += float64(lp)
		}
	}
}

// logScores writes into s, per class, the summed log-probabilities of the
// known n-grams of words' long words, less their maximum (0 everywhere when
// there are none).
func (b *gramBayes) logScores(words []string, s []float64) {
	clear(s)
	var buf [96]uint64
	unseen := 0
	for _, w := range words {
		if len(w) < gramMinWord {
			continue
		}
		if row, ok := b.words[w]; ok {
			for k, lp := range row {
				s[k] += lp
			}
			continue
		}
		if unseen++; unseen <= gramMaxUnseen {
			b.addGrams(s, w, buf[:0])
		}
	}
	mx := math.Inf(-1)
	for _, x := range s {
		mx = math.Max(mx, x)
	}
	for k := range s {
		s[k] -= mx
	}
}
