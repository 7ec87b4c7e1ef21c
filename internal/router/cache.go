package router

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/semantic-router/semantic-router/internal/cache"
	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
)

// Headers of the cache stage.
const (
	HeaderCache           = "x-vsr-cache"            // hit, miss or bypass
	HeaderCacheSimilarity = "x-vsr-cache-similarity" // of a hit, 1.00 for an exact one
)

// Cache outcomes, as x-vsr-cache says them.
const (
	CacheHit    = "hit"
	CacheMiss   = "miss"
	CacheBypass = "bypass"
)

// cacheStage is the pipeline's one cache stage, between routing and the call: a routed
// request is looked up (exact, then semantic among entries of the same model, decision,
// earlier turns and sampling parameters), and a whole answer to a cacheable request is
// stored. Entries are partitioned by the client's key name. Nil when no request can use the
// cache.
type cacheStage struct {
	store *sharedStore
	// decisions holds each decision's override, by name, so a request's policy costs two
	// lookups.
	decisions map[string]*config.CacheOverride
	// down says, by operation (get, nearest, put, embed), that the operation's last try
	// failed: an outage is logged when it starts and when it ends, not on every request.
	down map[string]*atomic.Bool
}

// Cache operations, as cache_errors_total and the log lines name them.
var cacheOps = []string{"get", "nearest", "put", "embed"}

// sharedStore is a cache backend that the routers of successive reloads share: each
// router's close lets go of it, and the last one closes it, and then what it holds open
// (the Redis password's reference; nil when none).
type sharedStore struct {
	cache.Store
	refs  atomic.Int32
	holds io.Closer
}

func newShared(s cache.Store, holds io.Closer) *sharedStore {
	sh := &sharedStore{Store: s, holds: holds}
	sh.refs.Store(1)
	return sh
}

func (s *sharedStore) Close() error {
	if s.refs.Add(-1) != 0 {
		return nil
	}
	err := s.Store.Close()
	if s.holds != nil {
		err = errors.Join(err, s.holds.Close())
	}
	return err
}

// newCacheStage builds the configured backend, or nil when the cache is off everywhere. A
// reload keeps the backend of prev, the router it replaces, and so its answers, when the
// cache, the embedder (the vectors) and the models (what answered) are configured as
// before.
func (r *Router) newCacheStage(ctx context.Context, prev *Router, lookupEnv func(string) (string, bool)) (*cacheStage, error) {
	if !cacheUsed(r.cfg) {
		return nil, nil
	}
	if prev != nil && prev.cache != nil && reflect.DeepEqual(prev.cfg.Cache, r.cfg.Cache) &&
		reflect.DeepEqual(prev.cfg.Signals.Embedder, r.cfg.Signals.Embedder) && reflect.DeepEqual(prev.cfg.Models, r.cfg.Models) {
		prev.cache.store.refs.Add(1)
		return newStage(r.cfg, prev.cache.store), nil
	}
	c := r.cfg.Cache
	mem := cache.NewMemory(cache.MemoryOptions{MaxEntries: c.MaxEntries, MaxBytes: c.MaxBytes, Eviction: c.Eviction, TTL: c.TTL.D(), OnEvict: func() {
		if r.metrics != nil {
			r.metrics.CacheEvictions.Inc()
		}
	}})
	if c.Backend.Type != config.CacheBackendRedis {
		return newStage(r.cfg, newShared(mem, nil)), nil
	}
	store, holds, err := r.newRedisCache(ctx, mem, lookupEnv)
	if err != nil {
		return nil, err
	}
	return newStage(r.cfg, newShared(store, holds)), nil
}

func newStage(cfg *config.Config, store *sharedStore) *cacheStage {
	c := &cacheStage{store: store, decisions: map[string]*config.CacheOverride{}, down: map[string]*atomic.Bool{}}
	for _, op := range cacheOps {
		c.down[op] = new(atomic.Bool)
	}
	for i := range cfg.Decisions {
		c.decisions[cfg.Decisions[i].Name] = cfg.Decisions[i].Cache
	}
	return c
}

// cacheUsed reports whether any request can use the cache.
func cacheUsed(cfg *config.Config) bool {
	if cfg.Cache.Enabled {
		return true
	}
	for _, m := range cfg.Models {
		if m.Cache != nil && m.Cache.Enabled != nil && *m.Cache.Enabled {
			return true
		}
	}
	for _, d := range cfg.Decisions {
		if d.Cache != nil && d.Cache.Enabled != nil && *d.Cache.Enabled {
			return true
		}
	}
	return false
}

