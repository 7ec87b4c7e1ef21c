package cache

import (
	"context"
	"errors"
	"io"
	"math"
	"net"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/redistest"
)

// bruteIndex is a local index that searches every entry. It ignores TTLs on purpose: expiry
// must come from Redis, so a test passes only if the Redis store confirms its matches there.
type bruteIndex struct {
	mu      sync.Mutex
	entries map[[2]string]*Entry
}

func newBruteIndex() *bruteIndex { return &bruteIndex{entries: map[[2]string]*Entry{}} }

func (b *bruteIndex) Put(_ context.Context, e *Entry) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.entries[[2]string{e.Partition, e.Key}] = e
	return nil
}

func (b *bruteIndex) Nearest(_ context.Context, partition, scope string, v []float32, threshold float64, _ string) (*Hit, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var best *Hit
	for _, e := range b.entries {
		if e.Partition != partition || e.Scope != scope || len(e.Vector) != len(v) {
			continue
		}
		var dot, ne, nv float64
		for i := range v {
			dot += float64(v[i]) * float64(e.Vector[i])
			ne += float64(e.Vector[i]) * float64(e.Vector[i])
			nv += float64(v[i]) * float64(v[i])
		}
		sim := dot / math.Sqrt(ne*nv)
		if sim >= threshold && (best == nil || sim > best.Similarity) {
			best = &Hit{Entry: e, Similarity: sim}
		}
	}
	return best, nil
}

func (b *bruteIndex) Flush(context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	clear(b.entries)
	return nil
}

func (b *bruteIndex) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return Stats{Entries: len(b.entries)}
}

// replica is one router replica's view of the shared cache.
type replica struct {
	*Redis
	local  *bruteIndex
	errors atomic.Int64

	mu      sync.Mutex
	lastErr error
}

func (r *replica) lastError() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastErr
}

func newReplica(t *testing.T, addr, prefix string) *replica {
	t.Helper()
	r := &replica{local: newBruteIndex()}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	store, err := NewRedis(ctx, RedisOptions{
		Address:   addr,
		KeyPrefix: prefix,
		Local:     r.local,
		OnError: func(err error) {
			r.errors.Add(1)
			r.mu.Lock()
			r.lastErr = err
			r.mu.Unlock()
		},
	})
	if err != nil {
		t.Fatalf("NewRedis: %v", err)
	}
	t.Cleanup(func() {
		if err := store.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	r.Redis = store
	return r
}

func (r *replica) get(t *testing.T, partition, key string) *Entry {
	t.Helper()
	e, err := r.Get(context.Background(), partition, key)
	if err != nil {
		t.Fatalf("Get(%q, %q): %v", partition, key, err)
	}
	return e
}

func (r *replica) nearest(t *testing.T, partition, scope string, v []float32) *Hit {
	t.Helper()
	hit, err := r.Nearest(context.Background(), partition, scope, v, 0.9, "prompt")
	if err != nil {
		t.Fatalf("Nearest: %v", err)
	}
	return hit
}

func (r *replica) put(t *testing.T, e *Entry) {
	t.Helper()
	if err := r.Put(context.Background(), e); err != nil {
		t.Fatalf("Put(%q): %v", e.Key, err)
	}
}

func answer(key string, v ...float32) *Entry {
	return &Entry{
		Key: key, Partition: "team-a", Scope: "scope-1", Prompt: "what is " + key,
		Vector: v, Body: []byte(`{"object":"chat.completion","id":"` + key + `"}`),
		Model: "gpt-test", Created: time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC),
	}
}

func requireSame(t *testing.T, got, want *Entry) {
	t.Helper()
	if got == nil {
		t.Fatalf("got no entry, want %q", want.Key)
	}
	g, w := *got, *want
	g.TTL, w.TTL = 0, 0
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("entry:\n got %+v\nwant %+v", g, w)
	}
}

func TestRedisReplicasShareAnswers(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	a := newReplica(t, srv.Addr(), "")
	b := newReplica(t, srv.Addr(), "")

	e := answer("k1", 1, 0, 0)
	a.put(t, e)
	requireSame(t, b.get(t, "team-a", "k1"), e)
	if got := b.get(t, "team-b", "k1"); got != nil {
		t.Fatalf("another partition's Get = %+v, want nil", got)
	}
	redistest.WaitFor(t, "replica b to find the answer by similarity", func() bool {
		return b.nearest(t, "team-a", "scope-1", []float32{0.99, 0.1, 0}) != nil
	})
	hit := b.nearest(t, "team-a", "scope-1", []float32{0.99, 0.1, 0})
	requireSame(t, hit.Entry, e)
	if hit.Exact || hit.Similarity < 0.9 || hit.Similarity > 1 {
		t.Fatalf("hit = %+v, want a semantic hit with similarity in [0.9, 1]", hit)
	}
	if hit := b.nearest(t, "team-a", "scope-2", []float32{1, 0, 0}); hit != nil {
		t.Fatalf("another scope's Nearest = %+v, want nil", hit)
	}

	// A new answer for the same key replaces the old one on every replica.
	replaced := answer("k1", 0, 0, 1)
	replaced.Body = []byte(`{"object":"chat.completion","id":"k1-v2"}`)
	a.put(t, replaced)
	requireSame(t, b.get(t, "team-a", "k1"), replaced)
	redistest.WaitFor(t, "replica b to index the replacement", func() bool {
		return b.nearest(t, "team-a", "scope-1", []float32{0, 0, 1}) != nil
	})
	if n := b.local.Stats().Entries; n != 1 {
		t.Fatalf("replica b indexes %d entries after a replacement, want 1", n)
	}
	if n := a.errors.Load() + b.errors.Load(); n != 0 {
		t.Fatalf("OnError called %d times with Redis up", n)
	}
}

