package oop

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/semantic-router/semantic-router/bench/internal/measure"
)

// Targets of the interleaved rounds.
const (
	direct        = "direct"         // the mock backend itself
	proxy         = "proxy"          // the bare reverse proxy
	routerPlain   = "router-plain"   // config (a): one model, no signals
	routerSignals = "router-signals" // configs (b), (c): every builtin signal, four decisions
	// routerEvery is routerSignals asked with x-vsr-debug: true, which computes every signal
	// the decisions reference, not only those that can change the decision.
	routerEvery    = "router-signals-every"
	extprocPlain   = "extproc-plain"   // config (a) with -gateway extproc
	extprocSignals = "extproc-signals" // configs (b) with -gateway extproc
	extprocNoop    = "extproc-noop"    // a pass-through external processor, the ext_proc baseline
)

// Kinds of measurement.
const (
	kindLatency    = "latency"
	kindTTFB       = "ttfb"
	kindThroughput = "throughput"
)

// key names one series of per-round results.
type key struct{ kind, target, prompt string }

// step is one load-generator run.
type step struct {
	key
	body string // body name, see writeBodies
}

// plan lists one round's steps. Each kind measures its targets back to back, in an order
// rotated every round, so that drift on the machine hits every target alike.
func plan(round int, o Options) []step {
	rotate := func(ts []string) []string {
		i := round % len(ts)
		return append(append([]string(nil), ts[i:]...), ts[:i]...)
	}
	http := []string{direct, proxy, routerPlain, routerSignals}
	var steps []step
	add := func(kind, prompt, body string, targets []string) {
		for _, t := range rotate(targets) {
			steps = append(steps, step{key{kind, t, prompt}, body})
		}
	}
	latency := append(http[:len(http):len(http)], routerEvery)
	add(kindLatency, "short", "short", latency)
	add(kindLatency, "long", "long", latency)
	if o.ConversationN > 0 {
		add(kindLatency, "conversation", "conversation", http)
	}
	add(kindTTFB, "short", "short-stream", http)
	add(kindThroughput, "short", "short", http)
	extproc := []string{extprocNoop, extprocPlain, extprocSignals}
	add(kindLatency, "short", "short", extproc)
	add(kindThroughput, "short", "short", extproc)
	return steps
}

// rounds starts one mock backend, the bare proxy and four routers in front of it, and a
// pass-through external processor, and runs every round's plan.
func (r *runner) rounds(ctx context.Context, rep *Report) error {
	backend, backendURL, err := r.startBackend(ctx, "mock backend")
	if err != nil {
		return err
	}
	urls := map[string]string{direct: backendURL}
	addrs := map[string]string{}
	pids := map[string]int{direct: backend.Pid()}
	px, err := r.startProxy(ctx, "bare proxy", backendURL)
	if err != nil {
		return err
	}
	urls[proxy] = "http://" + px.Addr("inference")
	pids[proxy] = px.Pid()
	for _, rt := range []struct{ target, config, gateway string }{
		{routerPlain, "plain", "standalone"}, {routerSignals, "signals", "standalone"},
		{extprocPlain, "plain", "extproc"}, {extprocSignals, "signals", "extproc"},
	} {
		p, err := r.startRouter(ctx, rt.target, rt.config, backendURL, rt.gateway)
		if err != nil {
			return err
		}
		pids[rt.target] = p.Pid()
		if rt.gateway == "extproc" {
			addrs[rt.target] = p.Addr("extproc")
		} else {
			urls[rt.target] = "http://" + p.Addr("inference")
		}
	}
	urls[routerEvery], pids[routerEvery] = urls[routerSignals], pids[routerSignals]
	noop, err := r.ps.start(ctx, "no-op ext_proc", 30*time.Second, r.b.noop, "-address", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addrs[extprocNoop] = noop.Addr("extproc")
	pids[extprocNoop] = noop.Pid()
	rep.Results = map[key][]measure.Result{}
	for round := range r.o.Rounds {
		r.say("round %d of %d", round+1, r.o.Rounds)
		for _, s := range plan(round, r.o) {
			res, err := r.measureCPU(ctx, s, urls, addrs, pids[s.target])
			if err != nil {
				return fmt.Errorf("round %d, %s of %s (%s prompt): %w", round+1, s.kind, s.target, s.prompt, err)
			}
			rep.Results[s.key] = append(rep.Results[s.key], res)
		}
	}
	return nil
}

// measureCPU is measure, and the CPU time and the reading and writing system calls the
// target's process used over the run (user and system, warm-up included) per request it
// served.
func (r *runner) measureCPU(ctx context.Context, s step, urls, addrs map[string]string, pid int) (measure.Result, error) {
	before, err := cpuTime(pid)
	if err != nil {
		return measure.Result{}, err
	}
	readsBefore, writesBefore, err := syscalls(pid)
	if err != nil {
		return measure.Result{}, err
	}
	res, err := r.measure(ctx, s, urls, addrs)
	if err != nil {
		return res, err
	}
	after, err := cpuTime(pid)
	if err != nil {
		return res, err
	}
	reads, writes, err := syscalls(pid)
	if err != nil {
		return res, err
	}
	warm := r.o.Warmup
	if s.kind == kindPaced {
		warm = r.o.PacedStreams
	}
	if n := float64(res.Requests + warm); n > 0 {
		res.CPUPerRequest = float64((after - before).Microseconds()) / n
		res.ReadsPerRequest = float64(reads-readsBefore) / n
		res.WritesPerRequest = float64(writes-writesBefore) / n
	}
	return res, nil
}

func (r *runner) measure(ctx context.Context, s step, urls, addrs map[string]string) (measure.Result, error) {
	o := r.o
	body := r.bodies[s.body]
	warm := itoa(o.Warmup)
	if addr, ok := addrs[s.target]; ok {
		rewrite := "-expect-rewrite=" + strconv.FormatBool(s.target != extprocNoop)
		if s.kind == kindThroughput {
			return r.tool(ctx, r.b.extproc, "-mode", "throughput", "-addr", addr, "-body", body, "-c", itoa(o.Concurrency), "-d", o.Duration.String(), "-warmup", warm, rewrite)
		}
		return r.tool(ctx, r.b.extproc, "-mode", "latency", "-addr", addr, "-body", body, "-n", itoa(o.LatencyN), "-warmup", warm, rewrite)
	}
	url := urls[s.target]
	switch s.kind {
	case kindPaced:
		// One uncounted stream per connection first, as in a throughput cell.
		return r.tool(ctx, r.b.loadgen, "-mode", "throughput", "-url", url, "-body", body, "-c", itoa(o.PacedStreams), "-d", o.PacedDuration.String(),
			"-warmup", itoa(o.PacedStreams))
	case kindThroughput:
		return r.tool(ctx, r.b.loadgen, "-mode", "throughput", "-url", url, "-body", body, "-c", itoa(o.Concurrency), "-d", o.Duration.String(), "-warmup", warm)
	case kindTTFB:
		return r.tool(ctx, r.b.loadgen, "-mode", "ttfb", "-url", url, "-body", body, "-n", itoa(o.TTFBN), "-warmup", warm)
	default:
		args := []string{"-mode", "latency", "-url", url, "-body", body, "-n", itoa(o.LatencyN), "-warmup", warm}
		if s.prompt == "conversation" {
			args = []string{"-mode", "latency", "-url", url, "-body", body, "-n", itoa(o.ConversationN), "-warmup", warm, "-vary"}
		}
		if s.target == routerEvery {
			args = append(args, "-header", "x-vsr-debug: true")
		}
		return r.tool(ctx, r.b.loadgen, args...)
	}
}
