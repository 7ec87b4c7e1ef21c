// Command stagebench is `make bench-stages`: the Benchmark* functions that time each stage a
// request goes through (stages.go), run from their packages' test binaries, and with -base
// the same benchmarks built at another revision, so that a review sees what a change did to
// each stage. The two builds run alternately, one run of each stage at a time in an order
// that turns every round, so that what else the machine does falls on both; benchstat
// (pinned in tools/go.mod) compares them.
//
//	go run ./bench/cmd/stagebench                    # this tree, six runs of each stage
//	go run ./bench/cmd/stagebench -base origin/main  # this tree against origin/main
//	go run ./bench/cmd/stagebench -stages 'decod|encod' -base HEAD~3
//
// "this tree" is the working tree as it is, uncommitted changes included; the base is
// checked out into a temporary git worktree, removed when the run ends.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "stagebench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("stagebench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.base, "base", "", "a git revision to compare this tree with (none: this tree alone)")
	fs.IntVar(&o.count, "count", 6, "runs of each stage's benchmarks per build (benchstat wants 6 or more for a confidence interval)")
	fs.StringVar(&o.benchtime, "benchtime", "", "each benchmark's -test.benchtime (default the testing package's, 1s)")
	fs.StringVar(&o.only, "stages", "", "a regular expression: only the stages whose name it matches")
	fs.StringVar(&o.out, "out", "bin/stagebench", "directory for the test binaries and the results, relative to the module's root")
	list := fs.Bool("list", false, "print the stages and their benchmarks, and run nothing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.count < 1 {
		return fmt.Errorf("-count %d: want 1 or more", o.count)
	}
	chosen, err := choose(stages, o.only)
	if err != nil {
		return err
	}
	if *list {
		for _, s := range chosen {
			fmt.Fprintf(stdout, "%-40s %-34s %s\n", s.name, s.pkg, s.bench)
		}
		return nil
	}
	o.progress = stderr
	return compare(ctx, o, chosen, stdout)
}
