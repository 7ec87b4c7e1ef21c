package signal

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// domainLeakJaccard is the word-Jaccard similarity at which an evaluation prompt
// counts as seen in training: a reworded copy of a training example
// measures memory, not generalisation.
const domainLeakJaccard = 0.5

const (
	domainTestSplit  = "testdata/domain/test.jsonl"
	domainTrainSplit = "testdata/domain/train.jsonl"
)

// domainDevSetPath is the shared labelled dev set beside the repository
// checkout; SEMANTIC_ROUTER_DEV_SET overrides it (e.g. from a worktree).
func domainDevSetPath() string {
	if p := os.Getenv("SEMANTIC_ROUTER_DEV_SET"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "..", "shared", "eval", "dev.jsonl")
}

// readDomainPrompts returns the "prompt" field of every JSONL row in path.
func readDomainPrompts(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var row struct {
			Prompt string `json:"prompt"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", path, n, err)
		}
		out = append(out, row.Prompt)
	}
	return out, sc.Err()
}

// domainEvalPrompts returns the prompts the domain classifier is measured on:
// the test split and, when it is readable, the shared dev set. Under
// CI=true the dev set must exist.
func domainEvalPrompts(t *testing.T) []string {
	t.Helper()
	test, err := readDomainPrompts(domainTestSplit)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := readDomainPrompts(domainDevSetPath())
	switch {
	case errors.Is(err, fs.ErrNotExist) && os.Getenv("CI") != "true":
		t.Logf("dev set not found at %s; checking the test split only (set SEMANTIC_ROUTER_DEV_SET)", domainDevSetPath())
	case err != nil:
		t.Fatal(err)
	}
	return append(test, dev...)
}

// domainTrainingPrompts returns every prompt the shipped classifier learns
// from: the built-in examples and the train split.
func domainTrainingPrompts(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, c := range BuiltinDomains() {
		out = append(out, c.Examples...)
	}
	train, err := readDomainPrompts(domainTrainSplit)
	if err != nil {
		t.Fatal(err)
	}
	return append(out, train...)
}

// leakWords are the lowercased letter and digit runs of s, for the leakage checks: every
// word counts, so two prompts that differ only in their subject still collide.
func leakWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		out[w] = true
	}
	return out
}

// domainNearPairs lists each evaluation prompt within domainLeakJaccard of a training
// prompt, with the closest one. An evaluation prompt is named by its index, never shown:
// whoever mends the leak removes the training example, and must not read the test row.
func domainNearPairs(evals, train []string) []string {
	tw := make([]map[string]bool, len(train))
	for i, s := range train {
		tw[i] = leakWords(s)
	}
	var out []string
	for ei, e := range evals {
		ew := leakWords(e)
		best, bestJ := -1, 0.0
		for i, w := range tw {
			if j := jaccard(ew, w); j >= domainLeakJaccard && j > bestJ {
				best, bestJ = i, j
			}
		}
		if best >= 0 {
			out = append(out, nearPair(bestJ, ei, train[best]))
		}
	}
	return out
}

func nearPair(j float64, eval int, train string) string {
	return fmt.Sprintf("%.2f: training example %q is near evaluation prompt #%d", j, train, eval)
}

// liftedDomainKeywords lists keywords that occur in evaluation prompts but in no
// training prompt and in no category's WordNet vocabulary: words that can
// only have come from reading the evaluation rows. Words are compared by
// stem, so "ribosomes" is vocabulary when WordNet has "ribosome".
func liftedDomainKeywords(keywords map[string][]string, evals, train []string, vocab map[string]domainVocab) []string {
	seen := map[string]bool{}
	add := func(set map[string]bool, ws ...string) {
		for _, w := range ws {
			set[domainLeakStem(w)] = true
		}
	}
	for _, s := range train {
		for w := range leakWords(s) {
			add(seen, w)
		}
	}
	for _, v := range vocab {
		add(seen, v.lemmas...)
		add(seen, v.glosses...)
	}
	inEval := map[string]bool{}
	for _, s := range evals {
		for w := range leakWords(s) {
			add(inEval, w)
		}
	}
	var out []string
	for cat, ws := range keywords {
		for _, k := range ws {
			if st := domainLeakStem(k); inEval[st] && !seen[st] {
				out = append(out, cat+": "+k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// domainLeakStem folds a word to the naive-Bayes stem without a final "e", so
// "ribosome" and "ribosomes" meet.
func domainLeakStem(w string) string { return strings.TrimSuffix(stem(strings.ToLower(w)), "e") }

// TestDomainLeakage fails when an evaluation prompt (test split, dev set,
// the fresh set of 2026-12-03) is within word-Jaccard 0.5 of a training
// example, or a keyword list holds a word that only evaluation prompts (test
// split, dev set) use.
func TestDomainLeakage(t *testing.T) {
	t.Parallel()
	evals, train := domainEvalPrompts(t), domainTrainingPrompts(t)
	// The fresh set of 2026-12-03 was written after the keyword lists, so it joins the
	// near-copy check only: no training example may come near it from now on.
	fresh, err := readDomainPrompts("testdata/heldout_2026-12-03.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if near := domainNearPairs(append(evals[:len(evals):len(evals)], fresh...), train); len(near) > 0 {
		t.Errorf("%d evaluation prompts are within word-Jaccard %.1f of a training example:\n%s",
			len(near), domainLeakJaccard, strings.Join(near, "\n"))
	}
	if lifted := liftedDomainKeywords(builtinDomainKeywords, evals, train, builtinDomainVocab()); len(lifted) > 0 {
		t.Errorf("keywords found only in evaluation prompts:\n%s", strings.Join(lifted, "\n"))
	}
}

// TestDomainLeakageCatchesPlantedOverlap checks the checks: a test row
// reworded into the training examples, and a word only a test row uses
// planted as a keyword, are both reported.
func TestDomainLeakageCatchesPlantedOverlap(t *testing.T) {
	t.Parallel()
	evals, train := domainEvalPrompts(t), domainTrainingPrompts(t)
	victim := evals[0]
	ws := strings.Fields(victim)
	planted := strings.Join(append(ws[:len(ws)-1:len(ws)-1], "indeed?"), " ") // last word swapped
	near := domainNearPairs(evals, append(train[:len(train):len(train)], planted))
	found := false
	for _, n := range near {
		found = found || strings.HasSuffix(n, nearPair(0, 0, planted)[len("0.00"):])
	}
	if !found { // the planted row is a test row's near copy: it is not printed either
		t.Errorf("the planted near copy of evaluation prompt #0 was not reported (%d pairs reported)", len(near))
	}

	const word = "zqxjvortle"
	evalsWithWord := append(evals[:len(evals):len(evals)], "What does "+word+" mean?")
	kw := map[string][]string{"biology": {"cell", word}}
	got := liftedDomainKeywords(kw, evalsWithWord, train, builtinDomainVocab())
	if want := []string{"biology: " + word}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("liftedDomainKeywords = %v, want %v", got, want)
	}
}
