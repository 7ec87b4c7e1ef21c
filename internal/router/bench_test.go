package router

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
)

// A prompt of about 200 tokens.
var benchPrompt = strings.Repeat("My team is migrating a payment service from Python to Go and we need to keep "+
	"the latency of card authorisations under fifty milliseconds while the database is replicated. ", 5)

func benchRouter(b *testing.B, extraSignals string) *Router {
	b.Helper()
	cfg, err := config.Parse([]byte(`
models:
  - model_name: general
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 0s, reply: ok}}
  - model_name: coder
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 0s, reply: ok}}
signals:
  keywords:
    - name: code_words
      keywords: [python, golang, go, rust]
  domains:
    - name: cs
      categories: [computer science, engineering]
  pii:
    - name: pii
` + extraSignals + `
decisions:
  - name: block_pii
    priority: 100
    rules: {signal: pii}
    block: {message: no}
  - name: code
    rules:
      any: [{signal: code_words}, {signal: cs}]
    models: [{model: coder}]
`))
	if err != nil {
		b.Fatal(err)
	}
	r, err := New(cfg, Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = r.Close() })
	return r
}

func benchComplete(b *testing.B, r *Router, model string) {
	body, err := json.Marshal(&openai.ChatRequest{Model: model, Messages: []openai.Message{{Role: "user", Content: openai.TextContent(benchPrompt)}}})
	if err != nil {
		b.Fatal(err)
	}
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	ctx, h := context.Background(), http.Header{}
	b.ReportAllocs()
	for b.Loop() {
		res, _, err := p.Serve(ctx, &Request{ID: "bench", Header: h, Body: bytes.NewReader(body)})
		if err != nil {
			b.Fatal(err)
		}
		res.Close()
	}
}

// BenchmarkCompleteRouted is a request through the whole pipeline for the virtual model with keyword, domain and PII
// signals (the prompt names Python and Go, so the keyword settles the "code" decision and the
// domain signal is not computed); BenchmarkCompleteDirect names the model and computes nothing. The difference is
// what routing adds to a request (the simulated model answers at once in both).
func BenchmarkCompleteRouted(b *testing.B) { benchComplete(b, benchRouter(b, ""), "auto") }
func BenchmarkCompleteDirect(b *testing.B) { benchComplete(b, benchRouter(b, ""), "general") }

// BenchmarkClassifyAllSignals computes the whole signal set on a 200-token prompt: keyword,
// domain, PII, jailbreak, complexity, language, context length.
func BenchmarkClassifyAllSignals(b *testing.B) {
	r := benchRouter(b, `  jailbreak:
    - name: jb
  complexity:
    - name: hard
      min_level: high
  language:
    - name: en
      languages: [en]
  context_length:
    - name: long
      min_tokens: 1000
`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Classify(ctx, benchPrompt, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRouteColdSignals routes the 7-word prompt of `make bench` on its signals
// configuration (bench/configs/signals.yaml) with the CPU's caches emptied before each request
// (48 MiB written, not timed), as the router runs between the load generator and the model
// server: as users run it, where the decisions compute only the signals that can change them,
// and with x-vsr-debug: true, which computes every one.
func BenchmarkRouteColdSignals(b *testing.B) {
	yaml, err := os.ReadFile("../../bench/configs/signals.yaml")
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := config.Parse(bytes.ReplaceAll(yaml, []byte("{{backend}}"), []byte("http://127.0.0.1:1")))
	if err != nil {
		b.Fatal(err)
	}
	r, err := New(cfg, Options{Logger: slog.New(slog.DiscardHandler), ClassifyOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = r.Close() })
	evict := make([]byte, 48<<20)
	for _, bc := range []struct {
		name string
		h    http.Header
	}{{"as-decided", http.Header{}}, {"every-signal", http.Header{"X-Vsr-Debug": {"true"}}}} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			var took []time.Duration
			for b.Loop() {
				b.StopTimer()
				for i := 0; i < len(evict); i += 64 {
					evict[i]++
				}
				req := &openai.ChatRequest{Model: "auto", Messages: []openai.Message{{Role: "user", Content: openai.TextContent("What is the capital city of France?")}}}
				b.StartTimer()
				start := time.Now()
				if err := r.route(ctx, req, bc.h, &routed{}); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Nanoseconds())/1000, "p50-µs")
		})
	}
}

// BenchmarkCacheHit is a request answered by the cache through the whole pipeline (an exact
// hit; the model, a simulated one that answers at once, is called once before the loop);
// BenchmarkCacheMiss is the same request with a cache that never matches it (no-cache), so
// the model is called and the answer stored each time.
func BenchmarkCacheHit(b *testing.B)  { benchCache(b, http.Header{}) }
func BenchmarkCacheMiss(b *testing.B) { benchCache(b, http.Header{"Cache-Control": {"no-cache"}}) }

func benchCache(b *testing.B, h http.Header) {
	cfg, err := config.Parse([]byte(`
models:
  - model_name: general
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 0s}}
cache: {enabled: true}
`))
	if err != nil {
		b.Fatal(err)
	}
	r, err := New(cfg, Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	b.Cleanup(func() { _ = r.Close() })
	body := []byte(`{"model":"general","temperature":0,"messages":[{"role":"user","content":"` + benchPrompt + `"}]}`)
	serve := func() {
		res, _, err := p.Serve(context.Background(), &Request{ID: "bench", Header: h, Body: bytes.NewReader(body)})
		if err != nil {
			b.Fatal(err)
		}
		res.Close()
	}
	serve()
	b.ReportAllocs()
	for b.Loop() {
		serve()
	}
}
