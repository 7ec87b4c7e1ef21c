package signal

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// builtinSignalsConfig configures every builtin signal kind (the builtin embedder).
const builtinSignalsConfig = `
models:
  - model_name: m
    provider: {type: sim}
signals:
  keywords:
    - {name: kube, keywords: [kubernetes, docker, helm], fuzzy: 1}
  regex:
    - {name: ticket, patterns: ['\bJIRA-\d+\b']}
  embeddings:
    - {name: billing, examples: ["update my credit card", "why was I charged twice"]}
  domains:
    - {name: stem, categories: [math, physics, computer science]}
  pii:
    - {name: pii}
  jailbreak:
    - {name: jailbreak}
  complexity:
    - {name: hard, min_level: high}
  language:
    - {name: english, languages: [en]}
  context_length:
    - {name: long, min_tokens: 1000}
`

// BenchmarkBuiltinSignals computes every builtin signal kind (the builtin embedder) for a
// 200-token prompt, normalisation included, as a request does; it reports the median
// (p50-µs) beside the mean.
func BenchmarkBuiltinSignals(b *testing.B) {
	if n := EstimateTokens(signalsPrompt); n < 190 || n > 210 {
		b.Fatalf("the prompt has %d tokens, want about 200", n)
	}
	benchmarkSignals(b, signalsPrompt)
}

// BenchmarkBuiltinSignalsShort is BenchmarkBuiltinSignals for a short question, the most
// common request: there the fixed cost per request dominates.
func BenchmarkBuiltinSignalsShort(b *testing.B) {
	benchmarkSignals(b, shortPrompt)
}

func benchmarkSignals(b *testing.B, prompt string) {
	s := newTestSet(b, builtinSignalsConfig, SetOptions{})
	req := userChat(prompt)
	ctx := context.Background()
	var took []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		if _, _, err := s.Evaluate(ctx, InputFromChat(req, nil), nil); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	reportP50(b, took)
}

// reportP50 reports the median of took as p50-µs.
func reportP50(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds())/1000, "p50-µs")
}

// shortPrompt is a neutral seven-word question.
const shortPrompt = "Which city hosts the headquarters of the UN?"

// otherWordsPrompt shares no word with shortPrompt (BenchmarkBuiltinSignalsCold).
const otherWordsPrompt = "Qx zz"

// signalsPrompt is a realistic prompt of about 200 tokens.
var signalsPrompt = strings.Join([]string{
	"I run a small web shop on a Kubernetes cluster with three nodes, and since last week the checkout service",
	"restarts every few hours with an out-of-memory error. The pods have a memory limit of 512 MiB and the Go",
	"service normally uses about 200 MiB. I added pprof and saw that the heap grows slowly while the number of",
	"goroutines stays flat. We cache product images in a map keyed by URL and never evict them, and we also keep",
	"a slice of recent orders for the dashboard. Could you explain, step by step, how to find which of these",
	"grows without bound, how to read the heap profile to confirm it, and what a sensible eviction policy would",
	"be for the image cache? Please compare an LRU with a time-based expiry for this workload, and tell me which",
	"metrics I should export to Prometheus. Our ticket is JIRA-4521.",
}, " ")

// BenchmarkSignalKind computes one signal of each kind on its own (the others of
// builtinSignalsConfig are not wanted), for both prompts: what each detector costs a
// request, its share of the text's analysis and embedding included.
func BenchmarkSignalKind(b *testing.B) {
	s := newTestSet(b, builtinSignalsConfig, SetOptions{})
	ctx := context.Background()
	for _, p := range []struct{ name, text string }{{"short", shortPrompt}, {"200tokens", signalsPrompt}} {
		req := userChat(p.text)
		for i := range s.list {
			ex := &s.list[i]
			names := map[string]bool{ex.name: true}
			b.Run(ex.kind+"/"+p.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := s.Evaluate(ctx, InputFromChat(req, nil), names); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkBuiltinSignalsCold is BenchmarkBuiltinSignals and BenchmarkSignalKind with the
// CPU's caches emptied before each request (48 MiB written, not timed), as the router runs
// them: between two requests the load generator, the model server and the kernel run on the
// same cores, and in `make bench` the signals cost the router about four times what the warm
// loop measures. Tables a request touches, not instructions, make most of this figure.
// The after-other-words runs first evaluate a prompt that shares no word with the timed one:
// what they save is the code and the tables every request reads; what is left over the warm
// figure is what the timed prompt's own words reach.
func BenchmarkBuiltinSignalsCold(b *testing.B) {
	s := newTestSet(b, builtinSignalsConfig, SetOptions{})
	ctx := context.Background()
	evict := make([]byte, 48<<20)
	// before, when not empty, is evaluated after the caches are emptied and before the timed
	// request: a prompt with none of its words brings back the code and the tables every
	// request reads, and leaves cold what only the timed prompt's words reach.
	run := func(b *testing.B, prompt, before string, names map[string]bool) {
		req, warm := userChat(prompt), userChat(before)
		var took []time.Duration
		for b.Loop() {
			b.StopTimer()
			for i := 0; i < len(evict); i += 64 {
				evict[i]++
			}
			if before != "" {
				if _, _, err := s.Evaluate(ctx, InputFromChat(warm, nil), names); err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
			start := time.Now()
			if _, _, err := s.Evaluate(ctx, InputFromChat(req, nil), names); err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(start))
		}
		reportP50(b, took)
	}
	b.Run("all/short", func(b *testing.B) { run(b, shortPrompt, "", nil) })
	b.Run("all/short/after-other-words", func(b *testing.B) { run(b, shortPrompt, otherWordsPrompt, nil) })
	b.Run("all/200tokens", func(b *testing.B) { run(b, signalsPrompt, "", nil) })
	for i := range s.list {
		ex := &s.list[i]
		names := map[string]bool{ex.name: true}
		b.Run(ex.kind+"/short", func(b *testing.B) { run(b, shortPrompt, "", names) })
		b.Run(ex.kind+"/short/after-other-words", func(b *testing.B) { run(b, shortPrompt, otherWordsPrompt, names) })
	}
}