func TestRedisEntriesExpireInRedis(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	a := newReplica(t, srv.Addr(), "")
	b := newReplica(t, srv.Addr(), "")

	e := answer("short", 0, 1, 0)
	e.TTL = 500 * time.Millisecond
	a.put(t, e)
	long := answer("long", 0, 0, 1) // the store's default TTL, an hour
	a.put(t, long)
	redistest.WaitFor(t, "replica b to load both answers", func() bool { return b.local.Stats().Entries == 2 })
	redistest.WaitFor(t, "the short-lived answer to expire", func() bool { return b.get(t, "team-a", "short") == nil })
	// b's local index still holds the vector; the match is refused because Redis no longer has it.
	if hit := b.nearest(t, "team-a", "scope-1", []float32{0, 1, 0}); hit != nil {
		t.Fatalf("Nearest after expiry = %+v, want nil", hit)
	}
	if got := b.Stats(); got.Expired != 1 || got.Entries != 2 {
		t.Fatalf("Stats = %+v, want 1 expired of 2 local entries", got)
	}
	requireSame(t, b.get(t, "team-a", "long"), long)
	requireSame(t, b.nearest(t, "team-a", "scope-1", []float32{0, 0, 1}).Entry, long)
}

func TestRedisFlushReachesEveryReplica(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	a := newReplica(t, srv.Addr(), "")
	b := newReplica(t, srv.Addr(), "")
	other := newReplica(t, srv.Addr(), "other:*") // another router sharing the Redis

	a.put(t, answer("k1", 1, 0))
	a.put(t, answer("k2", 0, 1))
	other.put(t, answer("k1", 1, 0))
	redistest.WaitFor(t, "replica b to load both answers", func() bool { return b.local.Stats().Entries == 2 })

	if err := a.Flush(context.Background()); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	if got := b.get(t, "team-a", "k1"); got != nil {
		t.Fatalf("Get after flush = %+v, want nil", got)
	}
	redistest.WaitFor(t, "replica b to empty its local index", func() bool { return b.local.Stats().Entries == 0 })
	if a.local.Stats().Entries != 0 {
		t.Fatalf("flushing replica kept %d local entries", a.local.Stats().Entries)
	}
	if other.get(t, "team-a", "k1") == nil || other.local.Stats().Entries != 1 {
		t.Fatal("flush removed the entries of another key prefix")
	}
}

func TestRedisLateReplicaLoadsExistingEntries(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	a := newReplica(t, srv.Addr(), "")
	a.put(t, answer("k1", 1, 0, 0))
	a.put(t, answer("k2", 0, 1, 0))
	exactOnly := answer("k3")
	a.put(t, exactOnly)

	late := newReplica(t, srv.Addr(), "")
	// NewRedis returns after the first load: no wait.
	if n := late.local.Stats().Entries; n != 2 {
		t.Fatalf("late replica's local index has %d entries, want the 2 with vectors", n)
	}
	requireSame(t, late.nearest(t, "team-a", "scope-1", []float32{0, 1, 0}).Entry, answer("k2", 0, 1, 0))
	requireSame(t, late.get(t, "team-a", "k3"), exactOnly)
}

