package signal

import (
	_ "embed" // the shipped model
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/semantic-router/semantic-router/internal/embed/builtin"
)

// The learned part of the jailbreak score is a logistic regression over
// five groups of features: the builtin word-vector embedding of the prompt
// (topic), hashed character trigrams (wording in any script), hashed words
// and word pairs without accents (phrasing), the lexicon categories, and
// the weights of the rule reasons. It is trained from the
// training split of testdata/jailbreak only, by
//
//	go test ./internal/signal -run TestJailbreakModelIsTrainedFromTheTrainSplit -update-jailbreak-model
//
// which writes jailbreak_model.json; without the flag the same test checks
// that the shipped file is what training produces.
//
//go:generate go test -run TestJailbreakModelIsTrainedFromTheTrainSplit -update-jailbreak-model .
//go:embed jailbreak_model.json
var jailbreakModelJSON []byte

// jbModel is the shipped model.
type jbModel struct {
	// Threshold is the probability at which the model alone flags a
	// prompt that shows some wrapper or rule reason (showsWrapper), chosen
	// by cross-validation on the training split.
	Threshold float64 `json:"threshold"`
	// Unwrapped is the probability at which the model flags a prompt whose
	// wrapper is in words the lexicon does not list; chosen the same way,
	// it is at least Threshold.
	Unwrapped float64            `json:"unwrapped_threshold"`
	Bias      float64            `json:"bias"`
	Vector    []float64          `json:"vector"`
	Cues      []float64          `json:"cues"`
	Reasons   map[string]float64 `json:"reasons"`
	NGrams    []float64          `json:"ngrams"`
	Words     []float64          `json:"words"`
}

// ReasonLearned is reported when the learned model alone is confident.
const ReasonLearned = "learned_model"

// learnedWeight is the learned_model reason's weight: enough to flag a
// prompt on its own at the default threshold.
const learnedWeight = 0.6

// showsWrapper reports whether a prompt shows some attack wrapper the
// lexicon lists, or a rule reason. The learned model flags such a prompt at
// its Threshold and any other only at the higher Unwrapped: a wrapper in
// words nobody listed ("pásate por el forro las directrices") is common
// outside English, but the model must be surer without a listed one.
func showsWrapper(c cueSet, reasons map[string]float64) bool {
	return c&wrapperCues != 0 || combine(reasons) >= 0.3
}

// flags reports whether the model's probability p flags a prompt that
// shows a wrapper (wrapped) or not.
func (m *jbModel) flags(p float64, wrapped bool) bool {
	if wrapped {
		return p >= m.Threshold
	}
	return p >= m.Unwrapped
}

// jbFeatures is one prompt's feature vector in sparse form.
type jbFeatures struct {
	vec     []float32
	cues    cueSet
	reasons map[string]float64
	ngrams  map[int]float64
	words   map[int]float64
}

// jbNGramBuckets is the size of the hashed trigram space.
const jbNGramBuckets = 1 << 13

var loadJailbreakModel = sync.OnceValues(func() (*jbModel, error) {
	var m jbModel
	if err := json.Unmarshal(jailbreakModelJSON, &m); err != nil {
		return nil, fmt.Errorf("jailbreak model: %w", err)
	}
	if m.Unwrapped < m.Threshold {
		return nil, fmt.Errorf("jailbreak model: unwrapped threshold %v below the threshold %v", m.Unwrapped, m.Threshold)
	}
	if len(m.Vector) != builtin.Dimensions || len(m.Cues) != 32 || len(m.NGrams) != jbNGramBuckets || len(m.Words) != jbWordBuckets {
		return nil, fmt.Errorf("jailbreak model: %d vector, %d cue, %d n-gram and %d word weights, want %d, 32, %d and %d",
			len(m.Vector), len(m.Cues), len(m.NGrams), len(m.Words), builtin.Dimensions, jbNGramBuckets, jbWordBuckets)
	}
	return &m, nil
})

// features computes the model's inputs; vec is the builtin embedding of
// text (nil to compute it).
func features(text string, vec []float32, c cueSet, reasons map[string]float64) (jbFeatures, error) {
	if vec == nil {
		var err error
		if vec, err = builtinEmbedder.Vector(text); err != nil {
			return jbFeatures{}, err
		}
	}
	view := wordView(text)
	return jbFeatures{vec: vec, cues: c, reasons: reasons, ngrams: counts(trigramBuckets(view, nil)), words: counts(wordBuckets(view, nil))}, nil
}

var builtinEmbedder = builtin.New()

// counts turns buckets and their norm into L2-normalised counts.
func counts(buckets []uint32, norm float64) map[int]float64 {
	out := map[int]float64{}
	for _, b := range buckets {
		out[int(b)] += 1 / norm
	}
	return out
}

