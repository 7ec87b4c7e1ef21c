package cache

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/semantic-router/semantic-router/internal/logtest"
	"github.com/semantic-router/semantic-router/internal/redistest"
)

// TestRedisRefusingWritesIsLogged: a Redis that is up but refuses the router's writes (out
// of memory under noeviction, a replica that became read-only) leaves every answer
// uncached. The operator reads it once, with Redis's own words, and reads when it is over,
// not a line per request, nor nothing at all.
func TestRedisRefusingWritesIsLogged(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	admin := redis.NewClient(&redis.Options{Addr: srv.Addr(), DisableIdentity: true})
	t.Cleanup(func() { _ = admin.Close() })
	ctx := context.Background()
	var logs logtest.Buffer
	opened, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	store, err := NewRedis(opened, RedisOptions{Address: srv.Addr(), Local: newBruteIndex(),
		Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })

	for _, kv := range [][2]string{{"maxmemory-policy", "noeviction"}, {"maxmemory", "1"}} {
		if err := admin.ConfigSet(ctx, kv[0], kv[1]).Err(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		// As the router does: a lookup, which Redis still answers, then the store.
		if e, err := store.Get(ctx, "team-a", fmt.Sprint("refused-", i)); err != nil || e != nil {
			t.Fatalf("Get: %v, %v", e, err)
		}
		if err := store.Put(ctx, answer(fmt.Sprint("refused-", i), 1, 0)); err != nil {
			t.Fatalf("Put: %v", err)
		}
	}
	const refused = "WARN redis cache unavailable; serving uncached until Redis answers (further failures are logged at debug level) " +
		"storing entry: OOM command not allowed when used memory > 'maxmemory'."
	if got := logLines(t, &logs); len(got) != 1 || got[0] != refused {
		t.Fatalf("log lines while Redis refused three writes:\n%s\nwant\n%s", strings.Join(got, "\n"), refused)
	}

	if err := admin.ConfigSet(ctx, "maxmemory", "0").Err(); err != nil {
		t.Fatal(err)
	}
	if err := store.Put(ctx, answer("accepted", 1, 0)); err != nil {
		t.Fatal(err)
	}
	if e, err := store.Get(ctx, "team-a", "accepted"); err != nil || e == nil {
		t.Fatalf("Get after the outage: %v, %v", e, err)
	}
	if got := logLines(t, &logs); len(got) != 2 || got[1] != "INFO redis cache available again <nil>" {
		t.Errorf("log lines after Redis accepted a write again:\n%s", strings.Join(got, "\n"))
	}
}

// logLines returns the log lines at info level and above, as "LEVEL msg error".
func logLines(t *testing.T, s *logtest.Buffer) []string {
	t.Helper()
	var out []string
	for _, l := range bytes.Split(bytes.TrimSpace(s.Bytes()), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		if m["level"] != "DEBUG" {
			out = append(out, strings.TrimSpace(fmt.Sprint(m["level"], " ", m["msg"], " ", m["error"])))
		}
	}
	return out
}
