package signal

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/semantic-router/semantic-router/internal/embed/builtin"
)

// corpusRow is one line of testdata/jailbreak/*.jsonl.
type corpusRow struct {
	Text     string `json:"text"`
	Label    string `json:"label"`
	Family   string `json:"family"`
	Language string `json:"language"`
}

func readCorpus(tb testing.TB, path string) []corpusRow {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var rows []corpusRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r corpusRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return rows
}

// langScore counts one language's confusion matrix.
type langScore struct{ tp, fn, fp, tn int }

func (s langScore) recall() float64 { return float64(s.tp) / float64(max(1, s.tp+s.fn)) }
func (s langScore) fpr() float64    { return float64(s.fp) / float64(max(1, s.fp+s.tn)) }

// scoreCorpus runs d over rows and returns the scores per language (and
// "all"), with the misclassified rows.
func scoreCorpus(tb testing.TB, d *JailbreakDetector, rows []corpusRow) (map[string]*langScore, []string) {
	tb.Helper()
	scores := map[string]*langScore{"all": {}}
	var errs []string
	for _, r := range rows {
		res, err := d.Detect(context.Background(), r.Text)
		if err != nil {
			tb.Fatal(err)
		}
		if scores[r.Language] == nil {
			scores[r.Language] = &langScore{}
		}
		for _, s := range []*langScore{scores[r.Language], scores["all"]} {
			switch {
			case r.Label == "attack" && res.Jailbreak:
				s.tp++
			case r.Label == "attack":
				s.fn++
			case res.Jailbreak:
				s.fp++
			default:
				s.tn++
			}
		}
		if res.Jailbreak != (r.Label == "attack") {
			errs = append(errs, fmt.Sprintf("%s %s/%s %.2f %v: %s", r.Language, r.Label, r.Family, res.Score, res.Reasons, r.Text))
		}
	}
	return scores, errs
}

func formatScores(scores map[string]*langScore) string {
	var langs []string
	for l := range scores {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	var b strings.Builder
	fmt.Fprintf(&b, "%-4s %7s %7s %9s\n", "lang", "recall", "FPR", "attacks")
	for _, l := range langs {
		s := scores[l]
		fmt.Fprintf(&b, "%-4s %7.3f %7.3f %4d/%-4d\n", l, s.recall(), s.fpr(), s.tp+s.fn, s.fp+s.tn)
	}
	return b.String()
}

// routerDetector is the detector as the router builds it by default: the
// builtin embedder and the shipped examples.
var routerDetector = sync.OnceValues(func() (*JailbreakDetector, error) {
	return NewJailbreakDetector(context.Background(), JailbreakOptions{Embedder: builtin.New()})
})

// Floors that the frozen test split must keep, per language. The targets
// are recall 0.90 and FPR 0.05; these are the levels reached (see
// docs/jailbreak-quality.md), so that a change can only raise them.
const (
	testSplitMinRecall = 0.90
	testSplitMaxFPR    = 0.0313
)

// TestJailbreakCorpusReport scores the default detector on both splits and
// checks the test split's floors; -v shows the tables and the training
// errors (the test errors stay unread, so that the split stays unseen).
func TestJailbreakCorpusReport(t *testing.T) {
	t.Parallel()
	d, err := routerDetector()
	if err != nil {
		t.Fatal(err)
	}
	for _, split := range []string{"train", "train_extra", "train_extra2", "train_extra3", "train_extra4", "train_extra5", "train_extra6", "train_extra7", "train_extra8", "test", "blind", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9", "blind10", "blind11", "blind12", "blind13", "blind14", "blind15", "blind16", "harm_plain", "security_questions"} {
		scores, errs := scoreCorpus(t, d, readCorpus(t, "testdata/jailbreak/"+split+".jsonl"))
		t.Logf("%s split:\n%s", split, formatScores(scores))
		if testing.Verbose() && strings.HasPrefix(split, "train") {
			t.Logf("train errors:\n%s", strings.Join(errs, "\n"))
		}
		// The blind sets were written after a change to the detector and
		// measured once; they are reported, not held to a floor, as are
		// harm_plain (plainly asked harmful requests, benign for this
		// signal) and security_questions (asked to protect someone): their
		// FPR column is the share flagged.
		if split != "test" {
			continue
		}
		for lang, s := range scores {
			if s.recall() < testSplitMinRecall || s.fpr() > testSplitMaxFPR+1e-9 {
				t.Errorf("test split, %s: recall %.3f FPR %.3f, want at least %.2f and at most %.4f", lang, s.recall(), s.fpr(), testSplitMinRecall, testSplitMaxFPR)
			}
		}
	}
}