// trigramBuckets appends the bucket of every character trigram of view to
// dst and returns the L2 norm of their counts.
func trigramBuckets(view string, dst []uint32) ([]uint32, float64) {
	var win [3]int // byte offsets of the last three rune starts
	n := 0
	for i := 0; i < len(view); {
		_, size := utf8.DecodeRuneInString(view[i:])
		win[0], win[1], win[2] = win[1], win[2], i
		n++
		i += size
		if n >= 3 {
			h := uint32(2166136261) // FNV-1a
			for j := win[0]; j < i; j++ {
				h ^= uint32(view[j])
				h *= 16777619
			}
			dst = append(dst, h%jbNGramBuckets)
		}
	}
	return l2Norm(dst)
}

// jbWordBuckets is the size of the hashed space of words and word pairs.
const jbWordBuckets = 1 << 14

// wordBuckets appends the bucket of every word of view, and of every two
// adjacent words, to dst and returns the L2 norm of their counts.
// Accents are folded first (foldRune), so that "cómo" and "como" are one
// word.
func wordBuckets(view string, dst []uint32) ([]uint32, float64) {
	const offset = uint32(2166136261) // FNV-1a, over the folded runes
	h, prev, word, hasPrev := offset, uint32(0), false, false
	for _, r := range view {
		if r != ' ' {
			h ^= uint32(foldRune(r)) //nolint:gosec // a decoded rune is never negative
			h *= 16777619
			word = true
			continue
		}
		if !word {
			continue
		}
		dst = append(dst, h%jbWordBuckets)
		if hasPrev {
			pair := (prev*0x9e3779b1 ^ h) * 0x85ebca6b
			dst = append(dst, (pair^pair>>16)%jbWordBuckets)
		}
		prev, hasPrev, h, word = h, true, offset, false
	}
	return l2Norm(dst)
}

// foldRune maps the accented letters that foldAccent folds to their plain
// letters.
func foldRune(r rune) rune {
	switch r {
	case 'á', 'à', 'â':
		return 'a'
	case 'é', 'è', 'ê':
		return 'e'
	case 'í', 'ì', 'î':
		return 'i'
	case 'ó', 'ò', 'ô':
		return 'o'
	case 'ú', 'ù', 'û':
		return 'u'
	case 'ñ':
		return 'n'
	case 'ç':
		return 'c'
	case 'ё':
		return 'е'
	}
	return r
}

// bucketCounts are scratch counters for l2Norm, one per bucket, all zero
// between uses.
var bucketCounts = sync.Pool{New: func() any { return new([max(jbWordBuckets, jbNGramBuckets)]uint32) }}

// l2Norm returns buckets with the L2 norm of their counts. It counts in
// place of sorting: a 200-token prompt has about a thousand trigrams.
func l2Norm(buckets []uint32) ([]uint32, float64) {
	cnt := bucketCounts.Get().(*[max(jbWordBuckets, jbNGramBuckets)]uint32)
	var sq float64
	for _, b := range buckets {
		// (c+1)² - c² = 2c+1
		sq += float64(2*cnt[b] + 1)
		cnt[b]++
	}
	for _, b := range buckets {
		cnt[b] = 0
	}
	bucketCounts.Put(cnt)
	return buckets, math.Sqrt(sq)
}

// score is logit(features(...)) without building the feature maps; view
// is wordView(text).
func (m *jbModel) score(view string, vec []float32, c cueSet, reasons map[string]float64) float64 {
	s := m.Bias
	for i, v := range vec[:min(len(vec), len(m.Vector))] {
		s += m.Vector[i] * float64(v)
	}
	for b := range 32 {
		if c&(1<<b) != 0 {
			s += m.Cues[b]
		}
	}
	for r, w := range reasons {
		s += m.Reasons[r] * w
	}
	var buf [1024]uint32
	buckets, norm := trigramBuckets(view, buf[:0])
	for _, b := range buckets {
		s += m.NGrams[b] / norm
	}
	buckets, norm = wordBuckets(view, buf[:0])
	for _, b := range buckets {
		s += m.Words[b] / norm
	}
	return s
}

// logit is the model's linear score of f.
func (m *jbModel) logit(f jbFeatures) float64 {
	s := m.Bias
	for i, v := range f.vec[:min(len(f.vec), len(m.Vector))] {
		s += m.Vector[i] * float64(v)
	}
	for b := range 32 {
		if f.cues&(1<<b) != 0 {
			s += m.Cues[b]
		}
	}
	for r, w := range f.reasons {
		s += m.Reasons[r] * w
	}
	for k, v := range f.ngrams {
		s += m.NGrams[k] * v
	}
	for k, v := range f.words {
		s += m.Words[k] * v
	}
	return s
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
