package oop

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/semantic-router/semantic-router/bench/internal/measure"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
)

// Options size a benchmark run. Full gives the defaults of `make bench`, Quick those of
// -quick.
type Options struct {
	Rounds        int           // interleaved rounds; goals are judged only with 5 or more
	LatencyN      int           // requests per latency measurement (concurrency 1)
	ConversationN int           // the same, of an agent's conversation (about 85 KB, not streamed); 0 skips it
	TTFBN         int           // streams per time-to-first-byte measurement (concurrency 1)
	Warmup        int           // uncounted requests before each measurement
	Concurrency   int           // concurrency of the throughput measurements
	Duration      time.Duration // duration of each throughput measurement
	Streams       int           // concurrent streams of the streams run
	Settle        time.Duration // longest wait for the "after" sample to stop changing
	// IdleWait is how long after the release the "idle" sample is taken: past the upstream
	// transport's idle timeout, the pool's connections are closed. 0 skips the sample.
	IdleWait time.Duration
	// ConversationStreams is the concurrent streams of the conversation run, whose requests
	// are an agent's conversation (about 85 KB) instead of the 7-word question. 0 skips it.
	ConversationStreams int
	// PacedStreams is the concurrent streams of the paced-streams run, whose backend writes
	// each content event PacedInterval after the one before; each cell runs for
	// PacedDuration. 0 skips the run.
	PacedStreams  int
	PacedInterval time.Duration
	PacedDuration time.Duration
	// Quick marks a run whose counts are too small to judge the goals on.
	Quick bool
	// Command is the command line printed in the report.
	Command string
	// Progress receives one line per step; nil discards them.
	Progress io.Writer
}

// Full is `make bench`.
func Full() Options {
	return Options{Rounds: 9, LatencyN: 2000, ConversationN: 200, TTFBN: 1000, Warmup: 100, Concurrency: 32, Duration: 3 * time.Second,
		Streams: 5000, ConversationStreams: 1000, Settle: 15 * time.Second, IdleWait: transport.IdleConnTimeout + 5*time.Second,
		PacedStreams: 400, PacedInterval: 20 * time.Millisecond, PacedDuration: 6 * time.Second}
}

// Quick proves the harness works in about a minute; its numbers are not for reporting.
func Quick() Options {
	return Options{Rounds: 5, LatencyN: 200, ConversationN: 20, TTFBN: 100, Warmup: 20, Concurrency: 32, Duration: 500 * time.Millisecond,
		Streams: 500, ConversationStreams: 100, Settle: 5 * time.Second, PacedStreams: 40, PacedInterval: 20 * time.Millisecond,
		PacedDuration: time.Second, Quick: true}
}

// Prompts of the benchmark: a 7-word question and a ~200-token one, neither of which any
// decision of bench/configs/signals.yaml matches.
const (
	shortPrompt = "What is the capital city of France?"
	longPrompt  = "I am writing a short guide for new members of a community garden and I would like " +
		"some help with the section about planning a vegetable bed for the first season. The garden sits " +
		"on a gentle slope that gets direct sun from late morning until the evening, the soil is heavy and " +
		"holds water after rain, and each member has a raised bed about three metres long and one metre " +
		"wide. Most of the new members have never grown food before, so the advice has to be simple, " +
		"friendly and practical. Could you suggest which vegetables are easy for beginners in a bed like " +
		"this, how far apart they should be planted, when each of them should go in, and how often the " +
		"bed should be watered during a dry summer? Please also mention a few common mistakes that people " +
		"make in their first year, such as planting too much at once or forgetting to leave paths, and " +
		"how to avoid them. A friendly tone with short paragraphs would suit the guide best, thank you."
)

// conversation is an agent's conversation of about 85 KB: a long system prompt and twenty
// turns, each a question on a piece of code and the answer.
func conversation() []map[string]string {
	msgs := []map[string]string{{"role": "system", "content": strings.Repeat("You are a careful coding assistant. ", 180)}}
	for i := range 20 {
		msgs = append(msgs,
			map[string]string{"role": "user", "content": strings.Repeat(fmt.Sprintf("Explain what this function does, line by line: def scale_%d(x): return x * %d\n", i, i), 20)},
			map[string]string{"role": "assistant", "content": strings.Repeat("The function multiplies its argument by a constant and returns the product. ", 30)})
	}
	return msgs
}

// nextTurn is the last message of the timed conversation: loadgen -vary numbers it, so that
// each request is an agent's next turn, whose newest message the router has not read.
const nextTurn = "Now do the same for the function of step {{n}}, and say what it returns."

// bin names the built binaries.
type bins struct{ router, proxy, backend, loadgen, extproc, noop string }

// build compiles the six programs into dir, the router as `make build` does.
func build(ctx context.Context, root, dir string) (bins, error) {
	b := bins{
		router: filepath.Join(dir, "semantic-router"), proxy: filepath.Join(dir, "bareproxy"),
		backend: filepath.Join(dir, "mockbackend"), loadgen: filepath.Join(dir, "loadgen"), extproc: filepath.Join(dir, "extprocload"),
		noop: filepath.Join(dir, "noopextproc"),
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", "-s -w", "-o", dir+"/",
		"./cmd/semantic-router", "./bench/cmd/bareproxy", "./bench/cmd/mockbackend", "./bench/cmd/loadgen", "./bench/cmd/extprocload", "./bench/cmd/noopextproc")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return b, fmt.Errorf("building: %w\n%s", err, out)
	}
	return b, nil
}

