package config

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// Cache modes, eviction policies and backends.
const (
	CacheModeExact    = "exact"    // the same request, byte for byte once normalised
	CacheModeSemantic = "semantic" // a near-identical last user turn, all else equal
	CacheModeBoth     = "both"     // exact first, then semantic (the default)

	CacheEvictLRU  = "lru"
	CacheEvictLFU  = "lfu"
	CacheEvictFIFO = "fifo"

	CacheBackendMemory = "memory"
	CacheBackendRedis  = "redis" // Redis or Valkey
)

// Cache defaults.
const (
	DefaultCacheThreshold  = 0.92
	DefaultCacheTTL        = time.Hour
	DefaultCacheMaxEntries = 10000
	DefaultCacheMaxBytes   = 256 << 20
	DefaultCacheKeyPrefix  = "vsr:cache:"
	DefaultCacheOptIn      = "x-vsr-cache-allow"
)

// Cache serves repeated and near-repeated requests from stored answers. It is off unless
// enabled; decisions and models may override it (decisions[].cache, models[].cache).
type Cache struct {
	// Enabled turns the cache on for every decision and model that does not say otherwise.
	Enabled bool `yaml:"enabled,omitempty" json:"enabled"`
	// Mode is exact, semantic or both (the default: exact first, then semantic).
	Mode string `yaml:"mode,omitempty" json:"mode,omitempty"`
	// SimilarityThreshold is the least cosine similarity of a semantic hit, in (0, 1];
	// default 0.92.
	SimilarityThreshold float64 `yaml:"similarity_threshold,omitempty" json:"similarity_threshold,omitempty"`
	// TTL is how long an answer is served; default 1h.
	TTL Duration `yaml:"ttl,omitempty" json:"ttl,omitempty"`
	// MaxEntries bounds the in-memory entries (and each replica's index); default 10000.
	MaxEntries int `yaml:"max_entries,omitempty" json:"max_entries,omitempty"`
	// MaxBytes bounds the memory the in-memory entries hold: answers, prompts, keys and
	// vectors (each replica's index with Redis, which keeps no answers); default 256 MiB.
	MaxBytes int64 `yaml:"max_bytes,omitempty" json:"max_bytes,omitempty"`
	// Eviction is lru (the default), lfu or fifo.
	Eviction string `yaml:"eviction,omitempty" json:"eviction,omitempty"`
	// MaxTemperature is the highest temperature of a request the cache answers or stores; a
	// request without temperature counts as 1. Default 0: deterministic requests only.
	MaxTemperature *float64 `yaml:"max_temperature,omitempty" json:"max_temperature,omitempty"`
	// OptInHeader names the request header that, set to "true", makes a request cacheable
	// whatever its temperature. Default x-vsr-cache-allow.
	OptInHeader string `yaml:"opt_in_header,omitempty" json:"opt_in_header,omitempty"`
	// Backend is where entries live: memory (the default) or redis, shared by replicas.
	Backend CacheBackend `yaml:"backend,omitempty" json:"backend"`
}

// CacheBackend says where cached answers live.
type CacheBackend struct {
	// Type is memory (the default) or redis (Redis or Valkey).
	Type string `yaml:"type,omitempty" json:"type,omitempty"`
	// Address is the Redis server's host:port.
	Address string `yaml:"address,omitempty" json:"address,omitempty"`
	// Password is a reference (env.VAR or file:/path) to the Redis password, if any.
	Password SecretRef `yaml:"password,omitempty" json:"password,omitempty"`
	// DB is the Redis database number.
	DB int `yaml:"db,omitempty" json:"db,omitempty"`
	// KeyPrefix prefixes every key the router writes; default vsr:cache:.
	KeyPrefix string `yaml:"key_prefix,omitempty" json:"key_prefix,omitempty"`
}

// CacheOverride changes the cache for one decision or one model; unset fields keep the
// top-level values. A decision's override wins over its model's.
type CacheOverride struct {
	Enabled             *bool     `yaml:"enabled,omitempty" json:"enabled,omitempty"`
	SimilarityThreshold *float64  `yaml:"similarity_threshold,omitempty" json:"similarity_threshold,omitempty"`
	TTL                 *Duration `yaml:"ttl,omitempty" json:"ttl,omitempty"`
}

// CachePolicy is the cache's setting for one request.
type CachePolicy struct {
	Enabled   bool
	Threshold float64
	TTL       time.Duration
}

// Policy returns the cache's setting for one request: the top-level values with each
// override applied in turn (the model's, then the decision's: the decision wins). Nil
// overrides are skipped.
func (c *Cache) Policy(overrides ...*CacheOverride) CachePolicy {
	p := CachePolicy{Enabled: c.Enabled, Threshold: c.SimilarityThreshold, TTL: c.TTL.D()}
	for _, o := range overrides {
		if o == nil {
			continue
		}
		if o.Enabled != nil {
			p.Enabled = *o.Enabled
		}
		if o.SimilarityThreshold != nil {
			p.Threshold = *o.SimilarityThreshold
		}
		if o.TTL != nil {
			p.TTL = o.TTL.D()
		}
	}
	return p
}

