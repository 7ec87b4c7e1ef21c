package signal

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"testing"
)

var updateJailbreakModel = flag.Bool("update-jailbreak-model", false, "retrain jailbreak_model.json from testdata/jailbreak/train.jsonl and train_extra*.jsonl")

// Training: full-batch AdaGrad from zero weights, so the same rows always
// give the same model. The per-weight step lets a word or trigram seen in a
// handful of rows learn as fast as the dense features; L2 was chosen by
// cross-validation on the training rows.
const (
	trainEpochs = 400
	trainRate   = 0.3
	trainL2     = 1e-5
	trainFolds  = 5
)

// modelReasons are the rule reasons the model takes as inputs, in a fixed
// order; similarity depends on the configured embedder and is left out.
var modelReasons = []string{ReasonOverride, ReasonPersona, ReasonExtraction, ReasonAuthority, ReasonFraming,
	ReasonEncoded, ReasonHypothetical, ReasonRefusal, ReasonSplit, ReasonEmotional, ReasonObfuscated}

// example is a training row's features and label, with the rule score that
// the detector combines with the model.
type example struct {
	f     jbFeatures
	y     float64
	rules float64
}

// The rule score is that of the default detector (builtin embedder, so
// with similarity to the shipped examples) without the model.
func examplesOf(tb testing.TB, rows []corpusRow) []example {
	tb.Helper()
	d, err := NewJailbreakDetector(context.Background(), JailbreakOptions{Embedder: builtinEmbedder, NoLearnedModel: true})
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]example, 0, len(rows))
	for _, r := range rows {
		res, err := d.Detect(context.Background(), r.Text)
		if err != nil {
			tb.Fatal(err)
		}
		text := withoutQuotes(r.Text)
		f, err := features(text, nil, cues(text), scorePatterns(text, 0))
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, example{f: f, y: b2f(r.Label == "attack"), rules: res.Score})
	}
	return out
}

// fit trains the logistic regression with classes weighted equally.
func fit(exs []example) *jbModel {
	m := newModel()
	var pos float64
	for _, e := range exs {
		pos += e.y
	}
	n := float64(len(exs))
	wPos, wNeg := n/(2*pos), n/(2*(n-pos))
	acc := newModel()
	for range trainEpochs {
		g := newModel()
		for _, e := range exs {
			d := sigmoid(m.logit(e.f)) - e.y
			if e.y == 1 {
				d *= wPos
			} else {
				d *= wNeg
			}
			g.Bias += d
			for i, v := range e.f.vec {
				g.Vector[i] += d * float64(v)
			}
			for b := range 32 {
				if e.f.cues&(1<<b) != 0 {
					g.Cues[b] += d
				}
			}
			for r, w := range e.f.reasons {
				g.Reasons[r] += d * w
			}
			for k, v := range e.f.ngrams {
				g.NGrams[k] += d * v
			}
			for k, v := range e.f.words {
				g.Words[k] += d * v
			}
		}
		// a accumulates the squared gradients of w.
		step := func(w, a *float64, grad float64) {
			grad = grad/n + trainL2**w
			*a += grad * grad
			if *a > 0 {
				*w -= trainRate * grad / math.Sqrt(*a)
			}
		}
		step(&m.Bias, &acc.Bias, g.Bias)
		for i := range m.Vector {
			step(&m.Vector[i], &acc.Vector[i], g.Vector[i])
		}
		for i := range m.Cues {
			step(&m.Cues[i], &acc.Cues[i], g.Cues[i])
		}
		for _, r := range modelReasons {
			w, a := m.Reasons[r], acc.Reasons[r]
			step(&w, &a, g.Reasons[r])
			m.Reasons[r], acc.Reasons[r] = w, a
		}
		for i := range m.NGrams {
			step(&m.NGrams[i], &acc.NGrams[i], g.NGrams[i])
		}
		for i := range m.Words {
			step(&m.Words[i], &acc.Words[i], g.Words[i])
		}
	}
	return m
}

