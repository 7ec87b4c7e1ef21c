package signal

import (
	"math"
	"strings"
)

// wordBayes is a multinomial naive Bayes model over stemmed words of the
// example prompts and keywords. It complements the embedding model with
// exact lexical evidence (rare technical terms the word vectors blur).
type wordBayes struct {
	logProb []map[string]float64 // per class: stem -> log P(stem|class)
	logUnk  []float64            // per class: log P(unseen stem|class)
	// rows holds, for each stem seen in some class, its log P(stem|class) per class (logUnk
	// where the class has not seen it).
	rows map[string][]float64
}

const bayesAlpha = 0.5

func fitBayes(docs [][]string, classes int) *wordBayes {
	counts := make([]map[string]float64, classes)
	totals := make([]float64, classes)
	vocab := map[string]bool{}
	for k := range counts {
		counts[k] = map[string]float64{}
	}
	for k, texts := range docs {
		for _, t := range texts {
			for _, w := range stems(t) {
				counts[k][w]++
				totals[k]++
				vocab[w] = true
			}
		}
	}
	b := &wordBayes{logProb: make([]map[string]float64, classes), logUnk: make([]float64, classes)}
	v := float64(len(vocab))
	for k := range counts {
		den := totals[k] + bayesAlpha*v
		b.logProb[k] = make(map[string]float64, len(counts[k]))
		for w, c := range counts[k] {
			b.logProb[k][w] = math.Log((c + bayesAlpha) / den)
		}
		b.logUnk[k] = math.Log(bayesAlpha / den)
	}
	b.rows = make(map[string][]float64, len(vocab))
	for w := range vocab {
		row := make([]float64, classes)
		for k := range row {
			lp, ok := b.logProb[k][w]
			if !ok {
				lp = b.logUnk[k]
			}
			row[k] = lp
		}
		b.rows[w] = row
	}
	return b
}

// probsStems writes P(class|text) into p, for text already split by
// stems; words seen in no class are ignored.
func (b *wordBayes) probsStems(ws []string, p []float64) {
	for k := range p {
		p[k] = 0
	}
	for _, w := range ws {
		row, known := b.rows[w]
		if !known {
			continue
		}
		for k := range p {
			p[k] += row[k]
		}
	}
	mx := math.Inf(-1)
	for _, x := range p {
		mx = math.Max(mx, x)
	}
	var sum float64
	for k := range p {
		p[k] = math.Exp(p[k] - mx)
		sum += p[k]
	}
	for k := range p {
		p[k] /= sum
	}
}

// bayesStop are words too common to carry topic.
var bayesStop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the a an of to in and is are was were be been what how why when where who which do does did
	i my me we our you your it its that this these those for on with at by from or as can could should would will
	there their they them he she his her not no if then than so about into over some any all more most much many
	explain describe tell give make get use work works difference between example examples`) {
		bayesStop[w] = true
	}
}

// stems lowercases, drops stop words and strips common English suffixes,
// so "reactions" and "reaction", "octopuses" and "octopus" meet.
func stems(s string) []string { return stemsOf(wordSet(s)) }

// stemsOf is stems for the words of wordSet.
func stemsOf(words map[string]bool) []string {
	out := make([]string, 0, len(words))
	for w := range words {
		if bayesStop[w] || len(w) < 2 {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

func stem(w string) string {
	switch {
	case len(w) <= 4:
		return w
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	}
	for _, suf := range []string{"ations", "ation", "ings", "ing", "ed", "ly"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	// A plural "s", but not the "s" of "virus", "glass" or "analysis".
	if strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "is") {
		return w[:len(w)-1]
	}
	return w
}