func (c *Cache) applyDefaults() {
	if c.Mode == "" {
		c.Mode = CacheModeBoth
	}
	if c.SimilarityThreshold == 0 {
		c.SimilarityThreshold = DefaultCacheThreshold
	}
	if c.TTL == 0 {
		c.TTL = Duration(DefaultCacheTTL)
	}
	if c.MaxEntries == 0 {
		c.MaxEntries = DefaultCacheMaxEntries
	}
	if c.MaxBytes == 0 {
		c.MaxBytes = DefaultCacheMaxBytes
	}
	if c.Eviction == "" {
		c.Eviction = CacheEvictLRU
	}
	if c.MaxTemperature == nil {
		zero := 0.0
		c.MaxTemperature = &zero
	}
	if c.OptInHeader == "" {
		c.OptInHeader = DefaultCacheOptIn
	}
	if c.Backend.Type == "" {
		c.Backend.Type = CacheBackendMemory
	}
	if c.Backend.Type == CacheBackendRedis && c.Backend.KeyPrefix == "" {
		c.Backend.KeyPrefix = DefaultCacheKeyPrefix
	}
}

func (c *Config) validateCache(v *validator) {
	k := &c.Cache
	switch k.Mode {
	case "", CacheModeExact, CacheModeSemantic, CacheModeBoth:
	default:
		v.add("cache.mode", "must be exact, semantic or both, got %q", k.Mode)
	}
	validateThreshold(v, "cache.similarity_threshold", k.SimilarityThreshold, true)
	if k.TTL < 0 {
		v.add("cache.ttl", "must be positive, got %s", k.TTL.D())
	}
	if k.MaxEntries < 0 {
		v.add("cache.max_entries", "must be at least 1, got %d", k.MaxEntries)
	}
	if k.MaxBytes < 0 {
		v.add("cache.max_bytes", "must be at least 1, got %d", k.MaxBytes)
	}
	switch k.Eviction {
	case "", CacheEvictLRU, CacheEvictLFU, CacheEvictFIFO:
	default:
		v.add("cache.eviction", "must be lru, lfu or fifo, got %q", k.Eviction)
	}
	if t := k.MaxTemperature; t != nil && (*t < 0 || *t > 2) {
		v.add("cache.max_temperature", "must be between 0 and 2, got %s", strconv.FormatFloat(*t, 'g', -1, 64))
	}
	b := &k.Backend
	switch b.Type {
	case "", CacheBackendMemory:
		if b.Address != "" {
			v.add("cache.backend.address", "is for type redis; the memory backend has no address")
		}
	case CacheBackendRedis:
		if b.Address == "" {
			v.add("cache.backend.address", `is required for type redis, as in "redis.cache.svc:6379"`)
		} else if strings.Contains(b.Address, "@") {
			v.add("cache.backend.address", "must not carry credentials; use password with an env.VAR or file:/path reference, got %q", redactAddress(b.Address))
		} else if _, port, err := net.SplitHostPort(b.Address); err != nil || !isPort(port) {
			v.add("cache.backend.address", "must be host:port, got %q", redactAddress(b.Address))
		}
		validateRef(v, "cache.backend.password", b.Password)
		if b.DB < 0 {
			v.add("cache.backend.db", "must be 0 or more, got %d", b.DB)
		}
	default:
		v.add("cache.backend.type", "must be memory or redis, got %q", b.Type)
	}
	for i := range c.Models {
		validateCacheOverride(v, fmt.Sprintf("models[%d].cache", i), c.Models[i].Cache)
	}
	for i := range c.Decisions {
		validateCacheOverride(v, fmt.Sprintf("decisions[%d].cache", i), c.Decisions[i].Cache)
	}
}

// isPort reports whether port is a port number. A port that is not one ("6379/0",
// "6379?password=…") fails at every dial, and the dial error quotes it.
func isPort(port string) bool {
	_, err := strconv.ParseUint(port, 10, 16)
	return err == nil
}

func validateCacheOverride(v *validator, path string, o *CacheOverride) {
	if o == nil {
		return
	}
	if o.SimilarityThreshold != nil {
		validateThreshold(v, path+".similarity_threshold", *o.SimilarityThreshold, false)
	}
	if o.TTL != nil && *o.TTL <= 0 {
		v.add(path+".ttl", "must be positive, got %s", o.TTL.D())
	}
}

// validateThreshold checks a similarity threshold; unsetOK allows 0, the unset value.
func validateThreshold(v *validator, path string, t float64, unsetOK bool) {
	if (t == 0 && unsetOK) || (t > 0 && t <= 1) {
		return
	}
	v.add(path, "must be in (0, 1], got %s", strconv.FormatFloat(t, 'g', -1, 64))
}
