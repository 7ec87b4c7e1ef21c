package cache

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	defaultKeyPrefix = "vsr:cache:"
	defaultRedisTTL  = time.Hour
	// redisOpTimeout bounds every lookup and store: a request never waits longer than this for
	// the cache, whatever state Redis is in.
	redisOpTimeout = 200 * time.Millisecond
	// redisPageTimeout bounds one page of a start-up load or a flush (a SCAN and its reads).
	redisPageTimeout = 2 * time.Second
	redisScanCount   = 256
)

// localIndex is the part of a replica's in-memory store that the Redis backend uses to keep
// and search vectors; *Memory implements it.
type localIndex interface {
	Put(ctx context.Context, e *Entry) error
	Nearest(ctx context.Context, partition, scope string, v []float32, threshold float64, prompt string) (*Hit, error)
	Flush(ctx context.Context) error
	Stats() Stats
}

// RedisOptions configure NewRedis.
type RedisOptions struct {
	Address  string // host:port
	Password string
	// PasswordFunc, when set, gives the password for every new connection in place of
	// Password, so that a rotated password takes effect without a restart: the connections
	// Redis drops when its password changes are made again with the new one.
	PasswordFunc func() (string, error)
	DB           int
	KeyPrefix    string // default "vsr:cache:"
	// TTL is the lifetime of an entry whose own TTL is 0; default 1h.
	TTL time.Duration
	// Local is the replica's in-memory index (vectors); entries and TTLs live in Redis. Required.
	Local localIndex
	// Logger defaults to discarding.
	Logger *slog.Logger
	// OnError is called when Redis cannot be reached or answers with an error (for metrics);
	// lookups then miss and puts are dropped. Nil: ignored. Called from any goroutine.
	OnError func(err error)
}

// Redis is a cache shared by the router's replicas. Entries and their TTLs live in Redis, so
// exact lookups and expiry are the same for every replica; each replica keeps the vectors in
// its own local index for semantic search, kept in step through Redis pub/sub (a put or flush
// is announced on a channel) and a full load whenever the subscription is (re)established.
// A semantic match found locally is served only if its entry still exists in Redis.
//
// When Redis is unreachable the store degrades to a cache that always misses: every call gives
// up after a short timeout, calls OnError, and the subscription reconnects in the background.
// Safe for concurrent use.
type Redis struct {
	client *redis.Client
	// pubsubMu guards pubsub, which the receive loop replaces when its connection stops
	// answering, and closed, which stops it from doing so once Close has begun.
	pubsubMu sync.Mutex
	pubsub   *redis.PubSub
	closed   bool

	local   localIndex
	prefix  string
	channel string
	ttl     time.Duration
	log     *slog.Logger
	onError func(error)
	// origin tells this replica's announcements apart from the others'.
	origin string

	expired atomic.Uint64
	// healthy is false after a subscription failure until it is re-established, so that an
	// outage is logged once rather than once per retry.
	healthy atomic.Bool
	// reads and stores are true after a read or a store failed until one of the same kind
	// succeeds, so that Redis refusing commands (out of memory, a read-only replica, a lost
	// connection) is logged once with its cause rather than once per request. They are
	// apart because Redis may refuse only one kind: an out-of-memory Redis still reads.
	reads, stores atomic.Bool

	cancel    context.CancelFunc
	done      chan struct{}
	ready     chan struct{}
	readyOnce sync.Once
	closeOnce sync.Once
}

