package oop

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/bench/internal/measure"
	"github.com/semantic-router/semantic-router/internal/config"
)

// TestConfigsLoad checks that every router configuration of the benchmark loads, with the
// backend's URL filled in as the harness does. (The harness also runs the router's -validate
// on each before it starts the router; TestRunQuick goes through that.)
func TestConfigsLoad(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../configs/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("bench/configs holds %d configurations, want 4 (plain, plain-credential, plain-h2c, signals): %v", len(files), files)
	}
	keyFile := filepath.Join(t.TempDir(), "api-key")
	if err := os.WriteFile(keyFile, []byte("sk-test-key"), 0o600); err != nil {
		t.Fatal(err)
	}
	fill := strings.NewReplacer("{{backend}}", "http://127.0.0.1:9", "{{key_file}}", keyFile)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Parse([]byte(fill.Replace(string(raw))))
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if filepath.Base(f) == "signals.yaml" && len(cfg.Decisions) != 4 {
			t.Errorf("signals.yaml has %d decisions, want 4", len(cfg.Decisions))
		}
	}
}

// TestRunQuick runs the whole benchmark with tiny counts: every binary built, every server its
// own process, every measurement taken, and a report with every row. It asserts nothing about
// the numbers.
func TestRunQuick(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	var progress bytes.Buffer
	rep, err := Run(ctx, Options{Rounds: 2, LatencyN: 20, ConversationN: 5, TTFBN: 10, Warmup: 2, Concurrency: 4, Duration: 200 * time.Millisecond,
		Streams: 50, ConversationStreams: 20, Settle: 2 * time.Second, IdleWait: time.Second, PacedStreams: 4, PacedInterval: 2 * time.Millisecond,
		PacedDuration: 300 * time.Millisecond, Command: "go test ./bench/...", Progress: &progress})
	if err != nil {
		t.Fatalf("%v\nprogress:\n%s", err, progress.String())
	}
	var md bytes.Buffer
	rep.Markdown(&md)
	out := md.String()
	for _, want := range []string{
		"| mock backend alone | 7 words |",
		"| bare ReverseProxy | 7 words |",
		"| router, one model, no signals | 7 words |",
		"| router, all builtin signals, 4 decisions | 7 words |",
		"| mock backend alone | ~200 tokens |",
		"| bare ReverseProxy | ~200 tokens |",
		"| router, one model, no signals | ~200 tokens |",
		"| router, all builtin signals, 4 decisions | ~200 tokens |",
		"| the same, every signal computed (x-vsr-debug) | 7 words |",
		"| the same, every signal computed (x-vsr-debug) | ~200 tokens |",
		"| mock backend alone | 85 KB conversation |",
		"| bare ReverseProxy | 85 KB conversation |",
		"| router, one model, no signals | 85 KB conversation |",
		"| router, all builtin signals, 4 decisions | 85 KB conversation |",
		"| process | at c=1, 7 words | × proxy | at c=1, ~200 tokens | × proxy | at c=1, 85 KB conversation | × proxy | at c=4, 7 words | × proxy |",
		"| process | at c=1, 7 words: reads / writes | streamed at c=1, 7 words: reads / writes | at c=4, 7 words: reads / writes |",
		"| pass-through (no work) |",
		"| process | streams/s | CPU per event | × proxy | reads / writes per event |",
		"| the same, holding a model API key | ",
		"| router: one model, no signals | ",
		"| router: all builtin signals, 4 decisions | ",
		"req/s at c=4 |",
		"| router, one model, no signals | 50 | 50 |",
		"| bare ReverseProxy | 50 | 50 |",
		"| router, one model, no signals, clients over HTTP/2 without TLS | 50 | 50 |",
		"| bare ReverseProxy, clients over HTTP/2 without TLS | 50 | 50 |",
		"| router, one model, no signals, HTTP/2 without TLS on both hops | 50 | 50 |",
		"| bare ReverseProxy, HTTP/2 without TLS on both hops | 50 | 50 |",
		"| router, one model, no signals, an 85 KB conversation a stream | 20 | 20 |",
		"| bare ReverseProxy, an 85 KB conversation a stream | 20 | 20 |",
		"| no signals: added p50 | ≤ 1.0× proxy |",
		"| no signals: throughput at c=4 | ≥ 1.0× proxy |",
		"| no signals: added SSE time to first byte | ≤ 1.0× proxy |",
		"| full signals, 7-word prompt: added p50 | ≤ 1.5× proxy |",
		"| full signals, 7-word prompt: throughput at c=4 | ≥ 0.8× proxy |",
		"| full signals, 200-token prompt: added p50 | ≤ 3.0× proxy |",
		"| 50 concurrent streams: router peak RSS, every stream complete | ≤ 200 MB | ",
		"| after the streams: router goroutines and sockets back to the baseline | within 16 of before | after the upstream idle timeout: goroutines ",
		"not judged (fewer than 5 rounds)",
		"| goal | limit | measured | each round | verdict |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report has no %q:\n%s", want, out)
		}
	}
	// One goal per streams run of the router over HTTP/1.1 asking the 7-word question; the
	// h2c and conversation rows are not judged.
	if n := strings.Count(out, "concurrent streams: router peak RSS"); n != 1 {
		t.Errorf("%d memory goals, want 1 (the HTTP/1.1 run's)", n)
	}
	// A paced stream lasts at least its content events' intervals, so no cell can finish
	// streams faster than that allows: the backend paced them.
	most := float64(4) / ((pacedTokens - 1) * (2 * time.Millisecond)).Seconds()
	for _, target := range []string{proxy, routerPlain, routerCredential} {
		for _, r := range rep.Results[key{kindPaced, target, "short"}] {
			if r.RPS > most {
				t.Errorf("paced streams through %s: %.0f streams/s, more than the %.0f the pacing allows", target, r.RPS, most)
			}
		}
	}
	for k, rs := range rep.Results {
		if len(rs) != 2 {
			t.Errorf("%v: %d results, want one per round", k, len(rs))
		}
		// Every request reads from a socket and writes to one, in every process.
		for _, r := range rs {
			if r.ReadsPerRequest <= 0 || r.WritesPerRequest <= 0 {
				t.Errorf("%v: %.1f reads and %.1f writes a request, want some of each", k, r.ReadsPerRequest, r.WritesPerRequest)
			}
		}
	}
}

