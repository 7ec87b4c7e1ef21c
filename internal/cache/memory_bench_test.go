package cache

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/cache/internal/testprompts"
	"github.com/semantic-router/semantic-router/internal/embed/builtin"
)

// benchStore is a Memory filled with n distinct generated prompts embedded
// by the builtin embedder, and held-out queries (never in the store).
type benchStore struct {
	m        *Memory
	vs       [][]float32
	queries  []string
	qvs      [][]float32
	buildDur time.Duration
}

const benchQueries = 1000

var (
	benchMu     sync.Mutex
	benchStores = map[int]*benchStore{}
)

// loadBenchStore builds the store of n entries once per process, so the
// 100k benchmarks share one build.
func loadBenchStore(b *testing.B, n int) *benchStore {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	if s, ok := benchStores[n]; ok {
		return s
	}
	ctx := context.Background()
	prompts := testprompts.Prompts(0, n)
	vs, err := builtin.New().Embed(ctx, prompts)
	if err != nil {
		b.Fatal(err)
	}
	s := &benchStore{m: NewMemory(MemoryOptions{MaxEntries: n}), vs: vs}
	s.queries = testprompts.Prompts(testprompts.Total-benchQueries, benchQueries)
	if s.qvs, err = builtin.New().Embed(ctx, s.queries); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	for i, p := range prompts {
		err := s.m.Put(ctx, &Entry{Key: fmt.Sprint(i), Scope: "s", Prompt: p, Vector: vs[i], Body: []byte(`{}`)})
		if err != nil {
			b.Fatal(err)
		}
	}
	s.buildDur = time.Since(start)
	benchStores[n] = s
	return s
}

func benchmarkNearest(b *testing.B, n int) {
	s := loadBenchStore(b, n)
	ctx := context.Background()
	var lat []time.Duration
	hits, i := 0, 0
	for b.Loop() {
		q := i % benchQueries
		i++
		start := time.Now()
		h, err := s.m.Nearest(ctx, "", "s", s.qvs[q], 0.9, s.queries[q])
		lat = append(lat, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		if h != nil {
			hits++
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
	b.ReportMetric(float64(hits)/float64(len(lat)), "hit-ratio")
	b.ReportMetric(s.buildDur.Seconds(), "build-s")
}

// BenchmarkNearest10k is a semantic lookup (threshold 0.9, negation guard
// on) among 10,000 entries of one partition and scope.
func BenchmarkNearest10k(b *testing.B) { benchmarkNearest(b, 10_000) }

// BenchmarkNearest100k is BenchmarkNearest10k among 100,000 entries.
func BenchmarkNearest100k(b *testing.B) { benchmarkNearest(b, 100_000) }

// BenchmarkRecall reports recall@1 of the index at 100,000 entries against a
// brute-force scan: the share of held-out queries whose first result is as
// similar as the true nearest entry, at the beam width Nearest uses
// ("recall@1") and at narrower and wider ones for comparison. Its ns/op is
// one index search, without the store's lock and negation guard.
func BenchmarkRecall(b *testing.B) {
	s := loadBenchStore(b, 100_000)
	idx := s.m.indexes[scopeKey{"", "s"}]
	best := make([]float32, len(s.qvs))
	for qi, q := range s.qvs {
		best[qi] = -2
		for _, v := range s.vs {
			best[qi] = max(best[qi], dot32(q, v))
		}
	}
	recall := func(ef int) float64 {
		found := 0
		for qi, q := range s.qvs {
			if res := idx.Search(q, 1, ef); len(res) == 1 && res[0].Similarity >= best[qi]-1e-6 {
				found++
			}
		}
		return float64(found) / float64(len(s.qvs))
	}
	// The timed loop is one search per iteration; recall is measured once.
	i := 0
	for b.Loop() {
		idx.Search(s.qvs[i%len(s.qvs)], 1, searchEf)
		i++
	}
	b.ReportMetric(recall(searchEf), "recall@1")
	for _, ef := range []int{16, 32, 128} {
		b.ReportMetric(recall(ef), fmt.Sprintf("recall@1-ef%d", ef))
	}
}

func dot32(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
