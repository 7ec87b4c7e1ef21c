// Command jbsplit splits the jailbreak corpus once into a training and a
// test file. The split is stratified by language, label and family, and it
// is reproducible: the same corpus and seed always give the same files.
//
//	go run ./internal/signal/internal/jbsplit -dir internal/signal/testdata/jailbreak
//
// The test file is frozen: the detector is never tuned on it, and the
// leakage test in internal/signal checks it against the training file.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
)

// row is one corpus line; raw keeps the line as written so that the split
// files are byte-for-byte subsets of the corpus.
type row struct {
	Text     string `json:"text"`
	Label    string `json:"label"`
	Family   string `json:"family"`
	Language string `json:"language"`
	raw      []byte
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "jbsplit:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("jbsplit", flag.ContinueOnError)
	dir := fs.String("dir", "internal/signal/testdata/jailbreak", "directory holding corpus.jsonl; train.jsonl and test.jsonl are written there")
	seed := fs.Uint64("seed", 20261201, "seed of the shuffle")
	if err := fs.Parse(args); err != nil {
		return err
	}
	rows, err := readCorpus(filepath.Join(*dir, "corpus.jsonl"))
	if err != nil {
		return err
	}
	train, test := split(rows, *seed)
	if err := write(filepath.Join(*dir, "train.jsonl"), train); err != nil {
		return err
	}
	if err := write(filepath.Join(*dir, "test.jsonl"), test); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d rows: %d train, %d test\n", len(rows), len(train), len(test))
	return nil
}

func readCorpus(path string) ([]row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows []row
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var r row
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if r.Text == "" || (r.Label != "attack" && r.Label != "benign") || r.Family == "" || r.Language == "" {
			return nil, fmt.Errorf("%s:%d: need text, label (attack or benign), family and language", path, n)
		}
		if seen[r.Text] {
			return nil, fmt.Errorf("%s:%d: duplicate text", path, n)
		}
		seen[r.Text] = true
		r.raw = append([]byte(nil), line...)
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errors.New(path + ": no rows")
	}
	return rows, nil
}

// split puts half of every (language, label, family) group into the test
// set. Groups of odd size alternate which side gets the extra row, so each
// language's test share stays close to half.
func split(rows []row, seed uint64) (train, test []row) {
	groups := map[string][]row{}
	var keys []string
	for _, r := range rows {
		k := r.Language + "\x00" + r.Label + "\x00" + r.Family
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	sort.Strings(keys)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) //nolint:gosec // a reproducible split needs a seeded generator
	extra := 0
	for _, k := range keys {
		g := groups[k]
		sort.Slice(g, func(i, j int) bool { return g[i].Text < g[j].Text })
		rng.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
		n := len(g) / 2
		if len(g)%2 == 1 {
			n += extra
			extra = 1 - extra
		}
		test = append(test, g[:n]...)
		train = append(train, g[n:]...)
	}
	return train, test
}

func write(path string, rows []row) error {
	var b bytes.Buffer
	for _, r := range rows {
		b.Write(r.raw)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, b.Bytes(), 0o644) //nolint:gosec // a data file checked into the repository
}
