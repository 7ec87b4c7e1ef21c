package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/redistest"
)

// TestCacheAdminAPI: the management API shows the cache's entries to a reader and flushes
// them for an admin only; the inference listener says hit or miss.
func TestCacheAdminAPI(t *testing.T) {
	t.Parallel()
	f := newFixture(t, simModels+`
cache: {enabled: true}
management:
  tokens:
    - {name: ops, token: env.ADMIN_TOKEN, role: admin}
    - {name: viewer, token: env.READ_TOKEN}
`, map[string]string{"ADMIN_TOKEN": "adm-token-1", "READ_TOKEN": "read-token-1"})
	body := `{"model":"general","temperature":0,"messages":[{"role":"user","content":"Name a prime number."}]}`
	for i, want := range []string{"miss", "hit"} {
		if r := do(t, "POST", f.inference+"/v1/chat/completions", "", body); r.status != http.StatusOK || r.header.Get("X-Vsr-Cache") != want {
			t.Fatalf("request %d: %d, x-vsr-cache %q, want %q", i+1, r.status, r.header.Get("X-Vsr-Cache"), want)
		}
		if want == "miss" {
			// The answer is stored after it leaves, so that the client does not wait for it.
			deadline := time.Now().Add(10 * time.Second)
			for r := do(t, "GET", f.management+"/api/v1/cache", "Bearer read-token-1", ""); !strings.Contains(r.body, `"entries":1`); r = do(t, "GET", f.management+"/api/v1/cache", "Bearer read-token-1", "") {
				if time.Now().After(deadline) {
					t.Fatalf("the missed answer was not stored: %s", r.body)
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
	}
	steps := []struct {
		method, path, token string
		status              int
		body                string
	}{
		{"GET", "/api/v1/cache", "Bearer read-token-1", 200, `{"enabled":true,"stats":{"entries":1,"bytes":B,"evictions":0,"expired":0}}` + "\n"},
		{"POST", "/api/v1/cache/flush", "Bearer read-token-1", 403, ""},
		{"POST", "/api/v1/cache/flush", "Bearer adm-token-1", 200, `{"status":"flushed"}` + "\n"},
		{"GET", "/api/v1/cache", "Bearer read-token-1", 200, `{"enabled":true,"stats":{"entries":0,"bytes":0,"evictions":0,"expired":0}}` + "\n"},
	}
	someBytes := regexp.MustCompile(`"bytes":[1-9][0-9]*`) // the answer's id and time vary
	for _, s := range steps {
		r := do(t, s.method, f.management+s.path, s.token, "")
		r.body = someBytes.ReplaceAllString(r.body, `"bytes":B`)
		if r.status != s.status || (s.body != "" && r.body != s.body) {
			t.Errorf("%s %s as %s: %d %s, want %d %s", s.method, s.path, s.token, r.status, r.body, s.status, s.body)
		}
	}
	if r := do(t, "POST", f.inference+"/v1/chat/completions", "", body); r.header.Get("X-Vsr-Cache") != "miss" {
		t.Errorf("after the flush: x-vsr-cache %q, want miss", r.header.Get("X-Vsr-Cache"))
	}
}

// TestFailedRequestsSayTheCacheOutcome: a request the cache applies to carries x-vsr-cache
// whatever its answer, a model's failure too.
func TestFailedRequestsSayTheCacheOutcome(t *testing.T) {
	t.Parallel()
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"error":{"message":"the model crashed"}}`, http.StatusInternalServerError)
	}))
	t.Cleanup(be.Close)
	f := newFixture(t, `
cache: {enabled: true}
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: `+be.URL+`/v1}
`, nil)
	body := `{"model":"m","temperature":0,"messages":[{"role":"user","content":"Name a prime number."}]}`
	if r := do(t, "POST", f.inference+"/v1/chat/completions", "", body); r.status != http.StatusBadGateway || r.header.Get("X-Vsr-Cache") != "miss" {
		t.Errorf("a failed model: %d, x-vsr-cache %q, want 502 and miss", r.status, r.header.Get("X-Vsr-Cache"))
	}
}

// TestAnswerLeavesBeforeTheCacheStore: a missed answer is stored in the cache after the
// client has it, not before. The cache's Redis sits behind a relay that holds every SET
// until the test lets it go, after the client has read its whole answer; had the answer
// waited for the store, the store would have given up first (its timeout closes the
// connection) and the client would have had the answer only then. A store has 200 ms,
// dial included, and is dropped when that passes before its SET is sent, as on a loaded
// machine it can: then the test asks again with another prompt.
func TestAnswerLeavesBeforeTheCacheStore(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	relay := rs.Hold(t, "set")
	f := newFixture(t, simModels+`
cache:
  enabled: true
  backend: {type: redis, address: "`+relay.Addr()+`", key_prefix: "answer-first:"}
`, nil)
	var body string
	for attempt := 1; ; attempt++ {
		body = fmt.Sprintf(`{"model":"general","temperature":0,"messages":[{"role":"user","content":"Name prime number %d."}]}`, attempt)
		r := do(t, "POST", f.inference+"/v1/chat/completions", "", body)
		_, closed := relay.State()
		if r.status != http.StatusOK || r.header.Get("X-Vsr-Cache") != "miss" {
			t.Fatalf("answer: %d, x-vsr-cache %q", r.status, r.header.Get("X-Vsr-Cache"))
		}
		if closed {
			t.Fatal("the client had its answer only after the cache's store gave up on the held SET")
		}
		if held(relay, 2*time.Second) {
			break
		}
		if attempt == 3 {
			t.Fatal("no store's SET reached the relay in three requests")
		}
	}
	relay.Release()
	redistest.WaitFor(t, "the held store to reach Redis", func() bool {
		return do(t, "POST", f.inference+"/v1/chat/completions", "", body).header.Get("X-Vsr-Cache") == "hit"
	})
}

// held waits up to limit for the relay to hold a write.
func held(relay *redistest.Relay, limit time.Duration) bool {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if h, _ := relay.State(); h {
			return true
		}
	}
	return false
}
