package cache

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	// redisIdle is how long the subscription may stay silent before it is pinged, so that a
	// connection that died without closing is noticed.
	redisIdle = 15 * time.Second
	// redisStartWait is how long NewRedis waits for the subscription to be confirmed before it
	// returns a store that misses until Redis answers.
	redisStartWait  = time.Second
	redisRetryFirst = 100 * time.Millisecond
	redisRetryMax   = 2 * time.Second

	eventPut   = "put"
	eventFlush = "flush"
)

// event is what a replica announces on the channel. Only the key travels: the receivers read
// the entry from Redis, which is also where its TTL is.
type event struct {
	Op        string `json:"op"`
	Origin    string `json:"origin"`
	Partition string `json:"partition,omitempty"`
	Key       string `json:"key,omitempty"`
}

// run receives the announcements until ctx is done. Every (re)subscription is followed by a
// full reload of the local index, since announcements made while this replica was not
// listening are lost.
func (r *Redis) run(ctx context.Context) {
	defer close(r.done)
	defer r.markReady()
	retry := redisRetryFirst
	pinged := false // a ping is unanswered
	for {
		timeout := redisIdle
		if !r.isReady() {
			timeout = redisStartWait
		}
		msg, err := r.subscription().ReceiveTimeout(ctx, timeout)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			var netErr net.Error
			timedOut := errors.As(err, &netErr) && netErr.Timeout()
			if timedOut && !pinged && r.isReady() {
				// Silence: ask for a pong, which the next receive reads.
				pinged = true
				if err := r.subscription().Ping(ctx); err == nil {
					continue
				}
			}
			r.fail(fmt.Errorf("subscription: %w", err))
			if r.healthy.Swap(false) {
				r.log.Warn("redis cache subscription lost, retrying", slog.String("error", err.Error()))
			}
			r.markReady()
			if !waitCtx(ctx, retry) {
				return
			}
			retry = min(2*retry, redisRetryMax)
			if timedOut {
				// The client reconnects by itself after a broken connection, not after one
				// that stopped answering: start a new subscription.
				pinged = false
				r.resubscribe(ctx)
			}
			continue
		}
		retry, pinged = redisRetryFirst, false
		switch m := msg.(type) {
		case *redis.Subscription:
			if m.Kind != "subscribe" {
				continue
			}
			n, err := r.reload(ctx)
			if err != nil {
				r.fail(fmt.Errorf("loading entries: %w", err))
			}
			if !r.healthy.Swap(true) {
				r.log.Info("redis cache subscription re-established", slog.Int("entries", n))
			}
			r.markReady()
		case *redis.Message:
			r.apply(ctx, m.Payload)
		}
	}
}

// resubscribe replaces the subscription with a new one on a new connection. A failed
// subscribe is remembered by the client and retried by the next receive.
func (r *Redis) resubscribe(ctx context.Context) {
	r.pubsubMu.Lock()
	if r.closed {
		r.pubsubMu.Unlock()
		return
	}
	old := r.pubsub
	r.pubsub = r.client.Subscribe(ctx)
	if err := r.pubsub.Subscribe(ctx, r.channel); err != nil {
		r.fail(fmt.Errorf("subscribing: %w", err))
	}
	r.pubsubMu.Unlock()
	if old != nil {
		_ = old.Close() // the connection is being given up; its error adds nothing
	}
}

func (r *Redis) subscription() *redis.PubSub {
	r.pubsubMu.Lock()
	defer r.pubsubMu.Unlock()
	return r.pubsub
}

func (r *Redis) isReady() bool {
	select {
	case <-r.ready:
		return true
	default:
		return false
	}
}

func (r *Redis) markReady() { r.readyOnce.Do(func() { close(r.ready) }) }

// reload empties the local index and loads every entry with a vector from Redis, with the TTL
// it has left there.
func (r *Redis) reload(ctx context.Context) (int, error) {
	if err := r.local.Flush(ctx); err != nil {
		return 0, err
	}
	n := 0
	var cursor uint64
	for {
		pageCtx, cancel := context.WithTimeout(ctx, redisPageTimeout)
		keys, next, err := r.client.Scan(pageCtx, cursor, escapeGlob(r.prefix)+"e:*", redisScanCount).Result()
		if err == nil {
			var added int
			added, err = r.fetchLocal(pageCtx, keys)
			n += added
		}
		cancel()
		if err != nil {
			return n, err
		}
		if cursor = next; cursor == 0 {
			return n, nil
		}
	}
}

