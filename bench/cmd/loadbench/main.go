// Command loadbench is `make bench`: the router measured as users run it, out of process,
// against a bare httputil.ReverseProxy in front of the same mock backend (see bench/internal/oop
// and docs/benchmarks.md). It prints a Markdown report on stdout and, for a full run, writes it
// into docs/benchmarks.md.
//
//	go run ./bench/cmd/loadbench            # the full run (5,000 concurrent streams), a few minutes
//	go run ./bench/cmd/loadbench -quick     # a short run that proves the harness works
//
// Every process it starts listens on 127.0.0.1 only and is ended when it returns, also on
// Ctrl-C.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/semantic-router/semantic-router/bench/internal/oop"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "a short run (smaller counts, 500 streams) that proves the harness works; its numbers are not for reporting")
	full, q := oop.Full(), oop.Quick()
	rounds := fs.Int("rounds", 0, fmt.Sprintf("interleaved rounds (default %d)", full.Rounds))
	latencyN := fs.Int("latency-requests", 0, fmt.Sprintf("requests per latency cell per round (default %d, quick %d)", full.LatencyN, q.LatencyN))
	convN := fs.Int("conversation-requests", 0, fmt.Sprintf("requests per latency cell of the 85 KB conversation per round (default %d, quick %d)", full.ConversationN, q.ConversationN))
	ttfbN := fs.Int("ttfb-requests", 0, fmt.Sprintf("streams per time-to-first-byte cell per round (default %d, quick %d)", full.TTFBN, q.TTFBN))
	dur := fs.Duration("duration", 0, fmt.Sprintf("duration of each throughput cell per round (default %s, quick %s)", full.Duration, q.Duration))
	conc := fs.Int("concurrency", 0, fmt.Sprintf("concurrency of the throughput cells (default %d)", full.Concurrency))
	streams := fs.Int("streams", 0, fmt.Sprintf("concurrent streams of the streams run (default %d, quick %d)", full.Streams, q.Streams))
	convStreams := fs.Int("conversation-streams", 0, fmt.Sprintf("concurrent streams of the run whose requests are an 85 KB conversation (default %d, quick %d)", full.ConversationStreams, q.ConversationStreams))
	paced := fs.Int("paced-streams", 0, fmt.Sprintf("concurrent streams of the run whose backend writes each event %s after the one before (default %d, quick %d)", full.PacedInterval, full.PacedStreams, q.PacedStreams))
	pacedDur := fs.Duration("paced-duration", 0, fmt.Sprintf("duration of each paced-streams cell per round (default %s, quick %s)", full.PacedDuration, q.PacedDuration))
	warmup := fs.Int("warmup", 0, fmt.Sprintf("uncounted requests before each cell (default %d, quick %d)", full.Warmup, q.Warmup))
	settle := fs.Duration("settle", 0, fmt.Sprintf("longest wait for the sample after the streams to stop changing (default %s, quick %s)", full.Settle, q.Settle))
	doc := fs.String("doc", "", "Markdown file whose generated section receives the report (default docs/benchmarks.md for a full run, none with -quick; \"-\" for none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o := full
	if *quick {
		o = q
	}
	for _, f := range []struct {
		dst *int
		v   int
	}{{&o.Rounds, *rounds}, {&o.LatencyN, *latencyN}, {&o.ConversationN, *convN}, {&o.TTFBN, *ttfbN}, {&o.Concurrency, *conc}, {&o.Streams, *streams}, {&o.ConversationStreams, *convStreams}, {&o.PacedStreams, *paced}, {&o.Warmup, *warmup}} {
		if f.v > 0 {
			*f.dst = f.v
		}
	}
	if *dur > 0 {
		o.Duration = *dur
	}
	if *settle > 0 {
		o.Settle = *settle
	}
	if *pacedDur > 0 {
		o.PacedDuration = *pacedDur
	}
	o.Command = strings.TrimSpace("go run ./bench/cmd/loadbench " + strings.Join(args, " "))
	if len(args) == 0 {
		o.Command = "make bench"
	}
	o.Progress = stderr
	path := *doc
	if path == "" && !*quick {
		path = "docs/benchmarks.md"
	}

	rep, err := oop.Run(ctx, o)
	if err != nil {
		return err
	}
	var md bytes.Buffer
	rep.Markdown(&md)
	if _, err := stdout.Write(md.Bytes()); err != nil {
		return err
	}
	if path == "" || path == "-" {
		return nil
	}
	if err := oop.WriteDoc(path, md.Bytes()); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "written to", path)
	return nil
}
