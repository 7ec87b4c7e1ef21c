package signal

import (
	"math"
	"math/rand/v2"
	"testing"
)

// jailbreakTestPrompts are every prompt of the jailbreak test data, in six
// languages, attacks and benign ones.
func jailbreakTestPrompts(tb testing.TB) []corpusRow {
	tb.Helper()
	var rows []corpusRow
	for _, name := range []string{"corpus", "blind", "blind4", "blind7", "blind8", "blind9", "blind10", "blind11", "blind12", "blind13", "blind14", "blind15", "blind16", "harm_plain"} {
		rows = append(rows, readCorpus(tb, "testdata/jailbreak/"+name+".jsonl")...)
	}
	return rows
}

// similarityOf is the similarity weight the detector gives for a gap, as
// detect computes it, and whether it gives any.
func similarityOf(gap float64, over bool, margin, width float64) (float64, bool) {
	if !over {
		return 0, false
	}
	return maxSimilarityWeight * math.Min(1, (gap-margin)/width), true
}

// TestBoundedRowsGiveThePlainScansSimilarity compares the bounded scan with
// reading every row, on the shipped background and every test prompt, with
// the shipped margin and width and with others.
func TestBoundedRowsGiveThePlainScansSimilarity(t *testing.T) {
	t.Parallel()
	d, err := routerDetector()
	if err != nil {
		t.Fatal(err)
	}
	if d.benign.basis == nil {
		t.Fatal("the shipped background has no bounds")
	}
	overs, partial, bounded, plain := 0, 0, 0, 0
	for _, r := range jailbreakTestPrompts(t) {
		v, err := builtinEmbedder.Vector(r.Text)
		if err != nil {
			t.Fatal(err)
		}
		q := centred(v, d.mean)
		attack := maxDot(q, d.attacks)
		// Which way the shipped margin and width read the rows past the first.
		if attack-maxDot(q, d.benign.rows[:boundPlainRows]) >= d.margin+d.width {
			bounded++
		} else {
			plain++
		}
		for _, mw := range [][2]float64{{d.margin, d.width}, {0, 0.1}, {0.2, 0.05}, {0.01, 1}} {
			margin, width := mw[0], mw[1]
			wantGap, wantOver := gapOver(attack, q, d.benign.rows, margin)
			gotGap, gotOver := d.benign.gapOver(attack, q, margin, width)
			want, _ := similarityOf(wantGap, wantOver, margin, width)
			got, _ := similarityOf(gotGap, gotOver, margin, width)
			if gotOver != wantOver || got != want {
				t.Fatalf("%q, margin %v, width %v: bounded gap %v (over %v, weight %v), plain %v (over %v, weight %v)",
					r.Text, margin, width, gotGap, gotOver, got, wantGap, wantOver, want)
			}
			if wantOver {
				overs++
				if want < maxSimilarityWeight {
					partial++
				}
			}
		}
	}
	if overs < 1000 || partial < 100 || bounded < 500 || plain < 500 {
		t.Fatalf("%d prompts over the margin, %d of them below full weight, %d read with the bounds and %d without: too few to test",
			overs, partial, bounded, plain)
	}
}

// TestBoundsHold checks the bound itself: no row's product with a query
// exceeds it, for the test prompts and for random directions.
func TestBoundsHold(t *testing.T) {
	t.Parallel()
	d, err := routerDetector()
	if err != nil {
		t.Fatal(err)
	}
	b := d.benign
	var queries [][]float32
	for i, r := range jailbreakTestPrompts(t) {
		if i%7 != 0 {
			continue
		}
		v, err := builtinEmbedder.Vector(r.Text)
		if err != nil {
			t.Fatal(err)
		}
		queries = append(queries, centred(v, d.mean))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		q := make([]float32, len(d.mean))
		for i := range q {
			q[i] = float32(rng.NormFloat64())
		}
		queries = append(queries, centred(q, make([]float32, len(q))))
	}
	for _, q := range queries {
		qc, qRest := b.query(q)
		for i, row := range b.rows {
			exact := float64(dot(q, row))
			bound := float64(b.bound(qc[:], qRest, i))
			if exact > bound+boundSlack/10 {
				t.Fatalf("row %d: product %v above its bound %v by more than a tenth of the slack", i, exact, bound)
			}
		}
	}
}