// fetchLocal reads the entries at keys with their remaining TTLs and puts those with a vector
// into the local index. Keys that vanished in between are skipped.
func (r *Redis) fetchLocal(ctx context.Context, keys []string) (int, error) {
	if len(keys) == 0 {
		return 0, nil
	}
	pipe := r.client.Pipeline()
	gets := make([]*redis.StringCmd, len(keys))
	ttls := make([]*redis.DurationCmd, len(keys))
	for i, k := range keys {
		gets[i] = pipe.Get(ctx, k)
		ttls[i] = pipe.PTTL(ctx, k)
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return 0, err
	}
	n := 0
	for i, k := range keys {
		data, err := gets[i].Bytes()
		if err != nil {
			continue // expired or deleted since the scan
		}
		e, err := decodeEntry(data)
		if err != nil {
			r.log.Warn("redis cache entry unreadable, skipped", slog.String("key", k), slog.String("error", err.Error()))
			continue
		}
		if len(e.Vector) == 0 {
			continue
		}
		if ttl := ttls[i].Val(); ttl > 0 {
			e.TTL = ttl
		}
		e.Body = nil // a hit reads the answer from Redis
		if err := r.local.Put(ctx, e); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// apply handles another replica's announcement.
func (r *Redis) apply(ctx context.Context, payload string) {
	var ev event
	if err := json.Unmarshal([]byte(payload), &ev); err != nil {
		r.log.Warn("redis cache announcement unreadable, ignored", slog.String("error", err.Error()))
		return
	}
	if ev.Origin == r.origin {
		return
	}
	switch ev.Op {
	case eventPut:
		opCtx, cancel := context.WithTimeout(ctx, redisOpTimeout)
		defer cancel()
		if _, err := r.fetchLocal(opCtx, []string{r.entryKey(ev.Partition, ev.Key)}); err != nil {
			r.fail(fmt.Errorf("reading announced entry: %w", err))
		}
	case eventFlush:
		if err := r.local.Flush(ctx); err != nil {
			r.log.Warn("redis cache local flush failed", slog.String("error", err.Error()))
		}
	}
}

// storedEntry is an Entry as kept in Redis. The vector is little-endian float32 bytes (base64
// in the JSON), a third of the size of JSON numbers; the TTL is Redis's own.
type storedEntry struct {
	Key       string    `json:"key"`
	Partition string    `json:"partition,omitempty"`
	Scope     string    `json:"scope,omitempty"`
	Prompt    string    `json:"prompt,omitempty"`
	Vector    []byte    `json:"vector,omitempty"`
	Body      []byte    `json:"body"`
	Model     string    `json:"model,omitempty"`
	Created   time.Time `json:"created"`
}

func encodeEntry(e *Entry) ([]byte, error) {
	s := storedEntry{Key: e.Key, Partition: e.Partition, Scope: e.Scope, Prompt: e.Prompt,
		Body: e.Body, Model: e.Model, Created: e.Created}
	if len(e.Vector) > 0 {
		s.Vector = make([]byte, 4*len(e.Vector))
		for i, f := range e.Vector {
			binary.LittleEndian.PutUint32(s.Vector[4*i:], math.Float32bits(f))
		}
	}
	data, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encoding entry: %w", err)
	}
	return data, nil
}

func decodeEntry(data []byte) (*Entry, error) {
	var s storedEntry
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("decoding entry: %w", err)
	}
	if len(s.Vector)%4 != 0 {
		return nil, fmt.Errorf("decoding entry: vector of %d bytes", len(s.Vector))
	}
	e := &Entry{Key: s.Key, Partition: s.Partition, Scope: s.Scope, Prompt: s.Prompt,
		Body: s.Body, Model: s.Model, Created: s.Created}
	if len(s.Vector) > 0 {
		e.Vector = make([]float32, len(s.Vector)/4)
		for i := range e.Vector {
			e.Vector[i] = math.Float32frombits(binary.LittleEndian.Uint32(s.Vector[4*i:]))
		}
	}
	return e, nil
}

func encodeEvent(ev event) (string, error) {
	data, err := json.Marshal(ev)
	if err != nil {
		return "", fmt.Errorf("encoding announcement: %w", err)
	}
	return string(data), nil
}

// escapeGlob quotes the characters SCAN MATCH treats as a pattern, so a key prefix matches
// only itself.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[]\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// waitCtx waits for d or until ctx is done; false when ctx is done.
func waitCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
