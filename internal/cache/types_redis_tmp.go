package cache

// This file holds the shared types of the agreed cache API so that the Redis backend compiles
// on its own; cache.go replaces it.

import (
	"context"
	"time"
)

// Entry is one cached answer.
type Entry struct {
	Key       string        // exact key: a hash of the normalised request (computed by the router)
	Partition string        // tenant: the client key's name; "" = the shared partition
	Scope     string        // semantic matches only among entries of the same scope
	Prompt    string        // the last user turn, for the negation guard
	Vector    []float32     // embedding of Prompt (unit length); nil: exact lookups only
	Body      []byte        // the whole answer, OpenAI chat.completion JSON
	Model     string        // the router's model name that answered
	Created   time.Time     // when the answer was stored
	TTL       time.Duration // 0: the store's default
}

// Hit is a lookup's result.
type Hit struct {
	Entry      *Entry
	Similarity float64 // 1 for an exact hit
	Exact      bool
}

// Store is a cache backend. Safe for concurrent use.
type Store interface {
	// Get returns the live entry with key in partition, or nil.
	Get(ctx context.Context, partition, key string) (*Entry, error)
	// Nearest returns the live entry of partition and scope whose vector is most similar
	// (cosine) to v, at least threshold, and whose Prompt passes the negation guard; nil when none.
	Nearest(ctx context.Context, partition, scope string, v []float32, threshold float64, prompt string) (*Hit, error)
	// Put stores e (replacing an entry with the same partition and key).
	Put(ctx context.Context, e *Entry) error
	// Flush removes every entry.
	Flush(ctx context.Context) error
	// Stats reports counts for the admin API and metrics.
	Stats() Stats
	Close() error
}

// Stats reports a store's counts.
type Stats struct {
	Entries   int    `json:"entries"`
	Evictions uint64 `json:"evictions"`
	Expired   uint64 `json:"expired"`
}
