package oop

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/semantic-router/semantic-router/bench/internal/measure"
)

// Report is a finished run: the per-round results, the streams runs and the goals judged on
// their medians.
type Report struct {
	Options Options
	Machine Machine
	Command string
	Results map[key][]measure.Result // one per round, in round order
	Streams []StreamRun
	Goals   []Goal
}

// Goal is one goal of the performance issue, judged on this run.
type Goal struct {
	Name     string
	Limit    string
	Measured string
	// Rounds is the range of the ratio taken within each round, which shows how far this
	// machine moves it between rounds; empty for the goals that are not ratios.
	Rounds  string
	Verdict string // "met", "not met" or "not judged (...)"
}

// series returns f of each round's result for k.
func (rep *Report) series(k key, f func(measure.Result) float64) []float64 {
	var out []float64
	for _, r := range rep.Results[k] {
		out = append(out, f(r))
	}
	return out
}

func p50(r measure.Result) float64        { return r.P50 }
func p99(r measure.Result) float64        { return r.P99 }
func rps(r measure.Result) float64        { return r.RPS }
func cpu(r measure.Result) float64        { return r.CPUPerRequest }
func readCalls(r measure.Result) float64  { return r.ReadsPerRequest }
func writeCalls(r measure.Result) float64 { return r.WritesPerRequest }

// med is the median over rounds of f for k.
func (rep *Report) med(k key, f func(measure.Result) float64) float64 {
	return measure.Median(rep.series(k, f))
}

// added is the median over rounds of (target − backend alone) for the same kind and prompt,
// each difference taken within its round.
func (rep *Report) added(kind, target, prompt string, f func(measure.Result) float64) float64 {
	return rep.addedOver(kind, target, direct, prompt, f)
}

// addedOver is added against another baseline than the backend alone.
func (rep *Report) addedOver(kind, target, base, prompt string, f func(measure.Result) float64) float64 {
	t := rep.series(key{kind, target, prompt}, f)
	d := rep.series(key{kind, base, prompt}, f)
	var diffs []float64
	for i := range min(len(t), len(d)) {
		diffs = append(diffs, t[i]-d[i])
	}
	return measure.Median(diffs)
}

// addedRatios is, round by round, (target − backend alone) over (proxy − backend alone).
func (rep *Report) addedRatios(kind, target, prompt string) []float64 {
	t := rep.series(key{kind, target, prompt}, p50)
	p := rep.series(key{kind, proxy, prompt}, p50)
	d := rep.series(key{kind, direct, prompt}, p50)
	var out []float64
	for i := range min(len(t), len(p), len(d)) {
		out = append(out, ratio(t[i]-d[i], p[i]-d[i]))
	}
	return out
}

// rpsRatios is, round by round, the target's throughput over the proxy's.
func (rep *Report) rpsRatios(target string) []float64 {
	t := rep.series(key{kindThroughput, target, "short"}, rps)
	p := rep.series(key{kindThroughput, proxy, "short"}, rps)
	var out []float64
	for i := range min(len(t), len(p)) {
		out = append(out, ratio(t[i], p[i]))
	}
	return out
}

// span writes the range of per-round ratios.
func span(rs []float64) string {
	if len(rs) == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f–%.2f", slices.Min(rs), slices.Max(rs))
}

// ratio is a/b, or 0 when b is not positive (a proxy that added nothing measurable).
func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

