package router

import (
	"context"
	"fmt"
	"io"

	"github.com/semantic-router/semantic-router/internal/cache"
	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/secret"
)

// newRedisCache is the cache backend shared by replicas through Redis or Valkey: entries
// and TTLs in Redis, the vector index in mem, kept in sync by the backend. The password's
// reference is read through a secret store of the backend's own, returned to be closed with
// the backend: the backend outlives the router that made it when a reload keeps it, and a
// password rotated in its file (a mounted Secret) is used for every new connection from then
// on, so the cache comes back by itself when Redis drops the connections made with the old
// one.
func (r *Router) newRedisCache(ctx context.Context, mem *cache.Memory, lookupEnv func(string) (string, bool)) (cache.Store, io.Closer, error) {
	c := r.cfg.Cache
	o := cache.RedisOptions{Address: c.Backend.Address, DB: c.Backend.DB, KeyPrefix: c.Backend.KeyPrefix, TTL: c.TTL.D(), Local: mem, Logger: r.log,
		OnError: func(error) {
			if r.metrics != nil {
				r.metrics.CacheErrors.WithLabelValues("redis").Inc()
			}
		}}
	var secrets *secret.Store
	if !c.Backend.Password.IsZero() {
		metrics := r.metrics
		secrets = secret.NewStore(secret.Options{LookupEnv: lookupEnv, Logger: r.log, OnRotate: func(ref string) {
			if metrics != nil {
				metrics.CredentialRotations.WithLabelValues(ref).Inc()
			}
		}})
		src, err := secrets.OpenToken(string(c.Backend.Password))
		if err != nil {
			_ = secrets.Close() // nothing was opened
			return nil, nil, &config.RefError{Path: "cache.backend.password", Ref: c.Backend.Password, Err: err}
		}
		o.PasswordFunc = src.Value
	}
	store, err := cache.NewRedis(ctx, o)
	if err != nil {
		if secrets != nil {
			_ = secrets.Close() // the error that matters is NewRedis's
		}
		return nil, nil, fmt.Errorf("cache.backend: %w", err)
	}
	if secrets == nil {
		return store, nil, nil
	}
	return store, secrets, nil
}
