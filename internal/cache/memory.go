package cache

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/semantic-router/semantic-router/internal/cache/internal/hnsw"
)

// MemoryOptions configure a Memory store. The zero value is usable.
type MemoryOptions struct {
	// MaxEntries bounds the number of entries; 0 means 10000.
	MaxEntries int
	// MaxBytes bounds the bytes the entries hold (answers, prompts, keys and vectors, see
	// Entry.Size); 0 means 256 MiB. An entry larger than it is not kept.
	MaxBytes int64
	// Eviction picks the victim when the store is full: "lru" (least recently
	// used, the default when empty), "lfu" (fewest hits, the least recently used
	// among equals) or "fifo" (oldest Put). Any other value makes NewMemory
	// panic; the config's validation rejects it first.
	Eviction string
	// TTL is the lifetime of entries that carry none; 0 means one hour.
	TTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// OnEvict, if set, is called once per eviction, after the store's lock is
	// released (so it may call the store).
	OnEvict func()
}

// Eviction policies of MemoryOptions.Eviction.
const (
	EvictLRU  = "lru"
	EvictLFU  = "lfu"
	EvictFIFO = "fifo"
)

const (
	defaultMaxEntries = 10000
	defaultMaxBytes   = 256 << 20
	defaultTTL        = time.Hour
	// nearestCandidates is how many of the closest entries Nearest checks
	// against the threshold and the negation guard before giving up.
	nearestCandidates = 8
	// searchEf is the HNSW beam width of a lookup: recall@1 above 0.99 at
	// 100k entries (docs/benchmarks.md) for well under a millisecond.
	searchEf = 64
)

// ErrNoKey is returned by Put for an entry without a key.
var ErrNoKey = errors.New("cache: entry has no key")

// Memory is an in-process Store: a map by partition and key for exact
// lookups, and an HNSW index per partition and scope for semantic ones, so a
// tenant's lookup can never reach another tenant's entries. It is safe for
// concurrent use; one mutex guards everything, as a lookup takes
// microseconds.
//
// A Memory also serves as a Redis replica's local vector index: Put accepts
// entries whose Body is empty, Nearest returns them as they were put, and
// Delete removes one entry when its key has gone from Redis.
type Memory struct {
	maxEntries int
	maxBytes   int64
	eviction   string
	ttl        time.Duration
	now        func() time.Time
	onEvict    func()

	mu        sync.Mutex
	items     map[itemKey]*item
	byID      map[uint64]*item
	indexes   map[scopeKey]*hnsw.Index
	victims   victimHeap
	expiries  expiryHeap
	tick      uint64 // logical clock for recency and insertion order
	nextID    uint64
	evictions uint64
	expired   uint64
	bytes     int64 // the entries' Size, summed
}

type itemKey struct{ partition, key string }

type scopeKey struct{ partition, scope string }

type item struct {
	e         Entry
	id        uint64 // the entry's id in its scope's index; 0 when it has no vector
	expires   time.Time
	seq       uint64 // insertion order (fifo)
	used      uint64 // last use (lru, and lfu's tie-break)
	hits      uint64 // uses (lfu)
	victimIdx int
	expiryIdx int
}

// NewMemory returns an empty Memory.
func NewMemory(o MemoryOptions) *Memory {
	m := &Memory{maxEntries: o.MaxEntries, maxBytes: o.MaxBytes, eviction: o.Eviction, ttl: o.TTL, now: o.Now, onEvict: o.OnEvict}
	if m.maxEntries <= 0 {
		m.maxEntries = defaultMaxEntries
	}
	if m.maxBytes <= 0 {
		m.maxBytes = defaultMaxBytes
	}
	if m.eviction == "" {
		m.eviction = EvictLRU
	}
	switch m.eviction {
	case EvictLRU, EvictLFU, EvictFIFO:
	default:
		panic(fmt.Sprintf("cache: unknown eviction policy %q", o.Eviction))
	}
	if m.ttl <= 0 {
		m.ttl = defaultTTL
	}
	if m.now == nil {
		m.now = time.Now
	}
	m.victims.less = m.victimLess
	m.reset()
	return m
}

