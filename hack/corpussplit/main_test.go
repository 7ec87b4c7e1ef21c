package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunSplitsByClassAndKeepsNearRowsTogether(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "c.jsonl")
	var b strings.Builder
	for i := range 10 {
		b.WriteString(`{"text":"alpha row number ` + string(rune('a'+i)) + ` unique` + string(rune('a'+i)) + `","label":"a"}` + "\n")
	}
	for i := range 6 {
		b.WriteString(`{"text":"beta ` + string(rune('a'+i)) + `","label":"b"}` + "\n")
	}
	noErr(t, os.WriteFile(in, []byte(b.String()), 0o600))
	run := func(seed string) (string, string, string) {
		var out bytes.Buffer
		err := Run(context.Background(), []string{"-in", in, "-key", "label", "-text", "text", "-seed", seed,
			"-test-frac", "0.3", "-min-test", "2", "-near", "0.5"}, &out, &out)
		noErr(t, err)
		train, err := os.ReadFile(filepath.Join(dir, "c.train.jsonl"))
		noErr(t, err)
		test, err := os.ReadFile(filepath.Join(dir, "c.test.jsonl"))
		noErr(t, err)
		return string(train), string(test), out.String()
	}
	train, test, summary := run("7")
	train2, test2, _ := run("7")
	equal(t, train, train2, "same seed, same split")
	equal(t, test, test2)
	// The "alpha row number" rows share 3 of 7 words (Jaccard 0.43 <
	// 0.5), so they are split independently: 3 of 10 go to test. The
	// "beta" rows share nothing but "beta" (1/3), so 2 of 6 do.
	equal(t, "a\t10 rows\t7 train\t3 test\nb\t6 rows\t4 train\t2 test\n", summary)
	equal(t, 16, strings.Count(train+test, "\n"))
}

func TestRunKeepsNearDuplicatesOnOneSide(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "c.jsonl")
	rows := `{"prompt":"how do I sort a list in python","label":"cs"}
{"prompt":"how do I sort a list in go","label":"cs"}
{"prompt":"what is a mutex","label":"cs"}
{"prompt":"what is a goroutine leak","label":"cs"}
`
	noErr(t, os.WriteFile(in, []byte(rows), 0o600))
	for _, seed := range []string{"1", "2", "3", "4", "5"} {
		var out bytes.Buffer
		noErr(t, Run(context.Background(), []string{"-in", in, "-seed", seed, "-test-frac", "0.25", "-min-test", "1"}, &out, &out))
		test, err := os.ReadFile(filepath.Join(dir, "c.test.jsonl"))
		noErr(t, err)
		python, golang := bytes.Contains(test, []byte("python")), bytes.Contains(test, []byte("in go\""))
		equal(t, python, golang, "seed ", seed, ": near duplicates split apart:\n", string(test))
	}
}

func TestRunErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	small := filepath.Join(dir, "small.jsonl")
	noErr(t, os.WriteFile(small, []byte(`{"prompt":"one","label":"x"}`+"\n"+`{"prompt":"two","label":"x"}`+"\n"), 0o600))
	bad := filepath.Join(dir, "bad.jsonl")
	noErr(t, os.WriteFile(bad, []byte("{\"prompt\":\"a\",\"label\":3}\nnot json\n"), 0o600))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no input", nil, "-in is required"},
		{"bad fraction", []string{"-in", small, "-test-frac", "1"}, "-test-frac 1: must be between 0 and 1"},
		{"bad near", []string{"-in", small, "-near", "2"}, "-near 2: must be between 0 and 1"},
		{"class too small", []string{"-in", small, "-min-test", "2"}, `class "x": 2 rows leave none for training with 2 test rows`},
		{"bad rows", []string{"-in", bad}, bad + ": line 1: label: want a string, boolean or null\nline 2: invalid character 'o' in literal null (expecting 'u')"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := Run(context.Background(), tt.args, &out, &out)
			if err == nil || err.Error() != tt.want {
				t.Errorf("err = %v\nwant  %s", err, tt.want)
			}
		})
	}
}

// TestCommittedDomainSplitIsReproducible re-runs the split that produced
// the committed domain train and test files and compares the bytes.
func TestCommittedDomainSplitIsReproducible(t *testing.T) {
	t.Parallel()
	const dir = "../../internal/signal/testdata/domain"
	out := t.TempDir()
	var log bytes.Buffer
	err := Run(context.Background(), []string{"-in", filepath.Join(dir, "corpus.jsonl"), "-key", "domain", "-text", "prompt",
		"-seed", "1", "-test-frac", "0.45", "-min-test", "30",
		"-train", filepath.Join(out, "train.jsonl"), "-test", filepath.Join(out, "test.jsonl")}, &log, &log)
	noErr(t, err)
	for _, f := range []string{"train.jsonl", "test.jsonl"} {
		want, err := os.ReadFile(filepath.Join(dir, f))
		noErr(t, err)
		got, err := os.ReadFile(filepath.Join(out, f))
		noErr(t, err)
		equal(t, string(want), string(got), f, " differs from a fresh split of corpus.jsonl")
	}
}

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func equal[T comparable](t *testing.T, want, got T, msg ...any) {
	t.Helper()
	if want != got {
		t.Fatalf("got %v\nwant %v\n%s", got, want, fmt.Sprint(msg...))
	}
}