// NewRedis connects to Redis, subscribes to the announcements of the other replicas and loads
// the existing entries' vectors into opts.Local. It waits for that first load until ctx is
// done; an unreachable Redis is not an error (the store misses until Redis answers), only
// invalid options are.
func NewRedis(ctx context.Context, opts RedisOptions) (*Redis, error) {
	if opts.Address == "" {
		return nil, errors.New("redis cache: address is empty")
	}
	if opts.Local == nil {
		return nil, errors.New("redis cache: local index is nil")
	}
	prefix := opts.KeyPrefix
	if prefix == "" {
		prefix = defaultKeyPrefix
	}
	ttl := opts.TTL
	if ttl <= 0 {
		ttl = defaultRedisTTL
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var id [8]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, fmt.Errorf("redis cache: %w", err)
	}
	options := &redis.Options{
		Addr:                  opts.Address,
		Password:              opts.Password,
		DB:                    opts.DB,
		DialTimeout:           redisOpTimeout,
		ReadTimeout:           redisOpTimeout,
		WriteTimeout:          redisOpTimeout,
		PoolTimeout:           redisOpTimeout,
		ContextTimeoutEnabled: true,
		// A retry would double the time a request waits on a Redis that is down.
		MaxRetries: -1,
		// One dial per call: the client's default of five, 100 ms apart, would hold every
		// lookup for half a second while Redis is down.
		DialerRetries:   1,
		DisableIdentity: true,
	}
	if opts.PasswordFunc != nil {
		options.CredentialsProviderContext = func(context.Context) (string, string, error) {
			password, err := opts.PasswordFunc()
			return "", password, err
		}
	}
	client := redis.NewClient(options)
	quietClientOnce.Do(func() { redis.SetLogger(quietClient{}) })
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	r := &Redis{
		client:  client,
		local:   opts.Local,
		prefix:  prefix,
		channel: prefix + "events",
		ttl:     ttl,
		log:     logger,
		onError: opts.OnError,
		origin:  hex.EncodeToString(id[:]),
		cancel:  cancel,
		done:    make(chan struct{}),
		ready:   make(chan struct{}),
	}
	r.healthy.Store(true)
	r.resubscribe(runCtx)
	go r.run(runCtx)
	select {
	case <-r.ready:
	case <-ctx.Done():
	}
	return r, nil
}

// Get returns the entry with key in partition from Redis, or nil when there is none or Redis
// cannot be reached.
func (r *Redis) Get(ctx context.Context, partition, key string) (*Entry, error) {
	e, _, err := r.lookup(ctx, partition, key)
	return e, err
}

// Nearest searches the local index and serves the best match only if its entry is still in
// Redis (not expired, flushed or replaced by an entry of another scope).
func (r *Redis) Nearest(ctx context.Context, partition, scope string, v []float32, threshold float64, prompt string) (*Hit, error) {
	hit, err := r.local.Nearest(ctx, partition, scope, v, threshold, prompt)
	if err != nil || hit == nil || hit.Entry == nil {
		return nil, err
	}
	e, gone, err := r.lookup(ctx, hit.Entry.Partition, hit.Entry.Key)
	if err != nil || e == nil {
		if gone {
			r.expired.Add(1)
		}
		return nil, err
	}
	if e.Scope != scope {
		return nil, nil
	}
	return &Hit{Entry: e, Similarity: hit.Similarity}, nil
}

// lookup reads one entry; gone reports that Redis answered that it does not exist.
func (r *Redis) lookup(ctx context.Context, partition, key string) (e *Entry, gone bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, redisOpTimeout)
	defer cancel()
	data, err := r.client.Get(ctx, r.entryKey(partition, key)).Bytes()
	if errors.Is(err, redis.Nil) {
		r.ok(&r.reads)
		return nil, true, nil
	}
	if err != nil {
		r.failOp(&r.reads, fmt.Errorf("reading entry: %w", err))
		return nil, false, nil
	}
	r.ok(&r.reads)
	e, err = decodeEntry(data)
	if err != nil {
		return nil, false, fmt.Errorf("redis cache: %w", err)
	}
	return e, false, nil
}

// Put stores e in Redis with its TTL (the store's default when 0) and announces it to the other
// replicas. When Redis cannot be reached the entry is dropped: OnError is called and Put
// returns nil, since the request that produced the answer has nothing to do about it.
func (r *Redis) Put(ctx context.Context, e *Entry) error {
	if e == nil {
		return errors.New("redis cache: nil entry")
	}
	ttl := e.TTL
	if ttl <= 0 {
		ttl = r.ttl
	}
	data, err := encodeEntry(e)
	if err != nil {
		return fmt.Errorf("redis cache: %w", err)
	}
	event, err := encodeEvent(event{Op: eventPut, Origin: r.origin, Partition: e.Partition, Key: e.Key})
	if err != nil {
		return fmt.Errorf("redis cache: %w", err)
	}
	opCtx, cancel := context.WithTimeout(ctx, redisOpTimeout)
	defer cancel()
	pipe := r.client.Pipeline()
	pipe.Set(opCtx, r.entryKey(e.Partition, e.Key), data, ttl)
	pipe.Publish(opCtx, r.channel, event)
	if _, err := pipe.Exec(opCtx); err != nil {
		r.failOp(&r.stores, fmt.Errorf("storing entry: %w", err))
		return nil
	}
	r.ok(&r.stores)
	if len(e.Vector) == 0 {
		return nil // exact lookups read Redis; the local index holds only what it can search
	}
	local := *e
	local.TTL, local.Body = ttl, nil // a hit reads the answer from Redis
	return r.local.Put(ctx, &local)
}

