package cache

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/embed/builtin"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// clock is a settable time source for MemoryOptions.Now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

func newTestMemory(o MemoryOptions) (*Memory, *clock) {
	c := &clock{now: t0}
	o.Now = c.Now
	return NewMemory(o), c
}

func mustPut(t *testing.T, m *Memory, e *Entry) {
	t.Helper()
	if err := m.Put(context.Background(), e); err != nil {
		t.Fatalf("Put(%q): %v", e.Key, err)
	}
}

func get(t *testing.T, m *Memory, partition, key string) *Entry {
	t.Helper()
	e, err := m.Get(context.Background(), partition, key)
	if err != nil {
		t.Fatalf("Get(%q, %q): %v", partition, key, err)
	}
	return e
}

func nearest(t *testing.T, m *Memory, partition, scope string, v []float32, threshold float64, prompt string) *Hit {
	t.Helper()
	h, err := m.Nearest(context.Background(), partition, scope, v, threshold, prompt)
	if err != nil {
		t.Fatalf("Nearest(%q, %q): %v", partition, scope, err)
	}
	return h
}

// wantStats checks the counts; bytes are checked only to be there when entries are
// (TestMemoryByteBudget checks their sum).
func wantStats(t *testing.T, m *Memory, want Stats) {
	t.Helper()
	got := m.Stats()
	if (got.Bytes > 0) != (got.Entries > 0) {
		t.Fatalf("Stats() = %+v: bytes without entries, or entries without bytes", got)
	}
	got.Bytes = 0
	if got != want {
		t.Fatalf("Stats() = %+v, want %+v", got, want)
	}
}

func TestMemoryGetPutReplace(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(MemoryOptions{})
	if e := get(t, m, "", "k"); e != nil {
		t.Fatalf("Get on an empty store = %+v", e)
	}
	mustPut(t, m, &Entry{Key: "k", Prompt: "hi", Body: []byte(`{"id":"1"}`), Model: "qwen"})
	want := Entry{Key: "k", Prompt: "hi", Body: []byte(`{"id":"1"}`), Model: "qwen", Created: t0, TTL: time.Hour}
	if e := get(t, m, "", "k"); e == nil || !reflect.DeepEqual(*e, want) {
		t.Fatalf("Get = %+v, want %+v", e, want)
	}

	// The returned entry is a copy: changing it does not change the store.
	e := get(t, m, "", "k")
	e.Model = "changed"
	if e := get(t, m, "", "k"); e.Model != "qwen" {
		t.Fatalf("Model = %q after changing a returned copy", e.Model)
	}

	mustPut(t, m, &Entry{Key: "k", Body: []byte(`{"id":"2"}`), TTL: time.Minute})
	want = Entry{Key: "k", Body: []byte(`{"id":"2"}`), Created: t0, TTL: time.Minute}
	if e := get(t, m, "", "k"); e == nil || !reflect.DeepEqual(*e, want) {
		t.Fatalf("Get after replace = %+v, want %+v", e, want)
	}
	wantStats(t, m, Stats{Entries: 1})
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestMemoryPutErrors(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(MemoryOptions{})
	mustPut(t, m, &Entry{Key: "a", Scope: "s", Vector: []float32{1, 0, 0}})
	tests := []struct {
		name string
		e    *Entry
		want string
	}{
		{"nil entry", nil, "cache: entry has no key"},
		{"no key", &Entry{Body: []byte("x")}, "cache: entry has no key"},
		{"vector length differs in the scope", &Entry{Key: "b", Scope: "s", Vector: []float32{1, 0}}, "cache: vector has 2 dimensions, the scope's entries 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := m.Put(context.Background(), tt.e)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Put = %v, want %q", err, tt.want)
			}
		})
	}
	if !errors.Is(m.Put(context.Background(), &Entry{}), ErrNoKey) {
		t.Fatal("Put without key is not ErrNoKey")
	}
	_, err := m.Nearest(context.Background(), "", "s", []float32{0, 1}, 0, "")
	if want := "cache: query vector has 2 dimensions, the scope's entries 3"; err == nil || err.Error() != want {
		t.Fatalf("Nearest = %v, want %q", err, want)
	}
	// Another scope may use another length.
	mustPut(t, m, &Entry{Key: "b", Scope: "t", Vector: []float32{1, 0}})
	wantStats(t, m, Stats{Entries: 2})
}

