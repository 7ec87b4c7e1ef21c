package router

import (
	"context"
	"fmt"

	"github.com/semantic-router/semantic-router/internal/cache"
	"github.com/semantic-router/semantic-router/internal/config"
)

// newRedisCache is the cache backend shared by replicas through Redis or Valkey: entries
// and TTLs in Redis, the vector index in mem, kept in sync by the backend.
func (r *Router) newRedisCache(ctx context.Context, mem *cache.Memory) (cache.Store, error) {
	c := r.cfg.Cache
	o := cache.RedisOptions{Address: c.Backend.Address, DB: c.Backend.DB, KeyPrefix: c.Backend.KeyPrefix, TTL: c.TTL.D(), Local: mem, Logger: r.log,
		OnError: func(error) {
			if r.metrics != nil {
				r.metrics.CacheErrors.WithLabelValues("redis").Inc()
			}
		}}
	if !c.Backend.Password.IsZero() {
		src, err := r.secrets.OpenToken(string(c.Backend.Password))
		if err != nil {
			return nil, &config.RefError{Path: "cache.backend.password", Ref: c.Backend.Password, Err: err}
		}
		if o.Password, err = src.Value(); err != nil {
			return nil, &config.RefError{Path: "cache.backend.password", Ref: c.Backend.Password, Err: err}
		}
	}
	store, err := cache.NewRedis(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("cache.backend: %w", err)
	}
	return store, nil
}
