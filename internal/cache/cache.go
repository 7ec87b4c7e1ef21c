// Package cache holds cached answers for the router's cache stage: an exact
// lookup by a hash of the normalised request, and a semantic lookup that finds
// the most similar earlier prompt of the same tenant (partition) and the same
// context (scope). Two backends implement Store: Memory, an in-process map
// with an HNSW index per partition and scope, and Redis, which keeps entries
// in Redis and uses a Memory per replica as its vector index.
//
// A semantic hit is only served when Guard agrees that the cached prompt asks
// the same thing with the same polarity and the same numbers: "turn off the
// lights" is very close to "turn on the lights" in embedding space, and "Is 91
// prime?" to "Is 97 prime?", but neither may get the other's answer.
package cache

import (
	"context"
	"time"
)

// Entry is one cached answer. A Store keeps its own copy of an Entry on Put
// and returns copies; the slices (Vector, Body) are shared and must not be
// modified by callers.
type Entry struct {
	// Key is the exact key: a hash of the normalised request (computed by the router).
	Key string
	// Partition is the tenant: the client key's name; "" is the shared partition.
	Partition string
	// Scope restricts semantic matches to entries of the same scope (a hash of
	// model, decision, system prompt, earlier turns and sampling parameters).
	Scope string
	// Prompt is the last user turn, for Guard.
	Prompt string
	// Vector is the embedding of Prompt (unit length); nil means exact lookups only.
	Vector []float32
	// Body is the whole answer, OpenAI chat.completion JSON.
	Body []byte
	// Model is the router's name of the model that answered.
	Model string
	// Created is when the answer was made; zero means the time of Put.
	Created time.Time
	// TTL is how long the entry lives after Created; 0 means the store's default.
	TTL time.Duration
}

// entryOverhead is what an entry costs beyond its strings and vector: the store's
// structures, the index's node and its links (about 32 neighbours of 8 bytes).
const entryOverhead = 512

// Size is what an entry holds in memory, for a store's byte budget: its answer, prompt,
// keys, model name and vector, and a fixed overhead.
func (e *Entry) Size() int64 {
	return int64(len(e.Key)+len(e.Partition)+len(e.Scope)+len(e.Prompt)+len(e.Body)+len(e.Model)+4*len(e.Vector)) + entryOverhead
}

// Hit is a lookup's result.
type Hit struct {
	Entry *Entry
	// Similarity is the cosine similarity of the two prompts' vectors; 1 for an exact hit.
	Similarity float64
	// Exact is true when the hit came from the exact key rather than the vector index.
	Exact bool
}

// Store is a cache backend. Implementations are safe for concurrent use.
type Store interface {
	// Get returns the live entry with key in partition, or nil.
	Get(ctx context.Context, partition, key string) (*Entry, error)
	// Nearest returns the live entry of partition and scope whose vector is most similar
	// (cosine) to v, at least threshold, and whose Prompt passes Guard(prompt, e.Prompt);
	// nil when none.
	Nearest(ctx context.Context, partition, scope string, v []float32, threshold float64, prompt string) (*Hit, error)
	// Put stores e (replacing an entry with the same partition and key).
	Put(ctx context.Context, e *Entry) error
	// Flush removes every entry.
	Flush(ctx context.Context) error
	// Stats reports counts for the admin API and metrics.
	Stats() Stats
	// Close releases the store's resources.
	Close() error
}

// Stats are a store's counts for the admin API and metrics.
type Stats struct {
	// Entries is the number of entries held, expired ones not yet purged included.
	Entries int `json:"entries"`
	// Bytes is what they hold in memory, by Entry.Size; with Redis, the local index's.
	Bytes int64 `json:"bytes"`
	// Evictions counts entries removed to stay within the limits (entries and bytes).
	Evictions uint64 `json:"evictions"`
	// Expired counts entries removed because their TTL had passed.
	Expired uint64 `json:"expired"`
}
