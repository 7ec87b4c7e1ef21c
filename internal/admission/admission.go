// Package admission decides whether a request may start. Policy is built from the
// configuration's admission and management sections and answers the router: who the client
// is, whether its key may use the model, whether the key's and the model's rate limits have
// room, and whether an in-flight slot is free. It is made of the parts below: client keys
// compared by hash (Keys), per-minute rate limits (Bucket), and a bounded in-flight gate
// with a bounded queue (Gate).
//
// It knows no HTTP: a refusal is a *Refusal with a Reason, which each front door turns into
// its own status in one place.
package admission

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"math"
	"sync"
	"time"
)

// Keys maps client keys to their names. Only SHA-256 hashes of the keys are kept, and a
// lookup compares the presented key's hash with every key's in constant time, so neither
// memory nor timing tells a key. When two names hold the same key (NewPolicy refuses that,
// but a rotated file may bring it about), the one set first wins, every time. It is safe for
// concurrent use.
type Keys struct {
	mu     sync.RWMutex
	names  []string            // in the order they were first set
	hashes map[string][32]byte // by name
}

// NewKeys returns an empty key set.
func NewKeys() *Keys { return &Keys{hashes: map[string][32]byte{}} }

// Set stores (or replaces, after a rotation) the key of name.
func (k *Keys) Set(name, key string) {
	h := sha256.Sum256([]byte(key))
	k.mu.Lock()
	if _, ok := k.hashes[name]; !ok {
		k.names = append(k.names, name)
	}
	k.hashes[name] = h
	k.mu.Unlock()
}

// Lookup returns the name of key, or false. An empty key matches nothing.
func (k *Keys) Lookup(key string) (string, bool) {
	if key == "" {
		return "", false
	}
	h := sha256.Sum256([]byte(key))
	k.mu.RLock()
	defer k.mu.RUnlock()
	found := ""
	for _, name := range k.names { // no early return: every key costs the same
		want := k.hashes[name]
		if subtle.ConstantTimeCompare(h[:], want[:]) == 1 && found == "" {
			found = name
		}
	}
	return found, found != ""
}

// Same returns the name set earlier that holds the same key as name, or "".
func (k *Keys) Same(name string) string {
	k.mu.RLock()
	defer k.mu.RUnlock()
	h, ok := k.hashes[name]
	if !ok {
		return ""
	}
	for _, other := range k.names {
		if other == name {
			return ""
		}
		if k.hashes[other] == h {
			return other
		}
	}
	return ""
}

// Bucket is a per-minute budget refilled continuously (a token bucket holding one minute's
// worth). It may go negative: tokens are known only after an answer, so the request that
// overdraws it is served and the next ones wait. It is safe for concurrent use.
type Bucket struct {
	mu       sync.Mutex
	perMin   float64
	level    float64
	last     time.Time
	now      func() time.Time
	hasLimit bool
}

// NewBucket returns a full bucket of perMinute units; 0 or less is no limit. now is the
// clock (nil: time.Now).
func NewBucket(perMinute int, now func() time.Time) *Bucket {
	if now == nil {
		now = time.Now
	}
	return &Bucket{perMin: float64(perMinute), level: float64(perMinute), last: now(), now: now, hasLimit: perMinute > 0}
}

func (b *Bucket) refill() {
	t := b.now()
	b.level = math.Min(b.perMin, b.level+t.Sub(b.last).Minutes()*b.perMin)
	b.last = t
}

// wait is how long until the level reaches need.
func (b *Bucket) wait(need float64) time.Duration {
	return time.Duration((need - b.level) / b.perMin * float64(time.Minute))
}

// Take takes n units if the bucket holds them; else it takes nothing and says how long
// until it would.
func (b *Bucket) Take(n float64) (bool, time.Duration) {
	if b == nil || !b.hasLimit {
		return true, 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	if b.level >= n {
		b.level -= n
		return true, 0
	}
	return false, b.wait(n)
}

// Return gives back n units taken by a request that was refused later on, up to the full
// bucket.
func (b *Bucket) Return(n float64) {
	if b == nil || !b.hasLimit {
		return
	}
	b.mu.Lock()
	b.refill()
	b.level = math.Min(b.perMin, b.level+n)
	b.mu.Unlock()
}

// Positive reports whether the bucket is above zero, else how long until it is.
func (b *Bucket) Positive() (bool, time.Duration) {
	if b == nil || !b.hasLimit {
		return true, 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	if b.level > 0 {
		return true, 0
	}
	return false, b.wait(0) + time.Millisecond
}

// Spend takes n units, going negative if need be.
func (b *Bucket) Spend(n float64) {
	if b == nil || !b.hasLimit || n <= 0 {
		return
	}
	b.mu.Lock()
	b.refill()
	b.level -= n
	b.mu.Unlock()
}

// Gate errors.
var (
	// ErrQueueFull: every slot is taken and so is every place in the queue.
	ErrQueueFull = errors.New("every in-flight slot and queue place is taken")
	// ErrQueueTimeout: no slot freed up within the queue timeout.
	ErrQueueTimeout = errors.New("no in-flight slot freed up in time")
)

// Gate bounds the requests in flight; requests over the bound wait in a bounded queue for a
// bounded time. A nil *Gate admits everything.
type Gate struct {
	slots   chan struct{}
	queue   chan struct{}
	timeout time.Duration
}

// NewGate returns a gate of max slots (nil when max is 0), a queue of maxQueue places and a
// queue timeout.
func NewGate(maxInFlight, maxQueue int, timeout time.Duration) *Gate {
	if maxInFlight <= 0 {
		return nil
	}
	return &Gate{slots: make(chan struct{}, maxInFlight), queue: make(chan struct{}, maxQueue), timeout: timeout}
}

// Enter takes a slot, waiting in the queue if need be, and returns its release function
// (call it once) and how long it waited.
func (g *Gate) Enter(ctx context.Context) (func(), time.Duration, error) {
	if g == nil {
		return func() {}, 0, nil
	}
	select {
	case g.slots <- struct{}{}:
		return g.release, 0, nil
	default:
	}
	if g.timeout <= 0 {
		return nil, 0, ErrQueueFull
	}
	select {
	case g.queue <- struct{}{}:
	default:
		return nil, 0, ErrQueueFull
	}
	defer func() { <-g.queue }()
	start := time.Now()
	t := time.NewTimer(g.timeout)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return g.release, time.Since(start), nil
	case <-t.C:
		return nil, time.Since(start), ErrQueueTimeout
	case <-ctx.Done():
		return nil, time.Since(start), ctx.Err()
	}
}

func (g *Gate) release() { <-g.slots }