func TestWriteDoc(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, doc, want, wantErr string
	}{
		{
			name: "replaces the generated section only",
			doc:  "# B\n\nintro\n\n" + beginMarker + "\n\nold\n\n" + endMarker + "\n\n## Other\n",
			want: "# B\n\nintro\n\n" + beginMarker + "\n\n| new |\n\n" + endMarker + "\n\n## Other\n",
		},
		{
			name:    "refuses a file without the markers",
			doc:     "# B\n",
			wantErr: "no generated section (the markers " + beginMarker + " and " + endMarker + ")",
		},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".md")
		if err := os.WriteFile(path, []byte(tc.doc), 0o600); err != nil {
			t.Fatal(err)
		}
		err := WriteDoc(path, []byte("\n| new |\n"))
		if tc.wantErr != "" {
			if err == nil || err.Error() != path+": "+tc.wantErr {
				t.Errorf("%s: error %v, want %q", tc.name, err, path+": "+tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, _ := os.ReadFile(path)
		if string(got) != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

func TestDecodeResult(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, out, wantErr string
		wantP50            float64
	}{
		{name: "the last line is the result", out: "{\"event\":\"held\",\"held\":3}\n{\"requests\":3,\"p50_us\":120}\n", wantP50: 120},
		{name: "a failed request fails the measurement", out: "{\"requests\":9,\"errors\":1,\"first_error\":\"status 502: bad gateway\"}\n",
			wantErr: "1 of 10 requests failed, the first with: status 502: bad gateway"},
		{name: "output that is not a result", out: "panic\n", wantErr: "load generator output \"panic\\n\": invalid character 'p' looking for beginning of value"},
	} {
		res, err := decodeResult([]byte(tc.out))
		switch {
		case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.wantErr)
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.wantErr == "" && res.P50 != tc.wantP50:
			t.Errorf("%s: p50 %v, want %v", tc.name, res.P50, tc.wantP50)
		}
	}
}

// TestPerRoundRatios: a ratio is also taken within each round, and its range reported.
func TestPerRoundRatios(t *testing.T) {
	t.Parallel()
	res := func(v ...float64) []measure.Result {
		var out []measure.Result
		for _, x := range v {
			out = append(out, measure.Result{P50: x, RPS: x})
		}
		return out
	}
	rep := &Report{Results: map[key][]measure.Result{
		{kindLatency, direct, "short"}:         res(100, 100, 120),
		{kindLatency, proxy, "short"}:          res(200, 300, 220),
		{kindLatency, routerPlain, "short"}:    res(250, 300, 200),
		{kindThroughput, proxy, "short"}:       res(1000, 2000),
		{kindThroughput, routerPlain, "short"}: res(900, 2200),
	}}
	if got, want := span(rep.addedRatios(kindLatency, routerPlain, "short")), "0.80–1.50"; got != want {
		t.Errorf("added p50 ratios: %s, want %s", got, want)
	}
	if got, want := span(rep.rpsRatios(routerPlain)), "0.90–1.10"; got != want {
		t.Errorf("throughput ratios: %s, want %s", got, want)
	}
	if got := span(nil); got != "" {
		t.Errorf("no rounds: %q", got)
	}
}

// TestRatioText: a ratio that reads like its bound with two decimals, but is on the other
// side of it, gets the decimals that show which side.
func TestRatioText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		value, bound float64
		want         string
	}{
		{1.25, 1.0, "1.25×"},
		{1.0, 1.0, "1.00×"},
		{1.004, 1.0, "1.004×"},
		{0.7996, 0.8, "0.7996×"},
		{0.83, 0.8, "0.83×"},
		{1.0000001, 1.0, "1.0000001×"},
	} {
		if got := ratioText(tc.value, tc.bound); got != tc.want {
			t.Errorf("ratioText(%v, %v) = %q, want %q", tc.value, tc.bound, got, tc.want)
		}
	}
}