// judge sets Goals from the results. A goal is judged only on 5 or more rounds (and the
// memory goal only with 5,000 or more streams), and none on a quick run.
func (rep *Report) judge() {
	enough := rep.Options.Rounds >= 5
	judge := func(name, limit string, value float64, rounds []float64, bound float64, atMost bool) {
		g := Goal{Name: name, Limit: limit, Measured: ratioText(value, bound), Rounds: span(rounds)}
		switch ok := (atMost && value <= bound) || (!atMost && value >= bound); {
		case rep.Options.Quick:
			g.Verdict = "not judged (quick run)"
		case !enough:
			g.Verdict = "not judged (fewer than 5 rounds)"
		case value == 0:
			g.Verdict = "not judged (the proxy added nothing measurable)"
		case ok:
			g.Verdict = "met"
		default:
			g.Verdict = "not met"
		}
		rep.Goals = append(rep.Goals, g)
	}
	addedRatio := func(kind, target, prompt string) float64 {
		return ratio(rep.added(kind, target, prompt, p50), rep.added(kind, proxy, prompt, p50))
	}
	rpsRatio := func(target string) float64 {
		return ratio(rep.med(key{kindThroughput, target, "short"}, rps), rep.med(key{kindThroughput, proxy, "short"}, rps))
	}
	judge("no signals: added p50", "≤ 1.0× proxy", addedRatio(kindLatency, routerPlain, "short"),
		rep.addedRatios(kindLatency, routerPlain, "short"), 1.0, true)
	judge(fmt.Sprintf("no signals: throughput at c=%d", rep.Options.Concurrency), "≥ 1.0× proxy", rpsRatio(routerPlain),
		rep.rpsRatios(routerPlain), 1.0, false)
	judge("no signals: added SSE time to first byte", "≤ 1.0× proxy", addedRatio(kindTTFB, routerPlain, "short"),
		rep.addedRatios(kindTTFB, routerPlain, "short"), 1.0, true)
	judge("full signals, 7-word prompt: added p50", "≤ 1.5× proxy", addedRatio(kindLatency, routerSignals, "short"),
		rep.addedRatios(kindLatency, routerSignals, "short"), 1.5, true)
	judge(fmt.Sprintf("full signals, 7-word prompt: throughput at c=%d", rep.Options.Concurrency), "≥ 0.8× proxy", rpsRatio(routerSignals),
		rep.rpsRatios(routerSignals), 0.8, false)
	judge("full signals, 200-token prompt: added p50", "≤ 3.0× proxy", addedRatio(kindLatency, routerSignals, "long"),
		rep.addedRatios(kindLatency, routerSignals, "long"), 3.0, true)

	for _, s := range rep.Streams {
		if s.Target != routerPlain || s.H2C || s.Conversation {
			continue
		}
		g := Goal{Name: fmt.Sprintf("%d concurrent streams: router peak RSS, every stream complete", s.Streams), Limit: "≤ 200 MB",
			Measured: fmt.Sprintf("%.0f MB, %d of %d complete", mb(s.After.PeakRSSKB), s.Complete, s.Streams)}
		switch {
		case rep.Options.Quick:
			g.Verdict = "not judged (quick run)"
		case s.Streams < 5000:
			g.Verdict = fmt.Sprintf("not judged (%d streams)", s.Streams)
		case mb(s.After.PeakRSSKB) <= 200 && s.Complete == s.Streams:
			g.Verdict = "met"
		default:
			g.Verdict = "not met"
		}
		rep.Goals = append(rep.Goals, g)
		after, when := s.After, "after"
		if s.Idle.Goroutines > 0 {
			after, when = s.Idle, "after the upstream idle timeout"
		}
		back := Goal{Name: "after the streams: router goroutines and sockets back to the baseline", Limit: "within 16 of before",
			Measured: fmt.Sprintf("%s: goroutines %d → %d, sockets %d → %d", when, s.Before.Goroutines, after.Goroutines, s.Before.Sockets, after.Sockets)}
		back.Verdict = "not met"
		if rep.Options.Quick {
			back.Verdict = "not judged (quick run)"
		} else if after.Goroutines-s.Before.Goroutines <= 16 && after.Sockets-s.Before.Sockets <= 16 {
			back.Verdict = "met"
		}
		rep.Goals = append(rep.Goals, back)
	}
}

func mb(kb int64) float64 { return float64(kb) / 1024 }