func TestRedisOutage(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	a := newReplica(t, srv.Addr(), "")
	b := newReplica(t, srv.Addr(), "")
	a.put(t, answer("before", 1, 0))
	redistest.WaitFor(t, "replica b to load the answer", func() bool { return b.local.Stats().Entries == 1 })

	srv.Kill()
	start := time.Now()
	if got := b.get(t, "team-a", "before"); got != nil {
		t.Fatalf("Get with Redis down = %+v, want a miss", got)
	}
	if hit := b.nearest(t, "team-a", "scope-1", []float32{1, 0}); hit != nil {
		t.Fatalf("Nearest with Redis down = %+v, want a miss", hit)
	}
	a.put(t, answer("dropped", 0, 1))
	t.Logf("Get, Nearest and Put with Redis down took %s together", time.Since(start))
	if a.local.Stats().Entries != 1 {
		t.Fatalf("a dropped put reached the local index: %d entries", a.local.Stats().Entries)
	}
	if a.errors.Load() == 0 || b.errors.Load() == 0 {
		t.Fatalf("OnError calls: a %d, b %d; want both > 0", a.errors.Load(), b.errors.Load())
	}

	srv.Restart() // same port, empty
	redistest.WaitFor(t, "a put to reach Redis again", func() bool {
		a.put(t, answer("after", 0, 1))
		return b.get(t, "team-a", "after") != nil
	})
	// b's subscription is back: it reloaded from the empty Redis and learns new answers.
	redistest.WaitFor(t, "replica b to find the new answer by similarity", func() bool {
		return b.nearest(t, "team-a", "scope-1", []float32{0, 1}) != nil
	})
	if hit := b.nearest(t, "team-a", "scope-1", []float32{1, 0}); hit != nil {
		t.Fatalf("an answer lost with the old Redis was served: %+v", hit)
	}
}

func TestRedisStartsWhileRedisIsDown(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	srv.Kill()
	r := newReplica(t, srv.Addr(), "")
	if got := r.get(t, "team-a", "k1"); got != nil {
		t.Fatalf("Get = %+v, want a miss", got)
	}
	if r.errors.Load() == 0 {
		t.Fatal("OnError not called with Redis down")
	}
	srv.Restart()
	other := newReplica(t, srv.Addr(), "")
	redistest.WaitFor(t, "the replica to hear announcements once Redis is up", func() bool {
		other.put(t, answer("k1", 1, 0))
		return r.local.Stats().Entries == 1
	})
}

// A Redis that accepts connections and never answers must not hold requests: every call gives
// up after the store's own timeout and reports it.
func TestRedisThatNeverAnswers(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, conn) }() // read everything, answer nothing
		}
	}()

	r := newReplica(t, l.Addr().String(), "")
	if got := r.get(t, "team-a", "k1"); got != nil {
		t.Fatalf("Get = %+v, want a miss", got)
	}
	if err := r.lastError(); err == nil || !isTimeout(err) {
		t.Fatalf("OnError got %v, want a timeout", err)
	}
	r.put(t, answer("k1", 1, 0))
	if hit := r.nearest(t, "team-a", "scope-1", []float32{1, 0}); hit != nil {
		t.Fatalf("Nearest = %+v, want a miss", hit)
	}
	if n := r.local.Stats().Entries; n != 0 {
		t.Fatalf("a dropped put reached the local index: %d entries", n)
	}
}

func isTimeout(err error) bool {
	var netErr net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout())
}

func TestNewRedisOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts RedisOptions
		want string
	}{
		{"no address", RedisOptions{Local: newBruteIndex()}, "redis cache: address is empty"},
		{"no local index", RedisOptions{Address: "127.0.0.1:1"}, "redis cache: local index is nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := NewRedis(context.Background(), tc.opts)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestRedisKeysKeepPartitionsApart(t *testing.T) {
	t.Parallel()
	r := &Redis{prefix: defaultKeyPrefix}
	if a, b := r.entryKey("a:b", "c"), r.entryKey("a", "b:c"); a == b {
		t.Fatalf("partitions share the key %q", a)
	}
}

func TestEntryEncodingRoundTrip(t *testing.T) {
	t.Parallel()
	e := answer("k", 0.25, -1, float32(math.Pi))
	data, err := encodeEntry(e)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeEntry(data)
	if err != nil {
		t.Fatal(err)
	}
	requireSame(t, got, e)
	if _, err := decodeEntry([]byte(`{"vector":"AAA="}`)); err == nil || err.Error() != "decoding entry: vector of 2 bytes" {
		t.Fatalf("err = %v", err)
	}
}

// BenchmarkRedis measures one replica's calls against a local redis-server.
func BenchmarkRedis(b *testing.B) {
	srv := redistest.Start(b)
	store, err := NewRedis(context.Background(), RedisOptions{Address: srv.Addr(), Local: newBruteIndex()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = store.Close() })
	ctx := context.Background()
	e := answer("k1", 1, 0, 0)
	if err := store.Put(ctx, e); err != nil {
		b.Fatal(err)
	}
	b.Run("Put", func(b *testing.B) {
		for b.Loop() {
			if err := store.Put(ctx, e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Get", func(b *testing.B) {
		for b.Loop() {
			if got, err := store.Get(ctx, "team-a", "k1"); got == nil || err != nil {
				b.Fatalf("Get = %v, %v", got, err)
			}
		}
	})
	b.Run("Nearest", func(b *testing.B) {
		for b.Loop() {
			if hit, err := store.Nearest(ctx, "team-a", "scope-1", []float32{1, 0, 0}, 0.9, "p"); hit == nil || err != nil {
				b.Fatalf("Nearest = %v, %v", hit, err)
			}
		}
	})
}