// Run builds and runs the whole benchmark and returns its report. Every process it starts is
// ended before it returns, also when ctx is cancelled.
func Run(ctx context.Context, o Options) (*Report, error) {
	progress := o.Progress
	if progress == nil {
		progress = io.Discard
	}
	say := func(format string, args ...any) { fmt.Fprintf(progress, format+"\n", args...) }
	root, err := ModuleRoot()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "semantic-router-bench-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	say("building the router, the bare proxy, the mock backend and the load generators")
	b, err := build(ctx, root, dir)
	if err != nil {
		return nil, err
	}
	ps := &procs{}
	defer ps.stopAll()
	bodies, err := writeBodies(dir)
	if err != nil {
		return nil, err
	}
	keyFile := filepath.Join(dir, "api-key")
	if err := os.WriteFile(keyFile, []byte("sk-bench-0123456789abcdef"), 0o600); err != nil {
		return nil, err
	}
	r := &runner{o: o, b: b, ps: ps, dir: dir, root: root, bodies: bodies, keyFile: keyFile, say: say}
	rep := &Report{Options: o, Machine: machine(ctx), Command: o.Command}
	if err := r.rounds(ctx, rep); err != nil {
		return nil, err
	}
	ps.stopAll()
	if err := r.paced(ctx, rep); err != nil {
		return nil, err
	}
	if err := r.streams(ctx, rep); err != nil {
		return nil, err
	}
	rep.judge()
	return rep, nil
}

// runner holds what the phases of one run share.
type runner struct {
	o       Options
	b       bins
	ps      *procs
	dir     string
	root    string
	bodies  map[string]string // body name → file
	keyFile string            // the API key of bench/configs/plain-credential.yaml
	say     func(string, ...any)
}

// writeBodies writes the request bodies the load generators send.
func writeBodies(dir string) (map[string]string, error) {
	out := map[string]string{}
	for name, body := range map[string]map[string]any{
		"short":               {"model": "auto", "messages": []map[string]string{{"role": "user", "content": shortPrompt}}},
		"short-stream":        {"model": "auto", "stream": true, "messages": []map[string]string{{"role": "user", "content": shortPrompt}}},
		"long":                {"model": "auto", "messages": []map[string]string{{"role": "user", "content": longPrompt}}},
		"conversation":        {"model": "auto", "messages": append(conversation(), map[string]string{"role": "user", "content": nextTurn})},
		"conversation-stream": {"model": "auto", "stream": true, "messages": conversation()},
	} {
		raw, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		out[name] = filepath.Join(dir, name+".json")
		if err := os.WriteFile(out[name], raw, 0o600); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// routerConfig writes bench/configs/name.yaml with the backend's URL and the API key's file
// filled in, checks it with the router's -validate, and returns its path.
func (r *runner) routerConfig(ctx context.Context, name, backendURL string) (string, error) {
	raw, err := os.ReadFile(filepath.Join(r.root, "bench", "configs", name+".yaml"))
	if err != nil {
		return "", err
	}
	path := filepath.Join(r.dir, name+"-"+strings.TrimPrefix(backendURL, "http://127.0.0.1:")+".yaml")
	filled := strings.NewReplacer("{{backend}}", backendURL, "{{key_file}}", r.keyFile).Replace(string(raw))
	if err := os.WriteFile(path, []byte(filled), 0o600); err != nil {
		return "", err
	}
	if _, err := runTool(ctx, r.b.router, "-validate", "-config", path); err != nil {
		return "", fmt.Errorf("bench/configs/%s.yaml: %w", name, err)
	}
	return path, nil
}

// startRouter starts the router on config name in front of backendURL, in standalone or
// extproc mode.
func (r *runner) startRouter(ctx context.Context, label, name, backendURL, gateway string) (*Process, error) {
	cfg, err := r.routerConfig(ctx, name, backendURL)
	if err != nil {
		return nil, err
	}
	// Every listener on a free loopback port: the front door's own, management and metrics.
	door := "-listener-address"
	if gateway == "extproc" {
		door = "-grpc-address"
	}
	args := []string{"-config", cfg, "-gateway", gateway, door, "127.0.0.1:0", "-api-address", "127.0.0.1:0", "-metrics-address", "127.0.0.1:0"}
	return r.ps.start(ctx, label, time.Minute, r.b.router, args...)
}

// startBackend starts a mock backend with extra flags.
func (r *runner) startBackend(ctx context.Context, label string, extra ...string) (*Process, string, error) {
	args := append([]string{"-address", "127.0.0.1:0"}, extra...)
	p, err := r.ps.start(ctx, label, 30*time.Second, r.b.backend, args...)
	if err != nil {
		return nil, "", err
	}
	return p, "http://" + p.Addr("backend"), nil
}

func (r *runner) startProxy(ctx context.Context, label, backendURL string, extra ...string) (*Process, error) {
	args := append([]string{"-address", "127.0.0.1:0", "-metrics-address", "127.0.0.1:0", "-backend", backendURL}, extra...)
	return r.ps.start(ctx, label, 30*time.Second, r.b.proxy, args...)
}

// tool runs a load generator and decodes its last output line.
func (r *runner) tool(ctx context.Context, bin string, args ...string) (measure.Result, error) {
	out, err := runTool(ctx, bin, args...)
	if err != nil {
		return measure.Result{}, err
	}
	return decodeResult(out)
}

func decodeResult(out []byte) (measure.Result, error) {
	var res measure.Result
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		return res, fmt.Errorf("load generator output %q: %w", out, err)
	}
	if res.Errors > 0 {
		return res, fmt.Errorf("%d of %d requests failed, the first with: %s", res.Errors, res.Errors+res.Requests, res.FirstError)
	}
	return res, nil
}

func itoa(n int) string { return strconv.Itoa(n) }
