package router

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/redis/go-redis/v9"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/redistest"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// TestCacheSharedThroughRedis: two routers (two replicas) share one real Redis. An answer
// cached by one is served by the other, exactly and semantically; with Redis down, requests
// are served uncached and the error metric counts it; once Redis is back, the cache works.
func TestCacheSharedThroughRedis(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	be := newModelBackend(t)
	replica := func() (*Pipeline, *telemetry.Metrics) {
		metrics := telemetry.NewMetrics(prometheus.NewRegistry())
		r := buildRouter(t, fmt.Sprintf(`
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: %s/v1, api_key: env.KEY}
cache:
  enabled: true
  similarity_threshold: 0.8
  backend: {type: redis, address: "%s", key_prefix: "test:%s:"}
`, be.URL, rs.Addr(), t.Name()), map[string]string{"KEY": "sk-pool"}, Options{Metrics: metrics})
		return NewPipeline(NewHolder(r), PipelineOptions{}), metrics
	}
	a, _ := replica()
	b, bm := replica()
	open := func(p *Pipeline, body string) string {
		t.Helper()
		res, _, err := p.Serve(context.Background(), &Request{ID: "r", Header: http.Header{}, Body: strings.NewReader(body)})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		for _, kv := range res.Explain() {
			if kv[0] == HeaderCache {
				return kv[1]
			}
		}
		return ""
	}
	if got := open(a, chatT("What is the tallest mountain on Earth?", 0)); got != CacheMiss {
		t.Fatalf("replica a, first: %q", got)
	}
	if got := open(b, chatT("What is the tallest mountain on Earth?", 0)); got != CacheHit {
		t.Errorf("replica b, the same request: %q, want hit (stored by a)", got)
	}
	// The semantic index of b learns a's entry through Redis's notifications.
	redistest.WaitFor(t, "a paraphrase hits on replica b", func() bool {
		return open(b, chatT("what is the tallest mountain on earth", 0)) == CacheHit
	})
	calls := be.completions.Load()

	rs.Kill()
	if got := open(b, chatT("Name the largest ocean.", 0)); got != CacheMiss {
		t.Errorf("with Redis down: %q, want miss", got)
	}
	if be.completions.Load() != calls+1 {
		t.Error("with Redis down the request was not served by the model")
	}
	if n := testutil.ToFloat64(bm.CacheErrors.WithLabelValues("redis")); n == 0 {
		t.Error("cache_errors_total{operation=redis} did not count the outage")
	}
	rs.Restart()
	redistest.WaitFor(t, "the cache works again", func() bool {
		open(a, chatT("Name the largest desert.", 0))
		return open(b, chatT("Name the largest desert.", 0)) == CacheHit
	})
}

// TestCacheRedisStoresAfterClientLeft: an answer is stored once the client has it, and a
// client that hangs up as soon as it has read the answer (as curl and one-shot scripts do)
// cancels its request's context before that. The answer must be stored all the same.
func TestCacheRedisStoresAfterClientLeft(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	be := newModelBackend(t)
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	r := buildRouter(t, fmt.Sprintf(`
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: %s/v1, api_key: env.KEY}
cache:
  enabled: true
  mode: exact
  backend: {type: redis, address: "%s", key_prefix: "test:%s:"}
`, be.URL, rs.Addr(), t.Name()), map[string]string{"KEY": "sk-pool"}, Options{Metrics: metrics})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	for _, stream := range []bool{false, true} {
		body := chatT(fmt.Sprintf("Name the longest river (stream %v).", stream), 0)
		if stream {
			body = strings.Replace(body, `"model"`, `"stream":true,"model"`, 1)
		}
		ctx, cancel := context.WithCancel(context.Background())
		res, _, err := p.Serve(ctx, &Request{ID: "gone", Header: http.Header{}, Body: strings.NewReader(body)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stream != nil {
			drain(t, res.Stream)
		}
		cancel() // the client read the answer and hung up
		res.Close()
		if got := ask(t, p, "", body, nil)[HeaderCache]; got != CacheHit {
			t.Errorf("stream %v: the same request again: %q, want hit", stream, got)
		}
	}
	if n := testutil.ToFloat64(metrics.CacheErrors.WithLabelValues("redis")); n != 0 {
		t.Errorf("cache_errors_total{operation=redis} = %v, want 0", n)
	}
}

// TestCacheRedisPasswordRotation: the Redis password is a file: reference (a mounted
// Secret). When it is rotated (the file rewritten, Redis given the new password and the old
// connections dropped), the cache must come back by itself with the new password, as every
// other credential does, without a restart; also after a reload that kept the cache and
// closed the router that made it.
func TestCacheRedisPasswordRotation(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	ctx := context.Background()
	setPassword := func(old, password string) {
		t.Helper()
		admin := redis.NewClient(&redis.Options{Addr: rs.Addr(), Password: old, DisableIdentity: true})
		defer func() { _ = admin.Close() }()
		if err := admin.ConfigSet(ctx, "requirepass", password).Err(); err != nil {
			t.Fatalf("setting Redis's password: %v", err)
		}
		// The connections made with the old password go, as when Redis restarts with the new.
		for _, typ := range []string{"normal", "pubsub"} {
			if err := admin.Do(ctx, "CLIENT", "KILL", "TYPE", typ).Err(); err != nil {
				t.Fatalf("dropping the %s connections: %v", typ, err)
			}
		}
	}
	file := filepath.Join(t.TempDir(), "redis-password")
	writePassword := func(password string) {
		t.Helper()
		tmp := file + ".new"
		if err := os.WriteFile(tmp, []byte(password), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, file); err != nil { // as a Secret's volume swaps its files
			t.Fatal(err)
		}
	}
	writePassword("first-password-1")
	setPassword("", "first-password-1")
	be := newModelBackend(t)
	yaml := fmt.Sprintf(`
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: %s/v1, api_key: env.KEY}
cache:
  enabled: true
  mode: exact
  backend: {type: redis, address: "%s", password: "file:%s", key_prefix: "test:%s:"}
`, be.URL, rs.Addr(), file, t.Name())
	build := func(yaml string, prev *Router) *Router {
		t.Helper()
		cfg, err := config.Parse([]byte(yaml))
		if err != nil {
			t.Fatal(err)
		}
		r, err := New(cfg, Options{Previous: prev, LookupEnv: func(k string) (string, bool) { return "sk-pool", k == "KEY" }})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	works := func(p *Pipeline, what string) {
		t.Helper()
		n := 0
		redistest.WaitFor(t, what, func() bool {
			n++
			body := chatT(fmt.Sprintf("Name the longest bridge (%s, try %d).", what, n), 0)
			ask(t, p, "", body, nil)
			return ask(t, p, "", body, nil)[HeaderCache] == CacheHit
		})
	}
	first := build(yaml, nil)
	works(NewPipeline(NewHolder(first), PipelineOptions{}), "the cache to work")

	writePassword("second-password-2")
	setPassword("first-password-1", "second-password-2")
	works(NewPipeline(NewHolder(first), PipelineOptions{}), "the cache to work with the rotated password")

	// A reload keeps the cache, and the router that opened its password is closed.
	second := build(yaml+"server: {stream_keepalive: 5s}\n", first)
	t.Cleanup(func() { _ = second.Close() })
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	writePassword("third-password-3")
	setPassword("second-password-2", "third-password-3")
	works(NewPipeline(NewHolder(second), PipelineOptions{}), "the cache to work with the password rotated after a reload")
}