func (m *Memory) reset() {
	m.items = map[itemKey]*item{}
	m.byID = map[uint64]*item{}
	m.indexes = map[scopeKey]*hnsw.Index{}
	m.victims.items = nil
	m.expiries = nil
	m.bytes = 0
}

// Get implements Store.
func (m *Memory) Get(_ context.Context, partition, key string) (*Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.items[itemKey{partition, key}]
	if !ok {
		return nil, nil
	}
	if !m.now().Before(it.expires) {
		m.remove(it)
		m.expired++
		return nil, nil
	}
	m.touch(it)
	e := it.e
	return &e, nil
}

// Nearest implements Store. It checks the few entries closest to v, best
// first, and returns the first at least threshold similar whose prompt
// passes Guard. A v of another length than the scope's vectors is an
// error; an empty or zero v finds nothing.
func (m *Memory) Nearest(_ context.Context, partition, scope string, v []float32, threshold float64, prompt string) (*Hit, error) {
	v = unit(v)
	if v == nil {
		return nil, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	idx, ok := m.indexes[scopeKey{partition, scope}]
	if !ok {
		return nil, nil
	}
	if len(v) != idx.Dim() {
		return nil, fmt.Errorf("cache: query vector has %d dimensions, the scope's entries %d", len(v), idx.Dim())
	}
	now := m.now()
	// Expired candidates leave the index as they are met; search again then,
	// so they never hide live entries behind them. Each round removes at
	// least one entry for good, so the rounds are paid for by earlier Puts.
	for {
		removed := false
		for _, r := range idx.Search(v, nearestCandidates, searchEf) {
			it := m.byID[r.ID]
			if !now.Before(it.expires) {
				m.remove(it)
				m.expired++
				removed = true
				continue
			}
			sim := min(float64(r.Similarity), 1)
			if sim < threshold {
				return nil, nil // and so is every entry after it
			}
			if Guard(prompt, it.e.Prompt) {
				m.touch(it)
				e := it.e
				return &Hit{Entry: &e, Similarity: sim}, nil
			}
		}
		if !removed || m.indexes[scopeKey{partition, scope}] == nil {
			break
		}
	}
	return nil, nil
}

// Put implements Store. The store keeps a copy of e (sharing its slices).
// A zero Created is the current time, a zero TTL the store's default; an
// entry already expired replaces an older one with its key but is not kept.
// A Vector is normalised if it is not of unit length; a zero Vector is
// treated as none. Within a partition and scope every vector must have the
// same length.
func (m *Memory) Put(_ context.Context, e *Entry) error {
	if e == nil || e.Key == "" {
		return ErrNoKey
	}
	c := *e
	c.Vector = unit(c.Vector)
	evicted := 0
	err := func() error {
		m.mu.Lock()
		defer m.mu.Unlock()
		now := m.now()
		if c.Created.IsZero() {
			c.Created = now
		}
		if c.TTL <= 0 {
			c.TTL = m.ttl
		}
		sk := scopeKey{c.Partition, c.Scope}
		if idx := m.indexes[sk]; c.Vector != nil && idx != nil && idx.Dim() != len(c.Vector) {
			return fmt.Errorf("cache: vector has %d dimensions, the scope's entries %d", len(c.Vector), idx.Dim())
		}
		m.purgeExpired(now)
		if old, ok := m.items[itemKey{c.Partition, c.Key}]; ok {
			m.remove(old)
		}
		expires := c.Created.Add(c.TTL)
		size := c.Size()
		if !now.Before(expires) || size > m.maxBytes {
			return nil
		}
		for len(m.items) > 0 && (len(m.items) >= m.maxEntries || m.bytes+size > m.maxBytes) {
			m.remove(m.victims.items[0])
			m.evictions++
			evicted++
		}
		m.tick++
		it := &item{e: c, expires: expires, seq: m.tick, used: m.tick}
		m.items[itemKey{c.Partition, c.Key}] = it
		m.bytes += size
		heap.Push(&m.victims, it)
		heap.Push(&m.expiries, it)
		if c.Vector != nil {
			m.nextID++
			it.id = m.nextID
			m.byID[it.id] = it
			idx := m.indexes[sk]
			if idx == nil {
				idx = hnsw.New(len(c.Vector), hnsw.Options{})
				m.indexes[sk] = idx
			}
			idx.Add(it.id, c.Vector)
		}
		return nil
	}()
	if m.onEvict != nil {
		for range evicted {
			m.onEvict()
		}
	}
	return err
}

// Delete removes the entry with key in partition, if any. A Redis store calls
// it when an entry its index found has gone from Redis.
func (m *Memory) Delete(_ context.Context, partition, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if it, ok := m.items[itemKey{partition, key}]; ok {
		m.remove(it)
	}
	return nil
}

// Flush implements Store.
func (m *Memory) Flush(context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reset()
	return nil
}

// Stats implements Store. Evictions and Expired count since NewMemory,
// across flushes.
func (m *Memory) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return Stats{Entries: len(m.items), Bytes: m.bytes, Evictions: m.evictions, Expired: m.expired}
}