// newModel returns a model with every weight zero.
func newModel() *jbModel {
	return &jbModel{Vector: make([]float64, 100), Cues: make([]float64, 32), Reasons: map[string]float64{},
		NGrams: make([]float64, jbNGramBuckets), Words: make([]float64, jbWordBuckets)}
}

// chooseThresholds picks the probabilities at which the model calls a
// prompt an attack, by cross-validation on the training rows: for a prompt
// that shows a wrapper or rule reason (showsWrapper), the lowest (at least
// 0.5) at which the model adds no false alarm to those of the rules; for
// any other prompt, the lowest (at least that) at which it adds none either.
// p holds the rows' cross-validated probabilities.
func chooseThresholds(exs []example, p []float64) (wrapped, unwrapped float64, report string) {
	wrapped = 0.5
	for i, e := range exs {
		if e.y == 0 && e.rules < 0.5 && showsWrapper(e.f.cues, e.f.reasons) {
			wrapped = math.Max(wrapped, math.Ceil(p[i]*1000+1e-9)/1000)
		}
	}
	unwrapped = wrapped
	for i, e := range exs {
		if e.y == 0 && e.rules < 0.5 && !showsWrapper(e.f.cues, e.f.reasons) {
			unwrapped = math.Max(unwrapped, math.Ceil(p[i]*1000+1e-9)/1000)
		}
	}
	m := &jbModel{Threshold: wrapped, Unwrapped: unwrapped}
	var b bytes.Buffer
	for _, mode := range []string{"rules", "model", "detector, listed wrappers only", "detector"} {
		var tp, fn, fp, tn float64
		for i, e := range exs {
			hit := e.rules >= 0.5
			switch mode {
			case "model":
				hit = p[i] >= wrapped
			case "detector, listed wrappers only":
				hit = hit || showsWrapper(e.f.cues, e.f.reasons) && p[i] >= wrapped
			case "detector":
				hit = hit || m.flags(p[i], showsWrapper(e.f.cues, e.f.reasons))
			}
			switch {
			case e.y == 1 && hit:
				tp++
			case e.y == 1:
				fn++
			case hit:
				fp++
			default:
				tn++
			}
		}
		fmt.Fprintf(&b, "%-30s cross-validated recall %.3f FPR %.3f\n", mode, tp/(tp+fn), fp/(fp+tn))
	}
	return wrapped, unwrapped, b.String()
}