// ratioText writes a goal's ratio with two decimals, or with as many more as it takes to tell
// it from the goal's bound when the two would read alike: 1.004 is not met by "≤ 1.0", and
// the report should not say "1.00".
func ratioText(value, bound float64) string {
	for digits := 2; digits < 6; digits++ {
		s := strconv.FormatFloat(value, 'f', digits, 64)
		if value == bound || s != strconv.FormatFloat(bound, 'f', digits, 64) {
			return s + "×"
		}
	}
	return strconv.FormatFloat(value, 'f', -1, 64) + "×"
}

// Markdown writes the report: how it was run, the tables, and the goals.
func (rep *Report) Markdown(w io.Writer) {
	o := rep.Options
	m := rep.Machine
	fmt.Fprintf(w, "Command: `%s`\n\n", rep.Command)
	fmt.Fprintf(w, "Machine: %d CPUs (%s), %s, load average %s at the start, %s.\n\n", m.CPUs, m.CPUModel, m.GoVersion, m.LoadAvg, m.Date)
	fmt.Fprintf(w, "Medians over %d interleaved rounds; each round: %d requests at concurrency 1 per latency cell (%d of the 85 KB conversation), %d streams per time-to-first-byte cell, "+
		"%s at concurrency %d per throughput cell, %d uncounted warm-up requests before each. Times in µs. "+
		"The 85 KB conversation is an agent's request, not streamed: a system prompt and twenty turns about code, and a last question numbered anew on each request (`loadgen -vary`), as an agent's next turn is new.\n\n",
		o.Rounds, o.LatencyN, o.ConversationN, o.TTFBN, o.Duration, o.Concurrency, o.Warmup)

	fmt.Fprintf(w, "| target | prompt | p50 | p99 | added p50 | added p99 | added p50 × proxy | req/s at c=%d | × proxy | SSE TTFB p50 | added TTFB | added TTFB × proxy |\n", o.Concurrency)
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	names := map[string]string{direct: "mock backend alone", proxy: "bare ReverseProxy", routerPlain: "router, one model, no signals",
		routerSignals: "router, all builtin signals, 4 decisions", routerEvery: "the same, every signal computed (x-vsr-debug)"}
	prompts := map[string]string{"short": "7 words", "long": "~200 tokens", "conversation": "85 KB conversation"}
	for _, prompt := range []string{"short", "long", "conversation"} {
		for _, t := range []string{direct, proxy, routerPlain, routerSignals, routerEvery} {
			lk := key{kindLatency, t, prompt}
			if len(rep.Results[lk]) == 0 {
				continue
			}
			addP50, addP99 := rep.added(kindLatency, t, prompt, p50), rep.added(kindLatency, t, prompt, p99)
			cells := []string{names[t], prompts[prompt], us(rep.med(lk, p50)), us(rep.med(lk, p99))}
			if t == direct {
				cells = append(cells, "–", "–", "–")
			} else {
				cells = append(cells, signedUS(addP50), signedUS(addP99), times(ratio(addP50, rep.added(kindLatency, proxy, prompt, p50))))
			}
			if prompt == "short" && t != routerEvery {
				tput := rep.med(key{kindThroughput, t, prompt}, rps)
				ttfb := rep.med(key{kindTTFB, t, prompt}, p50)
				cells = append(cells, fmt.Sprintf("%.0f", tput), times(ratio(tput, rep.med(key{kindThroughput, proxy, prompt}, rps))), us(ttfb))
				if t == direct {
					cells = append(cells, "–", "–")
				} else {
					addT := rep.added(kindTTFB, t, prompt, p50)
					cells = append(cells, signedUS(addT), times(ratio(addT, rep.added(kindTTFB, proxy, prompt, p50))))
				}
			} else {
				cells = append(cells, "–", "–", "–", "–", "–")
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}

	fmt.Fprintf(w, "\nCPU time per request of each server process (user and system, from /proc/<pid>/stat over each run, warm-up included; µs). "+
		"At concurrency 1 it includes the Go scheduler looking for work between requests (a process whose goroutines wait spins a while before it sleeps); "+
		"at concurrency %d, with the cores busy, it is closer to each request's own work:\n\n", o.Concurrency)
	fmt.Fprintf(w, "| process | at c=1, 7 words | × proxy | at c=1, ~200 tokens | × proxy | at c=1, 85 KB conversation | × proxy | at c=%d, 7 words | × proxy |\n", o.Concurrency)
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, t := range []string{direct, proxy, routerPlain, routerSignals, routerEvery} {
		cells := []string{names[t]}
		for _, c := range []key{{kindLatency, t, "short"}, {kindLatency, t, "long"}, {kindLatency, t, "conversation"}, {kindThroughput, t, "short"}} {
			if len(rep.Results[c]) == 0 {
				cells = append(cells, "–", "–")
				continue
			}
			v := rep.med(c, cpu)
			cells = append(cells, us(v), times(ratio(v, rep.med(key{c.kind, proxy, c.prompt}, cpu))))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}

	fmt.Fprintf(w, "\nSystem calls per request of each server process that read and that wrote, sockets included "+
		"(syscr and syscw from /proc/<pid>/io over each run, warm-up included); a streamed answer's are those of the time-to-first-byte run, which reads each stream to its end:\n\n")
	fmt.Fprintf(w, "| process | at c=1, 7 words: reads / writes | streamed at c=1, 7 words: reads / writes | at c=%d, 7 words: reads / writes |\n", o.Concurrency)
	fmt.Fprintln(w, "|---|---:|---:|---:|")
	for _, t := range []string{direct, proxy, routerPlain, routerSignals} {
		cells := []string{names[t]}
		for _, c := range []key{{kindLatency, t, "short"}, {kindTTFB, t, "short"}, {kindThroughput, t, "short"}} {
			if len(rep.Results[c]) == 0 {
				cells = append(cells, "–")
				continue
			}
			cells = append(cells, fmt.Sprintf("%.1f / %.1f", rep.med(c, readCalls), rep.med(c, writeCalls)))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}

	if pk := (key{kindPaced, proxy, "short"}); len(rep.Results[pk]) > 0 {
		fmt.Fprintf(w, "\nStreams paced as a model writes them (fresh processes, config (a), and config (a) holding a model API key, which it reads every event for): "+
			"the backend writes each of a stream's %d content events %s after the one before, so that each reaches the server on its own; "+
			"%d streams at once, each read to its end, for %s per cell after one uncounted stream per connection, over %d rounds in a rotated order. "+
			"Per event the client receives (the role, %d content, the finish and [DONE]): the server's CPU time (µs) and its system calls that read and that wrote:\n\n",
			pacedTokens, o.PacedInterval, o.PacedStreams, o.PacedDuration, len(rep.Results[pk]), pacedTokens)
		fmt.Fprintln(w, "| process | streams/s | CPU per event | × proxy | reads / writes per event |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
		proxyCPU := rep.med(pk, perEvent(cpu))
		for _, t := range []struct{ target, name string }{{proxy, names[proxy]}, {routerPlain, names[routerPlain]},
			{routerCredential, "the same, holding a model API key"}} {
			k := key{kindPaced, t.target, "short"}
			if len(rep.Results[k]) == 0 {
				continue
			}
			v := rep.med(k, perEvent(cpu))
			fmt.Fprintf(w, "| %s | %.0f | %.1f | %s | %.2f / %.2f |\n", t.name, rep.med(k, rps), v, times(ratio(v, proxyCPU)),
				rep.med(k, perEvent(readCalls)), rep.med(k, perEvent(writeCalls)))
		}
	}

	fmt.Fprintf(w, "\nEnvoy external processor (`-gateway extproc`), one gRPC stream per request carrying request headers, buffered body and response headers; "+
		"\"added\" is over a pass-through processor (bench/cmd/noopextproc) within each round:\n\n")
	fmt.Fprintf(w, "| processor | exchange p50 | exchange p99 | added p50 | added p99 | exchanges/s at c=%d | × pass-through |\n", o.Concurrency)
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
	noopRPS := rep.med(key{kindThroughput, extprocNoop, "short"}, rps)
	for _, t := range []struct{ target, name string }{{extprocNoop, "pass-through (no work)"},
		{extprocPlain, "router: one model, no signals"}, {extprocSignals, "router: all builtin signals, 4 decisions"}} {
		lk := key{kindLatency, t.target, "short"}
		cells := []string{t.name, us(rep.med(lk, p50)), us(rep.med(lk, p99))}
		if t.target == extprocNoop {
			cells = append(cells, "–", "–")
		} else {
			cells = append(cells, signedUS(rep.addedOver(kindLatency, t.target, extprocNoop, "short", p50)),
				signedUS(rep.addedOver(kindLatency, t.target, extprocNoop, "short", p99)))
		}
		tput := rep.med(key{kindThroughput, t.target, "short"}, rps)
		cells = append(cells, fmt.Sprintf("%.0f", tput), times(ratio(tput, noopRPS)))
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}

	if len(rep.Streams) > 0 {
		fmt.Fprintf(w, "\nConcurrent streams (fresh processes, config (a); each stream is held open by the backend after its first event until all are open, then released):\n\n")
		fmt.Fprintln(w, "| process | streams | complete | peak RSS MB | RSS MB before / during / after / idle | goroutines before / during / after / idle | sockets before / during / after / idle |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---|---|---|")
		idle := func(v int64, s StreamRun) string {
			if s.Idle.Goroutines == 0 {
				return "–"
			}
			return fmt.Sprint(v)
		}
		for _, s := range rep.Streams {
			name := names[s.Target]
			switch {
			case s.H2C && s.UpstreamH2C:
				name += ", HTTP/2 without TLS on both hops"
			case s.H2C:
				name += ", clients over HTTP/2 without TLS"
			case s.Conversation:
				name += ", an 85 KB conversation a stream"
			}
			fmt.Fprintf(w, "| %s | %d | %d | %.0f | %.0f / %.0f / %.0f / %s | %d / %d / %d / %s | %d / %d / %d / %s |\n", name, s.Streams, s.Complete,
				mb(s.After.PeakRSSKB), mb(s.Before.RSSKB), mb(s.During.RSSKB), mb(s.After.RSSKB), idle(int64(mb(s.Idle.RSSKB)), s),
				s.Before.Goroutines, s.During.Goroutines, s.After.Goroutines, idle(int64(s.Idle.Goroutines), s),
				s.Before.Sockets, s.During.Sockets, s.After.Sockets, idle(int64(s.Idle.Sockets), s))
		}
		fmt.Fprintln(w, "\n\"after\" is sampled once goroutines and sockets stop changing after the release (at most the settle time); \"idle\" once the upstream transport's idle timeout has passed since the release, when its pooled connections are closed. "+
			"Clients over HTTP/1.1 hold a connection each; clients over HTTP/2 without TLS (the load generator's -h2c, as a proxy in front set up for HTTP/2 upstreams) share a connection among up to 250 streams, and the bare proxy serves them with -h2c. "+
			"The upstream connections are HTTP/1.1, one a stream, except on both hops (the router's provider.h2c, the proxy's -upstream-h2c), as with a model server behind a sidecar that serves HTTP/2 without TLS. "+
			"The streams ask the 7-word question, except in the rows of an 85 KB conversation a stream: an agent's request (a system prompt and twenty turns), over HTTP/1.1.")
	}

	fmt.Fprintf(w, "\nGoals (ratios of medians against the bare proxy in this run; \"each round\" is the range of the same ratio taken within each round, how far this machine moves it):\n\n")
	fmt.Fprintln(w, "| goal | limit | measured | each round | verdict |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, g := range rep.Goals {
		rounds := g.Rounds
		if rounds == "" {
			rounds = "–"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", g.Name, g.Limit, g.Measured, rounds, g.Verdict)
	}
}

func us(v float64) string       { return fmt.Sprintf("%.0f", v) }
func signedUS(v float64) string { return fmt.Sprintf("%+.0f", v) }

func times(v float64) string {
	if v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", v)
}