// TestBoundsSkipMostRowsForOtherLanguages checks that the bounds do their
// job where it matters: for prompts in languages the English background
// does not cover, most rows past the first are ruled out by the bound alone
// (the bound is below attack-margin-width, where similarity has full weight).
func TestBoundsSkipMostRowsForOtherLanguages(t *testing.T) {
	t.Parallel()
	d, err := routerDetector()
	if err != nil {
		t.Fatal(err)
	}
	b := d.benign
	var ruledOut, rows int
	for _, r := range readCorpus(t, "testdata/jailbreak/blind16.jsonl") {
		if r.Language == "en" {
			continue
		}
		v, err := builtinEmbedder.Vector(r.Text)
		if err != nil {
			t.Fatal(err)
		}
		q := centred(v, d.mean)
		floor := maxDot(q, d.attacks) - d.margin - d.width
		qc, qRest := b.query(q)
		for i := boundPlainRows; i < len(b.rows); i++ {
			rows++
			if float64(b.bound(qc[:], qRest, i)) <= floor-boundSlack {
				ruledOut++
			}
		}
	}
	share := float64(ruledOut) / float64(rows)
	t.Logf("the bounds rule out %.3f of the rows past the first %d", share, boundPlainRows)
	if share < 0.6 {
		t.Errorf("the bounds rule out %.2f of the rows for prompts in other languages, want at least 0.6", share)
	}
}

// TestBoundedRowsWithRandomRows compares the bounded and plain scans on
// random rows, where the bound is loose, and on rows that lie close to a
// few directions, where it is tight.
func TestBoundedRowsWithRandomRows(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 40 {
		dims := 64 + rng.IntN(193)
		n := boundPlainRows + 1 + rng.IntN(400)
		var rows [][]float32
		for range n {
			v := make([]float32, dims)
			for i := range v {
				v[i] = float32(rng.NormFloat64())
				if trial%2 == 1 && i >= 8 {
					v[i] *= 0.05 // most of the energy in a few directions
				}
			}
			rows = append(rows, centred(v, make([]float32, dims)))
		}
		b := newBoundedRows(packRows(rows))
		if b.basis == nil {
			t.Fatalf("%d rows of %d dimensions got no bounds", n, dims)
		}
		for range 50 {
			q := make([]float32, dims)
			for i := range q {
				q[i] = float32(rng.NormFloat64())
			}
			q = centred(q, make([]float32, dims))
			attack := rng.Float64()*1.5 - 0.25
			margin, width := rng.Float64()*0.2, 0.01+rng.Float64()*0.3
			wantGap, wantOver := gapOver(attack, q, b.rows, margin)
			gotGap, gotOver := b.gapOver(attack, q, margin, width)
			want, _ := similarityOf(wantGap, wantOver, margin, width)
			got, _ := similarityOf(gotGap, gotOver, margin, width)
			if gotOver != wantOver || got != want {
				t.Fatalf("trial %d: bounded gap %v (over %v, weight %v), plain %v (over %v, weight %v)", trial, gotGap, gotOver, got, wantGap, wantOver, want)
			}
		}
	}
}

// BenchmarkBenignGap is the similarity check's scan of the benign
// background, read in full and with the bounds, for the prompts of blind16
// in English and in two languages the background does not cover; an
// operation is one prompt.
func BenchmarkBenignGap(b *testing.B) {
	d, err := routerDetector()
	if err != nil {
		b.Fatal(err)
	}
	type query struct {
		q      []float32
		attack float64
	}
	byLang := map[string][]query{}
	for _, r := range readCorpus(b, "testdata/jailbreak/blind16.jsonl") {
		v, err := builtinEmbedder.Vector(r.Text)
		if err != nil {
			b.Fatal(err)
		}
		q := centred(v, d.mean)
		byLang[r.Language] = append(byLang[r.Language], query{q, maxDot(q, d.attacks)})
	}
	for _, lang := range []string{"en", "de", "zh"} {
		qs := byLang[lang]
		b.Run(lang+"/plain", func(b *testing.B) {
			i := 0
			for b.Loop() {
				gapOver(qs[i].attack, qs[i].q, d.benign.rows, d.margin)
				i = (i + 1) % len(qs)
			}
		})
		b.Run(lang+"/bounded", func(b *testing.B) {
			i := 0
			for b.Loop() {
				d.benign.gapOver(qs[i].attack, qs[i].q, d.margin, d.width)
				i = (i + 1) % len(qs)
			}
		})
	}
}

// TestBoundedRowsLeaveSomeRowsPlain checks the cases that read every row:
// few rows, short vectors, and vectors longer than the one-off computation
// of directions is kept for.
func TestBoundedRowsLeaveSomeRowsPlain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ rows, dims int }{{boundPlainRows, 100}, {500, 2*boundDirections - 1}, {500, boundMaxDims + 1}} {
		rows := make([][]float32, c.rows)
		for i := range rows {
			rows[i] = make([]float32, c.dims)
			rows[i][i%c.dims] = 1
		}
		if b := newBoundedRows(packRows(rows)); b.basis != nil {
			t.Errorf("%d rows of %d dimensions got bounds", c.rows, c.dims)
		}
	}
}