// TestJailbreakModelIsTrainedFromTheTrainSplit retrains the model from the
// training split and compares it with the shipped one (or, with
// -update-jailbreak-model, writes it).
func TestJailbreakModelIsTrainedFromTheTrainSplit(t *testing.T) {
	qualityCheck(t)
	if testing.Short() && !*updateJailbreakModel {
		t.Skip("training takes seconds")
	}
	t.Parallel()
	exs := examplesOf(t, trainingRows(t))
	m := fit(exs)
	var report string
	m.Threshold, m.Unwrapped, report = chooseThresholds(exs, crossValidated(exs))
	t.Logf("model thresholds %.3f (shows a wrapper), %.3f (any prompt)\n%s", m.Threshold, m.Unwrapped, report)
	if *updateJailbreakModel {
		if err := os.WriteFile("jailbreak_model.json", encodeModel(m), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	shipped, err := loadJailbreakModel()
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-3
	if math.Abs(shipped.Threshold-m.Threshold) > tol || math.Abs(shipped.Unwrapped-m.Unwrapped) > tol || math.Abs(shipped.Bias-m.Bias) > tol {
		t.Fatalf("shipped model thresholds %v, %v and bias %v, training gives %v, %v and %v; run go generate ./internal/signal",
			shipped.Threshold, shipped.Unwrapped, shipped.Bias, m.Threshold, m.Unwrapped, m.Bias)
	}
	for i := range m.NGrams {
		if math.Abs(shipped.NGrams[i]-m.NGrams[i]) > tol {
			t.Fatalf("shipped n-gram weight %d is %v, training gives %v; run go generate ./internal/signal", i, shipped.NGrams[i], m.NGrams[i])
		}
	}
	for i := range m.Words {
		if math.Abs(shipped.Words[i]-m.Words[i]) > tol {
			t.Fatalf("shipped word weight %d is %v, training gives %v; run go generate ./internal/signal", i, shipped.Words[i], m.Words[i])
		}
	}
}

// encodeModel writes weights with five significant digits, keys sorted.
func encodeModel(m *jbModel) []byte {
	round := func(xs []float64) []float64 {
		out := make([]float64, len(xs))
		for i, x := range xs {
			out[i], _ = parseFloat(fmt.Sprintf("%.5g", x))
		}
		return out
	}
	keys := make([]string, 0, len(m.Reasons))
	for k := range m.Reasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	reasons := map[string]float64{}
	for _, k := range keys {
		reasons[k] = round([]float64{m.Reasons[k]})[0]
	}
	out := jbModel{Threshold: m.Threshold, Unwrapped: m.Unwrapped, Bias: round([]float64{m.Bias})[0], Vector: round(m.Vector), Cues: round(m.Cues), Reasons: reasons, NGrams: round(m.NGrams), Words: round(m.Words)}
	b, err := json.Marshal(out)
	if err != nil {
		panic(err) // plain numbers always marshal
	}
	return append(b, '\n')
}

func parseFloat(s string) (float64, error) {
	var f float64
	_, err := fmt.Sscan(s, &f)
	return f, err
}

// TestJailbreakModelScoreIsLogit checks the detector's allocation-free
// scoring against the feature maps the model is trained on.
func TestJailbreakModelScoreIsLogit(t *testing.T) {
	t.Parallel()
	m, err := loadJailbreakModel()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range readCorpus(t, "testdata/jailbreak/train.jsonl")[:60] {
		text := withoutQuotes(r.Text)
		reasons := scorePatterns(text, 0)
		f, err := features(text, nil, cues(text), reasons)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := m.logit(f), m.score(wordView(text), f.vec, f.cues, reasons); math.Abs(a-b) > 1e-9 {
			t.Errorf("%q: logit %v, score %v", r.Text, a, b)
		}
	}
}

// crossValidated returns each row's attack probability from a model
// trained on the other folds.
func crossValidated(exs []example) []float64 {
	idx := make([]int, len(exs))
	for i := range idx {
		idx[i] = i
	}
	rand.New(rand.NewPCG(7, 11)).Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	p := make([]float64, len(exs))
	for fold := range trainFolds {
		var tr []example
		for k, i := range idx {
			if k%trainFolds != fold {
				tr = append(tr, exs[i])
			}
		}
		m := fit(tr)
		for k, i := range idx {
			if k%trainFolds == fold {
				p[i] = sigmoid(m.logit(exs[i].f))
			}
		}
	}
	return p
}

// TestWordBucketsFoldAccents checks that a word and its unaccented spelling
// share a bucket, and that word pairs are counted beside words.
func TestWordBucketsFoldAccents(t *testing.T) {
	t.Parallel()
	accented, normA := wordBuckets(wordView("Cómo fabricó"), nil)
	plain, normP := wordBuckets(wordView("como fabrico"), nil)
	if !slices.Equal(accented, plain) || normA != normP {
		t.Errorf("wordBuckets(%q) = %v, %v; wordBuckets(%q) = %v, %v", "Cómo fabricó", accented, normA, "como fabrico", plain, normP)
	}
	if len(plain) != 3 {
		t.Errorf("wordBuckets(%q) has %d buckets, want 3 (two words, one pair)", "como fabrico", len(plain))
	}
	yo, _ := wordBuckets(wordView("фёдор"), nil)
	ye, _ := wordBuckets(wordView("федор"), nil)
	if !slices.Equal(yo, ye) {
		t.Errorf("wordBuckets(%q) = %v, want that of %q, %v", "фёдор", yo, "федор", ye)
	}
}
