package main

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/bench/internal/oop"
)

// TestStagesNameTheirBenchmarks: every stage's package exists and its pattern names at
// least one of the package's benchmarks, so that a renamed benchmark cannot leave a stage
// that times nothing.
func TestStagesNameTheirBenchmarks(t *testing.T) {
	t.Parallel()
	root, err := oop.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, s := range stages {
		if names[s.name] {
			t.Errorf("stage %q is listed twice", s.name)
		}
		names[s.name] = true
		re, err := regexp.Compile(s.bench)
		if err != nil {
			t.Errorf("%s: %v", s.name, err)
			continue
		}
		benches := benchmarks(t, filepath.Join(root, s.pkg))
		var matched []string
		for _, b := range benches {
			if re.MatchString(b) {
				matched = append(matched, b)
			}
		}
		if len(matched) == 0 {
			t.Errorf("%s: %s names none of the benchmarks of %s: %v", s.name, s.bench, s.pkg, benches)
		}
	}
}

// benchmarks returns the names of the Benchmark functions in the test files of dir.
func benchmarks(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no test files (%v)", dir, err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Benchmark") {
				names = append(names, fn.Name.Name)
			}
		}
	}
	return names
}

func TestBadArguments(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no runs", []string{"-count", "0"}, "-count 0: want 1 or more"},
		{"stages not a pattern", []string{"-stages", "("}, "-stages: error parsing regexp: missing closing ): `(`"},
		{"stages that match none", []string{"-stages", "tokenizer"}, `-stages "tokenizer" matches no stage (-list shows them)`},
		{"an argument", []string{"HEAD~1"}, `unexpected argument "HEAD~1"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tt.args, &stdout, &stderr)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"-list", "-stages", "^decod"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	want := "decoding the request                     ./internal/openai                  ^Benchmark(ParseChatRequest|ParseChatRequestLarge|CheckKeys)$\n"
	if stdout.String() != want {
		t.Fatalf("-list printed\n%q\nwant\n%q", stdout.String(), want)
	}
}

// TestRunAgainstBase runs one stage against the committed HEAD, as `make bench-stages
// BASE=...` runs them all: the base's worktree is made and removed, each build's results
// hold every run, and benchstat compares the two.
func TestRunAgainstBase(t *testing.T) {
	t.Parallel()
	root, rev := repository(t)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"-base", "HEAD", "-stages", "^reading the body$", "-count", "2", "-benchtime", "1x", "-out", out}
	if err := run(t.Context(), args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, want := range []string{"base@" + rev, "head", "ReadAll/85000-bytes/announced", "vs base"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("benchstat's table has no %q:\n%s", want, stdout.String())
		}
	}
	for _, file := range []string{"base.txt", "head.txt"} {
		b, err := os.ReadFile(filepath.Join(out, file))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "\nBenchmarkReadAll/85000-bytes/announced"); n != 2 {
			t.Errorf("%s holds %d runs of BenchmarkReadAll/85000-bytes/announced, want 2:\n%s", file, n, b)
		}
	}
	trees, err := git(context.Background(), root, "worktree", "list")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(trees, out) {
		t.Errorf("the base's worktree is still there:\n%s", trees)
	}
}

// TestStagesNotInATree: a stage whose benchmarks a tree does not have (a base older than
// them), or whose package it does not have, is named, and the run goes on with the rest.
func TestStagesNotInATree(t *testing.T) {
	t.Parallel()
	_, rev := repository(t)
	chosen := []stage{
		{"reading the body", "./internal/provider/transport", "^BenchmarkReadAll$"},
		{"a benchmark to come", "./internal/provider/transport", "^BenchmarkNotWrittenYet$"},
		{"a package to come", "./internal/notwrittenyet", "^BenchmarkAll$"},
	}
	var stdout, stderr bytes.Buffer
	o := options{base: "HEAD", count: 1, benchtime: "1x", out: t.TempDir(), progress: &stderr}
	if err := compare(t.Context(), o, chosen, &stdout); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, want := range []string{
		"base@" + rev + " has no ./internal/notwrittenyet: its stages run on the other build only\n",
		"base@" + rev + " has none of the benchmarks of: a benchmark to come, a package to come\n",
		"head has none of the benchmarks of: a benchmark to come, a package to come\n",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr has no %q:\n%s", want, stderr.String())
		}
	}
	if !strings.Contains(stdout.String(), "ReadAll/85000-bytes/announced") {
		t.Errorf("benchstat's table has not the stage both trees have:\n%s", stdout.String())
	}
}

// repository returns the module's root and the short name of its HEAD, which the tests
// check out as the base.
func repository(t *testing.T) (root, rev string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed to check out the base revision")
	}
	root, err := oop.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	rev, err = git(context.Background(), root, "rev-parse", "--short", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return root, rev
}