func TestMemoryIsolation(t *testing.T) {
	t.Parallel()
	v := []float32{0, 1, 0}
	m, _ := newTestMemory(MemoryOptions{})
	mustPut(t, m, &Entry{Key: "k", Partition: "tenant-a", Scope: "s1", Prompt: "p", Vector: v, Body: []byte("a")})
	tests := []struct {
		name, partition, scope string
		wantExact, wantNear    bool
	}{
		{"same tenant and scope", "tenant-a", "s1", true, true},
		{"other tenant", "tenant-b", "s1", false, false},
		{"shared partition", "", "s1", false, false},
		{"same tenant, other scope", "tenant-a", "s2", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if e := get(t, m, tt.partition, "k"); (e != nil) != tt.wantExact {
				t.Fatalf("Get = %+v, want found %v", e, tt.wantExact)
			}
			h := nearest(t, m, tt.partition, tt.scope, v, 0.5, "p")
			if (h != nil) != tt.wantNear {
				t.Fatalf("Nearest = %+v, want found %v", h, tt.wantNear)
			}
			if h != nil && (string(h.Entry.Body) != "a" || h.Similarity != 1 || h.Exact) {
				t.Fatalf("Nearest = %+v", h)
			}
		})
	}
}

func TestMemoryNearest(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(MemoryOptions{})
	// The closest entry asks the opposite; the next one may answer.
	mustPut(t, m, &Entry{Key: "off", Scope: "s", Prompt: "disable dark mode", Vector: []float32{1, 0, 0}})
	mustPut(t, m, &Entry{Key: "on", Scope: "s", Prompt: "turn the dark theme on", Vector: []float32{0.8, 0.6, 0}})
	mustPut(t, m, &Entry{Key: "other", Scope: "s", Prompt: "what is a b-tree", Vector: []float32{0, 0, 1}})
	mustPut(t, m, &Entry{Key: "exact-only", Scope: "s", Prompt: "enable dark mode"})
	tests := []struct {
		name      string
		v         []float32
		threshold float64
		prompt    string
		wantKey   string
		wantSim   float64
	}{
		{"guard skips the closest", []float32{1, 0, 0}, 0.7, "enable dark mode", "on", 0.800000011920929},
		{"closest passes", []float32{1, 0, 0}, 0.7, "how do I switch dark mode off", "off", 1},
		{"next is below threshold", []float32{1, 0, 0}, 0.9, "enable dark mode", "", 0},
		{"unnormalised query", []float32{0, 0, 3}, 0.9, "explain b-trees", "other", 1},
		{"nothing close", []float32{0, -1, 0}, 0.1, "x", "", 0},
		{"zero vector", []float32{0, 0, 0}, -1, "x", "", 0},
		{"nil vector", nil, -1, "x", "", 0},
		{"NaN vector", []float32{float32(math.NaN()), 0, 0}, -1, "x", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := nearest(t, m, "", "s", tt.v, tt.threshold, tt.prompt)
			if tt.wantKey == "" {
				if h != nil {
					t.Fatalf("Nearest = %q (%v), want none", h.Entry.Key, h.Similarity)
				}
				return
			}
			if h == nil || h.Entry.Key != tt.wantKey || h.Similarity != tt.wantSim || h.Exact {
				t.Fatalf("Nearest = %+v, want %q at %v", h, tt.wantKey, tt.wantSim)
			}
		})
	}
}

// With the builtin embedder "turn off the lights" is the closest cached
// prompt to "turn on the lights" (0.98); the guard passes it over for a
// paraphrase.
func TestMemoryNearestBuiltinEmbedder(t *testing.T) {
	t.Parallel()
	prompts := []string{"turn off the lights", "How can I turn on the lights?", "explain b-trees", "turn on the lights"}
	vs, err := builtin.New().Embed(context.Background(), prompts)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := newTestMemory(MemoryOptions{})
	for i, p := range prompts[:3] {
		mustPut(t, m, &Entry{Key: fmt.Sprint(i), Prompt: p, Vector: vs[i]})
	}
	h := nearest(t, m, "", "", vs[3], 0.9, prompts[3])
	if h == nil || h.Entry.Prompt != prompts[1] || fmt.Sprintf("%.4f", h.Similarity) != "0.9435" {
		t.Fatalf("Nearest = %+v, want %q at 0.9435", h, prompts[1])
	}
}

