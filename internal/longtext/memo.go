package longtext

import (
	"hash/maphash"
	"sync"
)

// Texts that repeat from request to request (an agent's tool definitions, its system
// prompt, the blocks of its conversation's earlier turns) are read once: what was made of
// each is kept. Shorter texts, the questions, cost less to read again than to keep.
const (
	// MinKept is the shortest text worth keeping a value for.
	MinKept = 1 << 10
	// DefaultLimit is how many values a Memo keeps when its Limit is 0.
	DefaultLimit = 256
)

// seeds are the process's own: nobody who does not know them can choose two texts that
// share a key.
var seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// Key names a text by a 128-bit hash of it and its length, and how it was read where that
// changes the value: a reading's kind (how) and a place in the text the value depends on
// (At, 0 unless the caller sets it).
type Key struct {
	h1, h2 uint64
	n      int
	how    uint8
	At     int
}

// KeyOf returns the key of text read as how (0 for a value that depends on the text alone).
func KeyOf(text string, how uint8) Key {
	return Key{h1: maphash.String(seeds[0], text), h2: maphash.String(seeds[1], text), n: len(text), how: how}
}

// Memo keeps a value for each of up to Limit keys (DefaultLimit when 0); past that, any one
// is dropped for the new one. It holds none of the texts, so what it keeps does not grow
// with their size. The zero value is ready to use, and safe for concurrent use.
type Memo[V any] struct {
	Limit int

	mu   sync.Mutex
	kept map[Key]V
}

// Get returns the value kept for k.
func (m *Memo[V]) Get(k Key) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.kept[k]
	return v, ok
}

// Put keeps v for k.
func (m *Memo[V]) Put(k Key, v V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	limit := m.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	if m.kept == nil {
		m.kept = make(map[Key]V, min(limit, DefaultLimit))
	}
	if _, ok := m.kept[k]; !ok && len(m.kept) >= limit {
		for old := range m.kept {
			delete(m.kept, old)
			break
		}
	}
	m.kept[k] = v
}

// Len returns how many values are kept.
func (m *Memo[V]) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.kept)
}