func TestParseCPUTime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, stat string
		want       time.Duration
		wantErr    string
	}{
		{name: "a plain name", stat: "4242 (semantic-route) S 1 4242 4242 0 -1 4194560 1502 0 0 0 250 37 0 0 20 0 9 0 123 1 2 3\n",
			want: 2870 * time.Millisecond},
		{name: "a name with spaces and parentheses", stat: "7 (a (b) c) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 9 1 2 3",
			want: 70 * time.Millisecond},
		{name: "cut short", stat: "7 (x) R 1 7", wantErr: `stat "7 (x) R 1 7": 3 fields after the command name, want at least 13`},
		{name: "no name", stat: "7 x R", wantErr: `stat "7 x R": no command name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseCPUTime(tc.stat)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestParseIO(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, io      string
		reads, writes int64
		wantErr       string
	}{
		{name: "a whole file", io: "rchar: 1948\nwchar: 3120\nsyscr: 12\nsyscw: 30\nread_bytes: 0\nwrite_bytes: 0\ncancelled_write_bytes: 0\n",
			reads: 12, writes: 30},
		{name: "no counts", io: "rchar: 1\n", wantErr: `io "rchar: 1\n": no syscr and syscw lines`},
		{name: "a count that is no number", io: "syscr: x\nsyscw: 1\n", wantErr: `io: syscr "x": strconv.ParseInt: parsing "x": invalid syntax`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reads, writes, err := parseIO(tc.io)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || reads != tc.reads || writes != tc.writes {
				t.Fatalf("got %d, %d, %v; want %d, %d", reads, writes, err, tc.reads, tc.writes)
			}
		})
	}
}

// TestSyscallsOfThisProcess: the writes counted for a running process grow as it writes.
func TestSyscallsOfThisProcess(t *testing.T) {
	t.Parallel()
	_, before, err := syscalls(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(t.TempDir() + "/w")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for range 10 {
		if _, err := f.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if _, after, err := syscalls(os.Getpid()); err != nil || after-before < 10 {
		t.Errorf("writes counted %d before ten writes and %d after (%v), want 10 more at least", before, after, err)
	}
}

// TestCPUTimeOfThisProcess: the CPU time read for a running process grows as it works.
func TestCPUTimeOfThisProcess(t *testing.T) {
	t.Parallel()
	before, err := cpuTime(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		for x := range 1 << 20 {
			_ = x * x
		}
		now, err := cpuTime(os.Getpid())
		if err != nil {
			t.Fatal(err)
		}
		if now-before >= 50*time.Millisecond {
			return
		}
	}
	t.Error("the CPU time read did not grow by 50 ms in a minute of work")
}
