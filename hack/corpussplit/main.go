// Command corpussplit splits a labelled JSONL corpus once, reproducibly,
// into a train and a test file.
//
//	go run ./hack/corpussplit -in corpus.jsonl -key domain -seed 1 -test-frac 0.4 -min-test 30
//
// Rows are grouped by the value of -key (a string or boolean field; a
// missing or null value is its own class, "null"). Rows whose -text fields
// are within word-Jaccard -near of each other are kept on the same side,
// so that a paraphrase in the train file cannot leak a test row. Within
// each class the groups are shuffled with a PCG generator seeded by -seed
// and the class name, and taken into the test file until it holds
// max(ceil(test-frac × n), min-test) rows. A class too small to leave a
// train row after that is an error. Both files keep the corpus's line
// order and bytes, so a diff of the corpus shows up as a diff of a split.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"sort"
	"strings"
	"unicode"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpussplit:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	in, trainOut, testOut string
	key, text             string
	seed                  uint64
	testFrac, near        float64
	minTest               int
}

// Run parses args, splits the corpus and writes both files; it prints one
// summary line per class to stdout.
func Run(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("corpussplit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.in, "in", "", "corpus JSONL file (required)")
	fs.StringVar(&o.trainOut, "train", "", "train file to write (default: <in without .jsonl>.train.jsonl)")
	fs.StringVar(&o.testOut, "test", "", "test file to write (default: <in without .jsonl>.test.jsonl)")
	fs.StringVar(&o.key, "key", "label", "field that holds the class")
	fs.StringVar(&o.text, "text", "prompt", "field that holds the text compared by -near")
	fs.Uint64Var(&o.seed, "seed", 1, "shuffle seed")
	fs.Float64Var(&o.testFrac, "test-frac", 0.3, "fraction of each class that goes to the test file")
	fs.IntVar(&o.minTest, "min-test", 30, "minimum test rows per class")
	fs.Float64Var(&o.near, "near", 0.5, "word-Jaccard at or above which two rows stay on the same side (0 turns grouping off)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.in == "" {
		return errors.New("-in is required")
	}
	if o.testFrac <= 0 || o.testFrac >= 1 {
		return fmt.Errorf("-test-frac %g: must be between 0 and 1", o.testFrac)
	}
	if o.near < 0 || o.near > 1 {
		return fmt.Errorf("-near %g: must be between 0 and 1", o.near)
	}
	base := strings.TrimSuffix(o.in, ".jsonl")
	if o.trainOut == "" {
		o.trainOut = base + ".train.jsonl"
	}
	if o.testOut == "" {
		o.testOut = base + ".test.jsonl"
	}
	data, err := os.ReadFile(o.in)
	if err != nil {
		return err
	}
	rows, err := parse(data, o.key, o.text)
	if err != nil {
		return fmt.Errorf("%s: %w", o.in, err)
	}
	test, summary, err := split(rows, o)
	if err != nil {
		return err
	}
	var train, tst bytes.Buffer
	for i, r := range rows {
		out := &train
		if test[i] {
			out = &tst
		}
		out.Write(r.line)
		out.WriteByte('\n')
	}
	if err := os.WriteFile(o.trainOut, train.Bytes(), 0o644); err != nil { //nolint:gosec // corpus files are meant to be readable
		return err
	}
	if err := os.WriteFile(o.testOut, tst.Bytes(), 0o644); err != nil { //nolint:gosec // corpus files are meant to be readable
		return err
	}
	for _, s := range summary {
		fmt.Fprintln(stdout, s)
	}
	return nil
}

type row struct {
	line  []byte
	class string
	words map[string]bool
}

// parse reads one JSON object per non-blank line; errors name the line.
func parse(data []byte, key, text string) ([]row, error) {
	var rows []row
	var errs []error
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal(line, &obj); err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", n, err))
			continue
		}
		class := "null"
		switch v := obj[key].(type) {
		case nil:
		case string:
			class = v
		case bool:
			class = fmt.Sprint(v)
		default:
			errs = append(errs, fmt.Errorf("line %d: %s: want a string, boolean or null", n, key))
			continue
		}
		s, _ := obj[text].(string)
		rows = append(rows, row{line: append([]byte(nil), line...), class: class, words: words(s)})
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, err)
	}
	if len(rows) == 0 && len(errs) == 0 {
		errs = append(errs, errors.New("no rows"))
	}
	return rows, errors.Join(errs...)
}

// split returns which rows go to the test file and a summary per class.
func split(rows []row, o options) ([]bool, []string, error) {
	groups := nearGroups(rows, o.near)
	byClass := map[string][][]int{}
	seen := map[int]bool{}
	for i := range rows {
		g := groups[i]
		if seen[g] {
			continue
		}
		seen[g] = true
		var members []int
		for j := i; j < len(rows); j++ {
			if groups[j] == g {
				members = append(members, j)
			}
		}
		c := rows[i].class
		byClass[c] = append(byClass[c], members)
	}
	classes := make([]string, 0, len(byClass))
	for c := range byClass {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	test := make([]bool, len(rows))
	var summary []string
	var errs []error
	for _, c := range classes {
		gs := byClass[c]
		n := 0
		for _, g := range gs {
			n += len(g)
		}
		want := max(int(math.Ceil(o.testFrac*float64(n))), o.minTest)
		h := fnv.New64a()
		h.Write([]byte(c))
		rng := rand.New(rand.NewPCG(o.seed, h.Sum64())) //nolint:gosec // a reproducible shuffle, not a secret
		rng.Shuffle(len(gs), func(i, j int) { gs[i], gs[j] = gs[j], gs[i] })
		got := 0
		for _, g := range gs {
			if got >= want {
				break
			}
			for _, i := range g {
				test[i] = true
			}
			got += len(g)
		}
		if got >= n {
			errs = append(errs, fmt.Errorf("class %q: %d rows leave none for training with %d test rows", c, n, want))
		}
	}
	total, inTest := map[string]int{}, map[string]int{}
	for i, r := range rows {
		total[r.class]++
		if test[i] {
			inTest[r.class]++
		}
	}
	classes = classes[:0]
	for c := range total {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		summary = append(summary, fmt.Sprintf("%s\t%d rows\t%d train\t%d test", c, total[c], total[c]-inTest[c], inTest[c]))
	}
	return test, summary, errors.Join(errs...)
}

// nearGroups gives rows within word-Jaccard near of each other (directly
// or through a chain, across classes too) the same group number. A group
// that spans classes is counted toward the class of its first row.
func nearGroups(rows []row, near float64) []int {
	parent := make([]int, len(rows))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	if near > 0 {
		for i := range rows {
			for j := i + 1; j < len(rows); j++ {
				if jaccard(rows[i].words, rows[j].words) >= near {
					parent[find(j)] = find(i)
				}
			}
		}
	}
	out := make([]int, len(rows))
	for i := range rows {
		out[i] = find(i)
	}
	return out
}

// words returns the lowercased letter and digit runs of s.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		out[w] = true
	}
	return out
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}