// CacheStats reports the cache's counts, and whether any request uses the cache.
func (r *Router) CacheStats() (cache.Stats, bool) {
	if r.cache == nil {
		return cache.Stats{}, false
	}
	return r.cache.store.Stats(), true
}

// FlushCache removes every cached answer (of every replica, with a shared backend).
func (r *Router) FlushCache(ctx context.Context) error {
	if r.cache == nil {
		return nil
	}
	return r.cache.store.Flush(ctx)
}

func (c *cacheStage) close() error {
	if c == nil {
		return nil
	}
	return c.store.Close()
}

// cacheLookup is the stage's verdict on one request.
type cacheLookup struct {
	outcome string     // "" (the cache is off for it), hit, miss or bypass
	hit     *cache.Hit // the entry that answers it
	entry   *cache.Entry
}

// explain returns the cache's headers.
func (l cacheLookup) explain() [][2]string {
	if l.outcome == "" {
		return nil
	}
	out := [][2]string{{HeaderCache, l.outcome}}
	if l.hit != nil {
		// Cut, not rounded: a semantic hit of 0.996 says 0.99, so 1.00 means the same
		// request or the same vector.
		out = append(out, [2]string{HeaderCacheSimilarity, strconv.FormatFloat(math.Floor(l.hit.Similarity*100+1e-9)/100, 'f', 2, 64)})
	}
	return out
}

// lookup decides what the cache does for a routed request of client, with headers h.
// Failures of the backend or the embedder make a miss, never an error: the request is
// served uncached, and the cache's error metric counts them.
func (r *Router) cacheLookup(ctx context.Context, client string, rd routed, h http.Header) cacheLookup {
	c := r.cache
	if c == nil {
		return cacheLookup{}
	}
	p := r.cfg.Cache.Policy(rd.m.cfg.Cache, c.decisions[rd.rt.Decision])
	if !p.Enabled {
		return cacheLookup{}
	}
	noCache, noStore := cacheControl(h.Values("Cache-Control"))
	if noCache && noStore || !cacheable(rd.req, &r.cfg.Cache, h) {
		r.countCache(CacheBypass)
		return cacheLookup{outcome: CacheBypass}
	}
	start := time.Now()
	defer func() {
		if r.metrics != nil {
			r.metrics.CacheLookup.Observe(time.Since(start).Seconds())
		}
	}()
	key, scope, prompt := cacheKeys(rd)
	e := &cache.Entry{Key: key, Partition: client, Scope: scope, Prompt: prompt, Model: rd.m.cfg.Name, TTL: p.TTL}
	mode := r.cfg.Cache.Mode
	if !noCache && mode != config.CacheModeSemantic {
		if got, err := c.store.Get(ctx, client, key); err != nil {
			r.cacheError(ctx, "get", err)
		} else if r.cacheOK(ctx, "get"); got != nil {
			r.countCache("hit_exact")
			return cacheLookup{outcome: CacheHit, hit: &cache.Hit{Entry: got, Similarity: 1, Exact: true}}
		}
	}
	if mode != config.CacheModeExact && prompt != "" {
		v, err := r.signals.EmbedText(ctx, prompt)
		if err != nil {
			r.cacheError(ctx, "embed", err)
		} else {
			r.cacheOK(ctx, "embed")
			e.Vector = v
			if !noCache {
				if hit, err := c.store.Nearest(ctx, client, scope, v, p.Threshold, prompt); err != nil {
					r.cacheError(ctx, "nearest", err)
				} else if r.cacheOK(ctx, "nearest"); hit != nil {
					r.countCache("hit_semantic")
					return cacheLookup{outcome: CacheHit, hit: hit}
				}
			}
		}
	}
	r.countCache(CacheMiss)
	if noStore {
		return cacheLookup{outcome: CacheMiss}
	}
	return cacheLookup{outcome: CacheMiss, entry: e}
}

