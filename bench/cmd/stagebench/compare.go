package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/semantic-router/semantic-router/bench/internal/oop"
)

// options are a run's settings, from the flags.
type options struct {
	base      string // revision to compare with; "" for this tree alone
	count     int    // runs of each stage per build
	benchtime string // -test.benchtime, "" for the default
	only      string // regular expression over stage names
	out       string // results directory, relative to the module's root
	progress  io.Writer
}

// build is one tree's test binaries and the file its results go to.
type build struct {
	label   string            // benchstat's name for the column: head, or base@ and the revision
	root    string            // the tree's module root
	bins    map[string]string // test binary by package; "" when the tree has no such package
	results string
	missing []string // the stages none of whose benchmarks the tree has
}

// choose returns the stages whose name matches only (all when it is empty).
func choose(all []stage, only string) ([]stage, error) {
	if only == "" {
		return all, nil
	}
	re, err := regexp.Compile(only)
	if err != nil {
		return nil, fmt.Errorf("-stages: %w", err)
	}
	var out []stage
	for _, s := range all {
		if re.MatchString(s.name) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-stages %q matches no stage (-list shows them)", only)
	}
	return out, nil
}

// compare builds the chosen stages' test binaries for this tree and, with a base, for the
// base's worktree; runs them alternately; and prints benchstat's table.
func compare(ctx context.Context, o options, chosen []stage, stdout io.Writer) (err error) {
	root, err := oop.ModuleRoot()
	if err != nil {
		return err
	}
	out := o.out
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	builds := []*build{{label: "head", root: root, results: filepath.Join(out, "head.txt")}}
	if o.base != "" {
		base, remove, err := checkout(ctx, root, out, o.base)
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, remove()) }()
		base.results = filepath.Join(out, "base.txt")
		builds = append([]*build{base}, builds...)
	}
	for i, b := range builds {
		// Emptied: a build whose tree has none of the stages still gives benchstat a file.
		if err := os.WriteFile(b.results, nil, 0o644); err != nil {
			return err
		}
		if err := b.compile(ctx, o, chosen, filepath.Join(out, fmt.Sprint(i))); err != nil {
			return err
		}
	}
	for round := range o.count {
		for _, s := range chosen {
			for k := range builds {
				b := builds[(round+k)%len(builds)]
				fmt.Fprintf(o.progress, "run %d of %d: %s (%s)\n", round+1, o.count, s.name, b.label)
				if err := b.run(ctx, o, s); err != nil {
					return err
				}
			}
		}
	}
	args := []string{"tool", "-modfile=" + filepath.Join(root, "tools", "go.mod"), "benchstat"}
	for _, b := range builds {
		args = append(args, b.label+"="+b.results)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = stdout, o.progress
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("benchstat: %w", err)
	}
	for _, b := range builds {
		if len(b.missing) > 0 {
			fmt.Fprintf(o.progress, "%s has none of the benchmarks of: %s\n", b.label, strings.Join(b.missing, ", "))
		}
	}
	fmt.Fprintf(o.progress, "results: %s\n", strings.Join(resultFiles(builds), " "))
	return nil
}

// checkout makes a git worktree of rev under out and returns its build and the function
// that removes it, which must be called however the run ends.
func checkout(ctx context.Context, root, out, rev string) (*build, func() error, error) {
	short, err := git(ctx, root, "rev-parse", "--short", rev+"^{commit}")
	if err != nil {
		return nil, nil, fmt.Errorf("-base %q: %w", rev, err)
	}
	// A name of its own: git names the worktree's records after the directory.
	tree, err := os.MkdirTemp(out, "base-"+short+"-")
	if err != nil {
		return nil, nil, err
	}
	if _, err := git(ctx, root, "worktree", "add", "--detach", tree, short); err != nil {
		return nil, nil, errors.Join(fmt.Errorf("checking out %s: %w", short, err), os.Remove(tree))
	}
	remove := func() error {
		// Also when the run was cancelled: the worktree must not outlive it.
		if _, err := git(context.WithoutCancel(ctx), root, "worktree", "remove", "--force", tree); err != nil {
			return fmt.Errorf("removing the worktree of %s: %w", short, err)
		}
		return nil
	}
	return &build{label: "base@" + short, root: tree}, remove, nil
}

func resultFiles(builds []*build) []string {
	var files []string
	for _, b := range builds {
		files = append(files, b.results)
	}
	return files
}

// compile builds the test binary of each chosen stage's package into dir. A package the
// tree does not have (a base older than the stage) is left out, and its stages are not run.
func (b *build) compile(ctx context.Context, o options, chosen []stage, dir string) error {
	b.bins = map[string]string{}
	for _, s := range chosen {
		if _, done := b.bins[s.pkg]; done {
			continue
		}
		if _, err := os.Stat(filepath.Join(b.root, s.pkg)); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(o.progress, "%s has no %s: its stages run on the other build only\n", b.label, s.pkg)
			b.bins[s.pkg] = ""
			continue
		}
		bin := filepath.Join(dir, strings.ReplaceAll(strings.TrimPrefix(s.pkg, "./"), "/", "_")+".test")
		fmt.Fprintf(o.progress, "building %s (%s)\n", s.pkg, b.label)
		cmd := exec.CommandContext(ctx, "go", "test", "-c", "-o", bin, s.pkg)
		cmd.Dir = b.root
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("building the tests of %s (%s): %w\n%s", s.pkg, b.label, err, out)
		}
		b.bins[s.pkg] = bin
	}
	return nil
}

// run runs one stage's benchmarks once, in its package's directory as go test does, and
// appends what they print to the build's results.
func (b *build) run(ctx context.Context, o options, s stage) error {
	bin := b.bins[s.pkg]
	if bin == "" {
		b.miss(s)
		return nil
	}
	args := []string{"-test.run=^$", "-test.bench=" + s.bench, "-test.benchmem", "-test.count=1"}
	if o.benchtime != "" {
		args = append(args, "-test.benchtime="+o.benchtime)
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = filepath.Join(b.root, s.pkg)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s (%s): %w\n%s", s.name, b.label, err, out.Bytes())
	}
	if !bytes.Contains(out.Bytes(), []byte("\nBenchmark")) {
		b.miss(s)
	}
	f, err := os.OpenFile(b.results, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(out.Bytes())
	return errors.Join(err, f.Close())
}

// miss records that the tree has none of the benchmarks of s.
func (b *build) miss(s stage) {
	if !slices.Contains(b.missing, s.name) {
		b.missing = append(b.missing, s.name)
	}
}

// git runs git in dir and returns its output, trimmed; its error carries what git said.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}