func TestMemoryTTL(t *testing.T) {
	t.Parallel()
	v := []float32{1, 0}
	m, c := newTestMemory(MemoryOptions{TTL: time.Minute})
	mustPut(t, m, &Entry{Key: "default", Vector: v})
	mustPut(t, m, &Entry{Key: "long", TTL: time.Hour})
	mustPut(t, m, &Entry{Key: "old", Created: t0.Add(-50 * time.Second), Vector: v})

	c.Advance(9 * time.Second)
	if e := get(t, m, "", "old"); e == nil {
		t.Fatalf("an entry 59s old with a 60s TTL: got nil, want it live")
	}
	c.Advance(time.Second)
	if e := get(t, m, "", "old"); e != nil {
		t.Fatalf("Get at its expiry = %+v, want nil", e)
	}
	wantStats(t, m, Stats{Entries: 2, Expired: 1})
	if h := nearest(t, m, "", "", v, 0, ""); h == nil || h.Entry.Key != "default" {
		t.Fatalf("Nearest = %+v, want the live entry", h)
	}

	c.Advance(50 * time.Second)
	if h := nearest(t, m, "", "", v, 0, ""); h != nil {
		t.Fatalf("Nearest after expiry = %+v, want nil", h)
	}
	wantStats(t, m, Stats{Entries: 1, Expired: 2})

	// Put purges what has expired and drops an entry that arrives expired.
	mustPut(t, m, &Entry{Key: "a", TTL: time.Second})
	mustPut(t, m, &Entry{Key: "b", TTL: time.Second})
	c.Advance(time.Second)
	mustPut(t, m, &Entry{Key: "stale", Created: t0, TTL: time.Second})
	wantStats(t, m, Stats{Entries: 1, Expired: 4})
	if e := get(t, m, "", "long"); e == nil {
		t.Fatal("the hour-long entry expired")
	}
}

func TestMemoryEviction(t *testing.T) {
	t.Parallel()
	// Puts a, b, c, then uses b, b, c, a, a: the oldest put is a, the least
	// recently used b, the least frequently used c.
	tests := []struct {
		policy, victim string
	}{
		{"", "b"},
		{"lru", "b"},
		{"lfu", "c"},
		{"fifo", "a"},
	}
	for _, tt := range tests {
		t.Run(tt.policy, func(t *testing.T) {
			t.Parallel()
			evicted := 0
			m, _ := newTestMemory(MemoryOptions{MaxEntries: 3, Eviction: tt.policy, OnEvict: func() { evicted++ }})
			for _, k := range []string{"a", "b", "c"} {
				mustPut(t, m, &Entry{Key: k, Vector: []float32{1, 0}})
			}
			for _, k := range []string{"b", "b", "c", "a", "a"} {
				get(t, m, "", k)
			}
			mustPut(t, m, &Entry{Key: "d", Vector: []float32{0, 1}})
			for _, k := range []string{"a", "b", "c", "d"} {
				if e := get(t, m, "", k); (e == nil) != (k == tt.victim) {
					t.Fatalf("Get(%q) = %+v; want only %q evicted", k, e, tt.victim)
				}
			}
			if evicted != 1 {
				t.Fatalf("OnEvict called %d times, want 1", evicted)
			}
			wantStats(t, m, Stats{Entries: 3, Evictions: 1})
		})
	}
}

func TestMemoryUnknownEviction(t *testing.T) {
	t.Parallel()
	defer func() {
		if r := recover(); r != `cache: unknown eviction policy "random"` {
			t.Fatalf("panic = %v", r)
		}
	}()
	NewMemory(MemoryOptions{Eviction: "random"})
}

func TestMemoryFlushAndDelete(t *testing.T) {
	t.Parallel()
	v := []float32{1, 0}
	m, _ := newTestMemory(MemoryOptions{})
	mustPut(t, m, &Entry{Key: "a", Vector: v})
	mustPut(t, m, &Entry{Key: "b", Vector: v})
	// A replica's index entry: no body.
	mustPut(t, m, &Entry{Key: "c", Partition: "p", Vector: v})
	if h := nearest(t, m, "p", "", v, 0.9, ""); h == nil || h.Entry.Key != "c" || h.Entry.Body != nil {
		t.Fatalf("Nearest = %+v, want the bodiless entry c", h)
	}
	if err := m.Delete(context.Background(), "", "a"); err != nil {
		t.Fatal(err)
	}
	if e := get(t, m, "", "a"); e != nil {
		t.Fatalf("Get after Delete = %+v", e)
	}
	if h := nearest(t, m, "", "", v, 0.9, ""); h == nil || h.Entry.Key != "b" {
		t.Fatalf("Nearest after Delete = %+v, want b", h)
	}
	wantStats(t, m, Stats{Entries: 2})
	if err := m.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	wantStats(t, m, Stats{})
	if e := get(t, m, "", "b"); e != nil {
		t.Fatalf("Get after Flush = %+v", e)
	}
	if h := nearest(t, m, "p", "", v, 0, ""); h != nil {
		t.Fatalf("Nearest after Flush = %+v", h)
	}
	mustPut(t, m, &Entry{Key: "a", Vector: v})
	wantStats(t, m, Stats{Entries: 1})
}