// cacheStore stores a whole answer for the request lookup missed, when a hit could give it
// back whole or as a stream without losing anything (replayableAnswer). The answer is redacted
// here, whichever door it came through: one stored from ext_proc's response phase never
// passed through the router's relay, and a hit may be served by the other door. It runs once
// the client has its answer, when the client may already have gone (its request's context
// is then cancelled): the store keeps the request's values for its logs, not its end, and
// the backend bounds its own time.
func (r *Router) cacheStore(ctx context.Context, l cacheLookup, body []byte) {
	if l.entry == nil || r.cache == nil || !replayableAnswer(body) {
		return
	}
	ctx = context.WithoutCancel(ctx)
	l.entry.Body, l.entry.Created = redactAnswer(r.redactor, body), time.Now()
	if err := r.cache.store.Put(ctx, l.entry); err != nil {
		r.cacheError(ctx, "put", err)
	} else {
		r.cacheOK(ctx, "put")
	}
}

func (r *Router) countCache(outcome string) {
	if r.metrics != nil {
		r.metrics.CacheRequests.WithLabelValues(outcome).Inc()
	}
}

// cacheError counts a failed cache operation. The first failure of an outage is logged at
// warn with its cause, the next ones at debug: a backend or an embedder that is down would
// otherwise write a warning per request.
func (r *Router) cacheError(ctx context.Context, op string, err error) {
	if r.metrics != nil {
		r.metrics.CacheErrors.WithLabelValues(op).Inc()
	}
	log := logFor(ctx, r.log)
	if r.cache.down[op].Swap(true) {
		log.Debug("cache unavailable; serving uncached", "operation", op, LogKeyError, err.Error())
		return
	}
	log.Warn("cache unavailable; serving uncached until it recovers (further failures are logged at debug level)", "operation", op, LogKeyError, err.Error())
}

// cacheOK notes that a cache operation succeeded, and logs the end of its outage.
func (r *Router) cacheOK(ctx context.Context, op string) {
	if r.cache.down[op].Load() && r.cache.down[op].Swap(false) {
		logFor(ctx, r.log).Info("cache available again", "operation", op)
	}
}

// cacheable reports whether a request is deterministic enough to answer from the cache: its
// temperature (1 when unset) at most max_temperature, or the opt-in header set to "true".
func cacheable(req *openai.ChatRequest, c *config.Cache, h http.Header) bool {
	if h.Get(c.OptInHeader) == "true" {
		return true
	}
	t := 1.0
	if req.Temperature != nil {
		t = *req.Temperature
	}
	return c.MaxTemperature != nil && t <= *c.MaxTemperature
}

// cacheControl reads the request's Cache-Control: no-cache (do not answer from the cache)
// and no-store (do not store the answer).
func cacheControl(values []string) (noCache, noStore bool) {
	for _, v := range values {
		for d := range strings.SplitSeq(v, ",") {
			switch strings.ToLower(strings.TrimSpace(d)) {
			case "no-cache":
				noCache = true
			case "no-store":
				noStore = true
			}
		}
	}
	return noCache, noStore
}

// cacheKeys returns the exact key of a routed request (the model, the decision and the
// request as it is sent, sampling parameters included, without the fields that do not
// change the answer), its semantic scope (the same without the last user turn's text) and
// that turn's text.
func cacheKeys(rd routed) (key, scope, prompt string) {
	req := *rd.req
	req.Stream, req.StreamOptions, req.User = false, nil, ""
	req.Model = rd.m.cfg.Name
	last := -1
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			last = i
			break
		}
	}
	key = hashRequest(rd.rt.Decision, &req)
	if last < 0 {
		return key, "", ""
	}
	prompt = req.Messages[last].Content.String()
	scoped := req
	scoped.Messages = append([]openai.Message(nil), req.Messages...)
	scoped.Messages[last].Content = withoutText(req.Messages[last].Content)
	return key, hashRequest(rd.rt.Decision, &scoped), prompt
}

// withoutText returns a content without its text: what is left of the last user turn once
// its text is compared by embedding. Images and other parts stay, so a question about
// another image is another scope; a content of text alone leaves an empty text, the same
// whether it was sent as a string or as text parts.
func withoutText(c openai.Content) openai.Content {
	var rest []openai.ContentPart
	for _, p := range c.Parts {
		if p.Type != "text" {
			rest = append(rest, p)
		}
	}
	if len(rest) == 0 {
		return openai.TextContent("")
	}
	return openai.Content{Parts: rest, IsParts: true}
}

func hashRequest(decision string, req *openai.ChatRequest) string {
	b, _ := req.Encode() // a parsed request encodes
	h := sha256.New()
	h.Write([]byte(decision))
	h.Write([]byte{0})
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}