// Flush deletes every entry under the key prefix, announces the flush and empties the local
// index. It returns an error when Redis could not be flushed.
func (r *Redis) Flush(ctx context.Context) error {
	localErr := r.local.Flush(ctx)
	var cursor uint64
	for {
		pageCtx, cancel := context.WithTimeout(ctx, redisPageTimeout)
		keys, next, err := r.client.Scan(pageCtx, cursor, escapeGlob(r.prefix)+"e:*", redisScanCount).Result()
		if err == nil && len(keys) > 0 {
			err = r.client.Unlink(pageCtx, keys...).Err()
		}
		cancel()
		if err != nil {
			r.fail(fmt.Errorf("flushing: %w", err))
			return fmt.Errorf("redis cache: flushing: %w", err)
		}
		if cursor = next; cursor == 0 {
			break
		}
	}
	msg, err := encodeEvent(event{Op: eventFlush, Origin: r.origin})
	if err != nil {
		return fmt.Errorf("redis cache: %w", err)
	}
	opCtx, cancel := context.WithTimeout(ctx, redisOpTimeout)
	defer cancel()
	if err := r.client.Publish(opCtx, r.channel, msg).Err(); err != nil {
		r.fail(fmt.Errorf("announcing flush: %w", err))
		return fmt.Errorf("redis cache: announcing flush: %w", err)
	}
	if localErr != nil {
		return fmt.Errorf("redis cache: %w", localErr)
	}
	return nil
}

// Stats reports the local index's counts; Expired adds the semantic matches found locally
// whose entry had already left Redis.
func (r *Redis) Stats() Stats {
	s := r.local.Stats()
	s.Expired += r.expired.Load()
	return s
}

// Close stops the subscription and closes the connections. It is safe to call more than once.
func (r *Redis) Close() error {
	var err error
	r.closeOnce.Do(func() {
		r.pubsubMu.Lock()
		r.closed = true
		ps := r.pubsub
		r.pubsubMu.Unlock()
		r.cancel()
		_ = ps.Close() // unblocks the receive loop; its error says only that it was open
		<-r.done
		err = r.client.Close()
	})
	return err
}

func (r *Redis) entryKey(partition, key string) string {
	// The partition is escaped so that no partition and key pair can spell another's key.
	return r.prefix + "e:" + url.QueryEscape(partition) + ":" + key
}

func (r *Redis) fail(err error) {
	r.log.Debug("redis cache unavailable", slog.String("error", err.Error()))
	if r.onError != nil {
		r.onError(err)
	}
}

// failOp reports a failed read or store (failing is r.reads or r.stores): the first of an
// outage at warn with its cause, the next ones as fail does.
func (r *Redis) failOp(failing *atomic.Bool, err error) {
	if failing.Swap(true) {
		r.fail(err)
		return
	}
	r.log.Warn("redis cache unavailable; serving uncached until Redis answers (further failures are logged at debug level)",
		slog.String("error", err.Error()))
	if r.onError != nil {
		r.onError(err)
	}
}

// ok notes that a read or a store succeeded, and logs the end of its outage.
func (r *Redis) ok(failing *atomic.Bool) {
	if failing.Load() && failing.Swap(false) {
		r.log.Info("redis cache available again")
	}
}

// The Redis client writes a line to stderr for every failed dial, one per lookup while Redis is
// down. Its logger is process-wide; the store reports the same failures through OnError and its
// own logger, so the client's is silenced once, when the first store is made.
var quietClientOnce sync.Once

type quietClient struct{}

func (quietClient) Printf(context.Context, string, ...any) {}

var _ Store = (*Redis)(nil)
