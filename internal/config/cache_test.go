package config

import (
	"testing"
	"time"
)

func TestCacheDefaultsAndOverrides(t *testing.T) {
	t.Parallel()
	cfg, err := Parse([]byte(`
models:
  - model_name: coder
    provider: {type: sim}
    cache: {similarity_threshold: 0.97}
  - model_name: chat
    provider: {type: sim}
    cache: {enabled: false}
decisions:
  - {name: faq, rules: {signal: x}, models: [{model: chat}], cache: {enabled: true, similarity_threshold: 0.85, ttl: 24h}}
signals:
  keywords: [{name: x, keywords: [faq]}]
cache:
  enabled: true
`))
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Cache
	if c.Mode != CacheModeBoth || c.SimilarityThreshold != 0.92 || c.TTL.D() != time.Hour || c.MaxEntries != 10000 || c.MaxBytes != 256<<20 ||
		c.Eviction != CacheEvictLRU || *c.MaxTemperature != 0 || c.OptInHeader != "x-vsr-cache-allow" || c.Backend.Type != CacheBackendMemory {
		t.Errorf("defaults: %+v", c)
	}
	tests := []struct {
		model, decision string
		want            CachePolicy
	}{
		{"coder", "", CachePolicy{Enabled: true, Threshold: 0.97, TTL: time.Hour}},
		{"chat", "", CachePolicy{Enabled: false, Threshold: 0.92, TTL: time.Hour}},
		{"chat", "faq", CachePolicy{Enabled: true, Threshold: 0.85, TTL: 24 * time.Hour}},
		{"unknown", "unknown", CachePolicy{Enabled: true, Threshold: 0.92, TTL: time.Hour}},
	}
	override := func(model, decision string) (m, d *CacheOverride) {
		for i := range cfg.Models {
			if cfg.Models[i].Name == model {
				m = cfg.Models[i].Cache
			}
		}
		for i := range cfg.Decisions {
			if cfg.Decisions[i].Name == decision {
				d = cfg.Decisions[i].Cache
			}
		}
		return m, d
	}
	for _, tt := range tests {
		m, d := override(tt.model, tt.decision)
		if got := cfg.Cache.Policy(m, d); got != tt.want {
			t.Errorf("Policy for (%q, %q) = %+v, want %+v", tt.model, tt.decision, got, tt.want)
		}
	}
}

func TestCacheValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, yaml, want string
	}{
		{"mode", "cache: {mode: fuzzy}", `cache.mode (line 5): must be exact, semantic or both, got "fuzzy"`},
		{"threshold", "cache: {similarity_threshold: 1.5}", `cache.similarity_threshold (line 5): must be in (0, 1], got 1.5`},
		{"eviction", "cache: {eviction: random}", `cache.eviction (line 5): must be lru, lfu or fifo, got "random"`},
		{"max_bytes", "cache: {max_bytes: -1}", `cache.max_bytes (line 5): must be at least 1, got -1`},
		{"temperature", "cache: {max_temperature: 3}", `cache.max_temperature (line 5): must be between 0 and 2, got 3`},
		{"backend", "cache: {backend: {type: memcached}}", `cache.backend.type (line 5): must be memory or redis, got "memcached"`},
		{"redis address", "cache: {backend: {type: redis}}", `cache.backend.address (line 5): is required for type redis, as in "redis.cache.svc:6379"`},
		{"redis port", "cache: {backend: {type: redis, address: redis}}", `cache.backend.address (line 5): must be host:port, got "redis"`},
		{"redis address with credentials", "cache: {backend: {type: redis, address: 'u:sk-redispw-2222@127.0.0.1:38379'}}",
			`cache.backend.address (line 5): must not carry credentials; use password with an env.VAR or file:/path reference, got "[redacted]@127.0.0.1:38379"`},
		{"redis port that is no number", "cache: {backend: {type: redis, address: 'redis:6379/0'}}", `cache.backend.address (line 5): must be host:port, got "redis:6379/0"`},
		{"memory address", "cache: {backend: {address: redis:6379}}", `cache.backend.address (line 5): is for type redis; the memory backend has no address`},
		{"literal password", "cache: {backend: {type: redis, address: 'redis:6379', password: hunter2}}",
			`cache.backend.password (line 5): must be a reference "env.VAR" or "file:/path"; inline credentials are not accepted`},
		{"override threshold", "decisions: [{name: d, rules: {signal: x}, models: [{model: a}], cache: {similarity_threshold: 0}}]\nsignals: {keywords: [{name: x, keywords: [y]}]}",
			`decisions[0].cache.similarity_threshold (line 5): must be in (0, 1], got 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte("models:\n  - model_name: a\n    provider: {type: sim}\n\n" + tt.yaml + "\n"))
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}
