package signal

import (
	"hash/maphash"
	"sync"
)

// Long texts that repeat from request to request (an agent's tool definitions, its system
// prompt, the earlier turns of its conversation) are read once: what a detector or the
// embedder made of each is kept. Shorter texts, the questions, are read each time; they
// cost little and rarely repeat.
const (
	memoTextMin = 1 << 10 // bytes; shorter texts are not kept
	memoTexts   = 256     // texts kept; past it, any one is dropped for the new one
)

// memoSeeds are the process's own: nobody who does not know them can choose two texts that
// share a key.
var memoSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// textMemo keeps a value for each of up to limit long texts (memoTexts when limit is 0), by
// a 128-bit hash of the text and its length: it holds none of the texts, so what it keeps
// does not grow with their size. The zero value is ready to use, and safe for concurrent use.
type textMemo[V any] struct {
	mu    sync.Mutex
	kept  map[memoKey]V
	limit int
}

// memoKey names a text, and how it was read where that changes the value (see scoring); at
// is a place in the text the value depends on (a PII seam's cut), 0 for none.
type memoKey struct {
	h1, h2 uint64
	n, at  int
	how    uint8
}

func memoKeyOf(text string, how uint8) memoKey {
	return memoKey{h1: maphash.String(memoSeeds[0], text), h2: maphash.String(memoSeeds[1], text), n: len(text), how: how}
}

func (m *textMemo[V]) get(k memoKey) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.kept[k]
	return v, ok
}

func (m *textMemo[V]) put(k memoKey, v V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	limit := m.limit
	if limit == 0 {
		limit = memoTexts
	}
	if m.kept == nil {
		m.kept = make(map[memoKey]V, min(limit, memoTexts))
	}
	if _, ok := m.kept[k]; !ok && len(m.kept) >= limit {
		for old := range m.kept {
			delete(m.kept, old)
			break
		}
	}
	m.kept[k] = v
}

func (m *textMemo[V]) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.kept)
}
