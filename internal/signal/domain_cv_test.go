package signal

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/embed/builtin"
)

// domainCVVerbose prints the cross-validation confusion table, a sweep of
// the blend's weights and the misclassified train rows (train rows only:
// the test split and the dev set are never read here).
var domainCVVerbose = flag.Bool("domaincv", false, "print domain cross-validation details")

// domainCVFolds is how many folds the train split is cut into.
const domainCVFolds = 5

// domainCVFloor is the cross-validated accuracy TestDomainCrossValidation
// requires; it guards against a change to the examples or the blend that
// makes the classifier worse without anyone measuring the test split.
const domainCVFloor = 0.90

type domainRow struct {
	Prompt string `json:"prompt"`
	Domain string `json:"domain"`
}

func readDomainRows(t *testing.T, path string) []domainRow {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []domainRow
	for line := range strings.Lines(string(b)) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var r domainRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, r)
	}
	return out
}

// domainCVFold is one fold's classifier and its validation rows.
type domainCVFold struct {
	c    *DomainClassifier
	rows []domainRow
	vecs [][]float32
}

// buildDomainCVFolds builds one classifier per fold of the train split. Each
// fold's classifier learns from the built-in examples minus the fold's
// rows and minus every example within word-Jaccard domainLeakJaccard of
// one of them, so a reworded copy does not flatter the score.
func buildDomainCVFolds(t *testing.T) []domainCVFold {
	t.Helper()
	ctx := context.Background()
	emb := builtin.New()
	train := readDomainRows(t, domainTrainSplit)
	perClass := map[string]int{}
	folds := make([]domainCVFold, domainCVFolds)
	for _, r := range train {
		f := perClass[r.Domain] % domainCVFolds
		perClass[r.Domain]++
		folds[f].rows = append(folds[f].rows, r)
	}
	builtins := BuiltinDomains()
	for f := range folds {
		held := make([]map[string]bool, len(folds[f].rows))
		for i, r := range folds[f].rows {
			held[i] = leakWords(r.Prompt)
		}
		cats := make([]DomainCategory, len(builtins))
		for k, c := range builtins {
			cats[k] = DomainCategory{Name: c.Name, Keywords: builtinDomainKeywords[c.Name]}
			for _, ex := range c.Examples {
				w := leakWords(ex)
				near := false
				for _, h := range held {
					if jaccard(w, h) >= domainLeakJaccard {
						near = true
						break
					}
				}
				if !near {
					cats[k].Examples = append(cats[k].Examples, ex)
				}
			}
		}
		c, err := newDomainClassifier(ctx, DomainOptions{Embedder: emb, ReplaceBuiltin: true, Categories: cats}, defaultDomainTuning)
		if err != nil {
			t.Fatal(err)
		}
		c.lemmas = vocabIndex(cats)
		prompts := make([]string, len(folds[f].rows))
		for i, r := range folds[f].rows {
			prompts[i] = r.Prompt
		}
		vecs, err := emb.Embed(ctx, prompts)
		if err != nil {
			t.Fatal(err)
		}
		folds[f].c, folds[f].vecs = c, vecs
	}
	return folds
}

// domainCVAccuracy scores every fold with tune and returns the accuracy
// and the confusion counts (want → got → n).
func domainCVAccuracy(folds []domainCVFold, tune domainTuning, minConf float64) (float64, map[string]map[string]int, []string) {
	conf := map[string]map[string]int{}
	var wrong []string
	correct, n := 0, 0
	for _, f := range folds {
		f.c.tune, f.c.minConf = tune, minConf
		for i, r := range f.rows {
			got := f.c.classifyVector(f.vecs[i], newAnalysis(r.Prompt)).Label
			if conf[r.Domain] == nil {
				conf[r.Domain] = map[string]int{}
			}
			conf[r.Domain][got]++
			n++
			if got == r.Domain {
				correct++
			} else {
				wrong = append(wrong, fmt.Sprintf("%-16s → %-16s %s", r.Domain, got, r.Prompt))
			}
		}
	}
	return float64(correct) / float64(n), conf, wrong
}

// TestDomainCrossValidation checks the classifier by five-fold
// cross-validation on the train split of testdata/domain. With -domaincv
// it prints the confusion table, the misclassified train rows and the
// best points of a sweep of the blend's weights:
//
//	go test ./internal/signal -run 'TestDomainCrossValidation$' -v -domaincv
func TestDomainCrossValidation(t *testing.T) {
	qualityCheck(t)
	t.Parallel()
	folds := buildDomainCVFolds(t)
	acc, conf, wrong := domainCVAccuracy(folds, defaultDomainTuning, DefaultDomainMinConfidence)
	t.Logf("cross-validated accuracy %.3f", acc)
	if *domainCVVerbose {
		labels := make([]string, 0, len(conf))
		for l := range conf {
			labels = append(labels, l)
		}
		sort.Strings(labels)
		for _, l := range labels {
			var parts []string
			total, ok := 0, conf[l][l]
			for g, n := range conf[l] {
				total += n
				if g != l {
					parts = append(parts, fmt.Sprintf("%s:%d", g, n))
				}
			}
			sort.Strings(parts)
			t.Logf("%-16s %3d/%3d  %s", l, ok, total, strings.Join(parts, " "))
		}
		for _, w := range wrong {
			t.Log(w)
		}
		logDomainCVSweep(t, folds)
	}
	if acc < domainCVFloor {
		t.Errorf("cross-validated domain accuracy %.3f, want >= %.2f", acc, domainCVFloor)
	}
}

// logDomainCVSweep logs the cross-validated accuracy of the best points of
// a grid of blend weights around the defaults.
func logDomainCVSweep(t *testing.T, folds []domainCVFold) {
	t.Helper()
	type point struct {
		tune domainTuning
		acc  float64
	}
	var pts []point
	for _, bw := range []float64{0.3, 0.5, 0.7} {
		for _, lw := range []float64{0.5, 0.7, 0.85, 1} {
			for _, temp := range []float64{0.03, 0.05, 0.08} {
				for _, ls := range []float64{0, 0.3, 0.5} {
					for _, ks := range []float64{0, 0.3, 0.5} {
						tn := domainTuning{keywordStep: ks, temperature: temp, bayesW: bw, linearW: lw, lemmaStep: ls, gramW: defaultDomainTuning.gramW, pairW: defaultDomainTuning.pairW}
						acc, _, _ := domainCVAccuracy(folds, tn, DefaultDomainMinConfidence)
						pts = append(pts, point{tn, acc})
					}
				}
			}
		}
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].acc > pts[j].acc })
	for _, p := range pts[:min(15, len(pts))] {
		t.Logf("sweep %.3f %+v", p.acc, p.tune)
	}
	// The n-gram weight, the other weights at their defaults.
	for _, gw := range []float64{0, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1} {
		tn := defaultDomainTuning
		tn.gramW = gw
		acc, _, _ := domainCVAccuracy(folds, tn, DefaultDomainMinConfidence)
		t.Logf("sweep gramW %.3f %+v", acc, tn)
	}
	// The word-pair weight, the other weights at their defaults.
	for _, pw := range []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8} {
		tn := defaultDomainTuning
		tn.pairW = pw
		acc, _, _ := domainCVAccuracy(folds, tn, DefaultDomainMinConfidence)
		t.Logf("sweep pairW %.3f %+v", acc, tn)
	}
}