// Close implements Store; a Memory holds nothing to release.
func (m *Memory) Close() error { return nil }

// remove takes it out of every structure; an index left empty is dropped.
func (m *Memory) remove(it *item) {
	delete(m.items, itemKey{it.e.Partition, it.e.Key})
	m.bytes -= it.e.Size()
	heap.Remove(&m.victims, it.victimIdx)
	heap.Remove(&m.expiries, it.expiryIdx)
	if it.id == 0 {
		return
	}
	delete(m.byID, it.id)
	sk := scopeKey{it.e.Partition, it.e.Scope}
	idx := m.indexes[sk]
	idx.Delete(it.id)
	if idx.Len() == 0 {
		delete(m.indexes, sk)
	}
}

func (m *Memory) purgeExpired(now time.Time) {
	for len(m.expiries) > 0 && !now.Before(m.expiries[0].expires) {
		m.remove(m.expiries[0])
		m.expired++
	}
}

func (m *Memory) touch(it *item) {
	m.tick++
	it.used = m.tick
	it.hits++
	if m.eviction != EvictFIFO {
		heap.Fix(&m.victims, it.victimIdx)
	}
}

// victimLess orders entries by how soon the policy evicts them.
func (m *Memory) victimLess(a, b *item) bool {
	switch m.eviction {
	case EvictFIFO:
		return a.seq < b.seq
	case EvictLFU:
		if a.hits != b.hits {
			return a.hits < b.hits
		}
	}
	return a.used < b.used
}

// unit returns v scaled to unit length (a copy when it was not), or nil for
// an empty or zero vector or one with a NaN or infinite component.
func unit(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return nil
	}
	if math.Abs(s-1) < 1e-4 {
		return v
	}
	n := float32(1 / math.Sqrt(s))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * n
	}
	return out
}

// victimHeap is a heap of entries by the eviction policy.
type victimHeap struct {
	items []*item
	less  func(a, b *item) bool
}

func (h *victimHeap) Len() int           { return len(h.items) }
func (h *victimHeap) Less(i, j int) bool { return h.less(h.items[i], h.items[j]) }
func (h *victimHeap) Swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.items[i].victimIdx, h.items[j].victimIdx = i, j
}
func (h *victimHeap) Push(x any) {
	it := x.(*item)
	it.victimIdx = len(h.items)
	h.items = append(h.items, it)
}
func (h *victimHeap) Pop() any {
	it := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return it
}

// expiryHeap is a heap of entries by expiry time.
type expiryHeap []*item

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].expires.Before(h[j].expires) }
func (h expiryHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].expiryIdx, h[j].expiryIdx = i, j
}
func (h *expiryHeap) Push(x any) { it := x.(*item); it.expiryIdx = len(*h); *h = append(*h, it) }
func (h *expiryHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

var _ Store = (*Memory)(nil)
