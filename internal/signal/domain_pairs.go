package signal

import (
	"math"
	"strings"
	"unicode"
)

// pairBayes is a naive Bayes model over adjacent word pairs of the example
// prompts ("is it wrong", "without a will", "interest rate"): a question's
// shape and a field's collocations, which single words miss.
type pairBayes struct {
	rows map[string][]float64 // pair -> log P(pair|class) per class
}

const pairAlpha = 0.5

// notPairWordRune separates the words of a pair: anything but a letter, a
// digit or an apostrophe ("ohm's law").
func notPairWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' }

// appendPairs appends the adjacent word pairs of lower (lower-cased),
// skipping pairs of two stop words.
func appendPairs(dst []string, lower string) []string {
	prev, prevStop := "", true
	for w := range strings.FieldsFuncSeq(lower, notPairWordRune) {
		if w = trimQuotes(w); w == "" {
			continue
		}
		stop := bayesStop[w]
		if prev != "" && !(stop && prevStop) {
			dst = append(dst, prev+" "+w)
		}
		prev, prevStop = w, stop
	}
	return dst
}

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

func fitPairBayes(docs [][]string, classes int) *pairBayes {
	counts := map[string][]float64{}
	totals := make([]float64, classes)
	var ps []string
	for k, texts := range docs {
		for _, t := range texts {
			ps = appendPairs(ps[:0], strings.ToLower(t))
			for _, p := range ps {
				row := counts[p]
				if row == nil {
					row = make([]float64, classes)
					counts[p] = row
				}
				row[k]++
				totals[k]++
			}
		}
	}
	v := float64(len(counts))
	b := &pairBayes{rows: make(map[string][]float64, len(counts))}
	for p, row := range counts {
		out := make([]float64, classes)
		for k := range out {
			out[k] = math.Log((row[k] + pairAlpha) / (totals[k] + pairAlpha*v))
		}
		b.rows[p] = out
	}
	return b
}

// logScores writes each class's log-likelihood of the known pairs of lower,
// less the best one's, into s. It builds each pair in a buffer, so that
// looking it up allocates nothing.
func (b *pairBayes) logScores(lower string, s []float64) {
	clear(s)
	var keyBuf [96]byte
	prev, prevStop := "", true
	for w := range strings.FieldsFuncSeq(lower, notPairWordRune) {
		if w = trimQuotes(w); w == "" {
			continue
		}
		stop := bayesStop[w]
		if prev != "" && !(stop && prevStop) {
			key := append(append(append(keyBuf[:0], prev...), ' '), w...)
			if row, ok := b.rows[string(key)]; ok {
				for k, lp := range row {
					s[k] += lp
				}
			}
		}
		prev, prevStop = w, stop
	}
	mx := math.Inf(-1)
	for _, x := range s {
		mx = math.Max(mx, x)
	}
	for k := range s {
		s[k] -= mx
	}
}