// TestMemoryConcurrent is for the race detector: writers and readers on
// overlapping keys with evictions and expiry going on.
func TestMemoryConcurrent(t *testing.T) {
	t.Parallel()
	m, c := newTestMemory(MemoryOptions{MaxEntries: 50, TTL: 10 * time.Second})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 300 {
				k := fmt.Sprint((g*7 + i) % 80)
				v := []float32{float32(i%5) + 1, float32(g) + 1}
				if err := m.Put(context.Background(), &Entry{Key: k, Partition: fmt.Sprint(g % 2), Vector: v}); err != nil {
					t.Error(err)
					return
				}
				if _, err := m.Get(context.Background(), fmt.Sprint(g%2), k); err != nil {
					t.Error(err)
					return
				}
				if _, err := m.Nearest(context.Background(), fmt.Sprint(g%2), "", v, 0.9, ""); err != nil {
					t.Error(err)
					return
				}
				if i%100 == 0 {
					c.Advance(time.Second)
					m.Stats()
				}
			}
		})
	}
	wg.Wait()
	if s := m.Stats(); s.Entries > 50 || s.Evictions == 0 {
		t.Fatalf("Stats() = %+v, want at most 50 entries and some evictions", s)
	}
}

// Expired entries closer to the query than a live one do not hide it, even
// when there are more of them than Nearest checks at once.
func TestMemoryNearestPastExpired(t *testing.T) {
	t.Parallel()
	m, c := newTestMemory(MemoryOptions{})
	for i := range 5*nearestCandidates + 3 {
		a := float64(i) * 0.01
		v := []float32{float32(math.Cos(a)), float32(math.Sin(a))}
		mustPut(t, m, &Entry{Key: fmt.Sprint(i), Vector: v, TTL: time.Minute})
	}
	mustPut(t, m, &Entry{Key: "live", Vector: []float32{0.6, 0.8}, TTL: time.Hour})
	c.Advance(time.Minute)
	h := nearest(t, m, "", "", []float32{1, 0}, 0.5, "")
	if h == nil || h.Entry.Key != "live" || h.Similarity != 0.6000000238418579 {
		t.Fatalf("Nearest = %+v, want live at 0.6", h)
	}
	wantStats(t, m, Stats{Entries: 1, Expired: 5*nearestCandidates + 3})
}

// TestMemoryByteBudget: entries are evicted, by the policy, to keep their bytes within
// MaxBytes, and an entry larger than the whole budget is not kept.
func TestMemoryByteBudget(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	entry := func(key string, body int) *Entry {
		return &Entry{Key: key, Body: make([]byte, body)}
	}
	size := entry("a", 1000).Size()
	m := NewMemory(MemoryOptions{MaxBytes: 3 * size})
	for _, k := range []string{"a", "b", "c"} {
		if err := m.Put(ctx, entry(k, 1000)); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := m.Get(ctx, "", "a"); got == nil { // a is now the most recently used
		t.Fatal("a was not kept")
	}
	if err := m.Put(ctx, entry("d", 1000)); err != nil {
		t.Fatal(err)
	}
	if s := m.Stats(); s.Entries != 3 || s.Bytes != 3*size || s.Evictions != 1 {
		t.Errorf("stats %+v, want 3 entries, %d bytes, 1 eviction", s, 3*size)
	}
	if got, _ := m.Get(ctx, "", "b"); got != nil {
		t.Error("b, the least recently used, was kept past the budget")
	}
	if err := m.Put(ctx, entry("huge", int(3*size))); err != nil {
		t.Fatal(err)
	}
	if got, _ := m.Get(ctx, "", "huge"); got != nil {
		t.Error("an entry larger than the budget was kept")
	}
	if s := m.Stats(); s.Entries != 3 || s.Evictions != 1 {
		t.Errorf("an entry too large to keep evicted others: %+v", s)
	}
	if err := m.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if s := m.Stats(); s.Bytes != 0 {
		t.Errorf("after a flush: %d bytes", s.Bytes)
	}
}
