package server

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

const (
	teamKey  = "sk-team-a-0123456789"
	otherKey = "sk-other-9876543210"
	rotated  = "sk-rotated-5555555555"
	adminTok = "mgmt-admin-token-777"
	readTok  = "mgmt-read-token-888"
)

// TestAdmission drives client keys, per-key models, rate limits and the management roles
// through the real handlers, then checks that no key or token appears in any log line,
// metric, response or the config API.
func TestAdmission(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "other")
	if err := os.WriteFile(keyFile, []byte(otherKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, fmt.Sprintf(`
admission:
  api_keys:
    - {name: team-a, key: env.TEAM_A_KEY, models: [general, auto], requests_per_minute: 2}
    - {name: other, key: "file:%s"}
  model_limits:
    - {model: reasoning, tokens_per_minute: 5}
management:
  tokens:
    - {name: ops, token: env.ADMIN_TOKEN, role: admin}
    - {name: viewer, token: env.READ_TOKEN}
%s`, keyFile, simModels), map[string]string{"TEAM_A_KEY": teamKey, "ADMIN_TOKEN": adminTok, "READ_TOKEN": readTok})
	url := f.inference + "/v1/chat/completions"
	var bodies []string
	check := func(name string, r reply, status int, body string) {
		t.Helper()
		bodies = append(bodies, r.body)
		if r.status != status || !strings.Contains(r.body, body) {
			t.Errorf("%s: %d %s, want %d with %q", name, r.status, r.body, status, body)
		}
	}
	for _, path := range []string{"/v1/chat/completions", "/v1/models", "/v1/models/general"} {
		if r := do(t, "GET", f.inference+path, "", ""); r.status == 401 && r.header.Get("WWW-Authenticate") != `Bearer realm="semantic-router"` {
			t.Errorf("a 401 for %s has WWW-Authenticate %q", path, r.header.Get("WWW-Authenticate"))
		}
	}
	check("no key", do(t, "POST", url, "", chat("general", false)), 401,
		`{"error":{"message":"missing API key: send it as Authorization: Bearer \u003ckey\u003e","type":"authentication_error","param":null,"code":"invalid_api_key"}}`)
	check("wrong key", do(t, "POST", url, "Bearer "+teamKey+"x", chat("general", false)), 401, `"message":"the API key is not valid"`)
	check("models without a key", do(t, "GET", f.inference+"/v1/models", "", ""), 401, "invalid_api_key")
	check("models with a key", do(t, "GET", f.inference+"/v1/models", "Bearer "+teamKey, ""), 200, `"id":"general"`)
	check("allowed model", do(t, "POST", url, "Bearer "+teamKey, chat("general", false)), 200, `"chat.completion"`)
	check("model not allowed", do(t, "POST", url, "Bearer "+teamKey, chat("reasoning", false)), 403,
		`{"error":{"message":"the API key \"team-a\" may not use model \"reasoning\"","type":"permission_error","param":"model","code":"model_not_allowed"}}`)
	check("streamed", do(t, "POST", url, "bearer "+teamKey, chat("auto", true)), 200, "data: [DONE]")
	r := do(t, "POST", url, "Bearer "+teamKey, chat("general", false))
	check("third request in a minute", r, 429,
		`{"error":{"message":"API key \"team-a\" is at its limit of 2 requests per minute; retry after the Retry-After header's seconds","type":"rate_limit_error","param":null,"code":"rate_limit_exceeded"}}`)
	if ra := r.header.Get("Retry-After"); ra != "30" && ra != "29" {
		t.Errorf("Retry-After = %q, want about 30 (one request in 2 a minute)", ra)
	}

	// The model's token budget: the first answer overdraws it, the next request waits.
	check("tokens left", do(t, "POST", url, "Bearer "+otherKey, chat("reasoning", false)), 200, `"usage"`)
	check("tokens spent", do(t, "POST", url, "Bearer "+otherKey, chat("reasoning", false)), 429, `model \"reasoning\" is at its limit of 5 tokens per minute`)

	// A rotated file: key replaces the old one without a restart.
	if err := os.WriteFile(keyFile+".new", []byte(rotated), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(keyFile+".new", keyFile); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for do(t, "GET", f.inference+"/v1/models", "Bearer "+rotated, "").status != 200 {
		if time.Now().After(deadline) {
			t.Fatal("the rotated key was never accepted")
		}
		time.Sleep(10 * time.Millisecond)
	}
	check("old key after rotation", do(t, "GET", f.inference+"/v1/models", "Bearer "+otherKey, ""), 401, "invalid_api_key")

	// Management roles; the probes stay open.
	m := f.management
	check("health", do(t, "GET", m+"/health", "", ""), 200, "ok")
	check("ready", do(t, "GET", m+"/ready", "", ""), 503, "not ready")
	check("config without a token", do(t, "GET", m+"/api/v1/config", "", ""), 401, "the management API needs a token from management.tokens")
	check("config with a client key", do(t, "GET", m+"/api/v1/config", "Bearer "+teamKey, ""), 401, "invalid_token")
	check("config with a read token", do(t, "GET", m+"/api/v1/config", "Bearer "+readTok, ""), 200, `"key":"env.TEAM_A_KEY"`)
	check("models with a read token", do(t, "GET", m+"/api/v1/models", "Bearer "+readTok, ""), 200, `"name":"general"`)
	check("reload with a read token", do(t, "POST", m+"/api/v1/config/reload", "Bearer "+readTok, ""), 403,
		`the token \"viewer\" has the read role; POST /api/v1/config/reload needs an admin token`)
	check("reload with an admin token", do(t, "POST", m+"/api/v1/config/reload", "Bearer "+adminTok, ""), 409, "start it with -config")

	// Four refusals for want of a key, and as many more as the rotation poll saw.
	for reason, want := range map[string]float64{"unauthenticated": 4, "model_not_allowed": 1, "key_rate_limited": 1, "model_rate_limited": 1} {
		if got := testutil.ToFloat64(f.metrics.AdmissionRejections.WithLabelValues(reason)); got != want && (reason != "unauthenticated" || got < want) {
			t.Errorf("admission rejections %s = %v, want %v", reason, got, want)
		}
	}
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(f.reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	metrics := rec.Body.String()
	if logs := f.logs.String(); !strings.Contains(logs, `"client":"team-a"`) {
		t.Errorf("the access log does not name the key:\n%s", logs)
	}
	everything := f.logs.String() + metrics + strings.Join(bodies, "\n")
	for _, secret := range []string{teamKey, otherKey, rotated, adminTok, readTok} {
		if strings.Contains(everything, secret) {
			t.Errorf("a secret (%d bytes) appears in logs, metrics or responses", len(secret))
		}
	}
}

func TestInFlightCap(t *testing.T) {
	t.Parallel()
	f := newFixture(t, `
admission: {max_in_flight: 1, max_queue: 1, queue_timeout: 50ms}
models:
  - model_name: slow
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 100ms}}
`, nil)
	url := f.inference + "/v1/chat/completions"
	done := make(chan reply, 1)
	go func() { done <- do(t, "POST", url, "", chat("slow", true)) }()
	deadline := time.Now().Add(5 * time.Second)
	for testutil.ToFloat64(f.metrics.InFlight.WithLabelValues("slow")) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the first stream never started")
		}
		time.Sleep(time.Millisecond)
	}
	r := do(t, "POST", url, "", chat("slow", false))
	if r.status != 503 || r.header.Get("Retry-After") != "1" ||
		!strings.Contains(r.body, `the router is serving its maximum of 1 requests (admission.max_in_flight) and no in-flight slot freed up in time; retry shortly`) {
		t.Errorf("over the cap: %d %s", r.status, r.body)
	}
	if first := <-done; first.status != 200 {
		t.Errorf("first stream: %d", first.status)
	}
	if r := do(t, "POST", url, "", chat("slow", false)); r.status != 200 {
		t.Errorf("after the slot freed: %d %s", r.status, r.body)
	}
}

// TestRefusedRequestsGiveBack: a request the model's limit refuses does not use up the
// key's budget.
func TestRefusedRequestsGiveBack(t *testing.T) {
	t.Parallel()
	f := newFixture(t, `
admission:
  api_keys: [{name: app, key: env.K, requests_per_minute: 2}]
  model_limits: [{model: general, requests_per_minute: 1}]
`+simModels, map[string]string{"K": teamKey})
	url := f.inference + "/v1/chat/completions"
	for i, tt := range []struct {
		model string
		want  int
	}{{"general", 200}, {"general", 429}, {"general", 429}, {"reasoning", 200}, {"reasoning", 429}} {
		if r := do(t, "POST", url, "Bearer "+teamKey, chat(tt.model, false)); r.status != tt.want {
			t.Errorf("request %d for %s: %d %s, want %d", i, tt.model, r.status, r.body, tt.want)
		}
	}
}

// TestNextRequestFindsTheSlotFree: with max_in_flight 1 and no queue, a client that sends
// its next request, on a new connection, as soon as it has the last event of a stream or
// the whole of an answer is admitted: the slot is freed before those bytes leave.
func TestNextRequestFindsTheSlotFree(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "admission: {max_in_flight: 1}\n"+simModels, nil)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	for i := range 60 {
		stream := i%2 == 0
		resp, err := client.Post(f.inference+"/v1/chat/completions", "application/json", strings.NewReader(chat("general", stream)))
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			t.Fatalf("request %d (stream %v): %d %s", i, stream, resp.StatusCode, b)
		}
		if stream { // read up to [DONE], as SDKs do, and no further
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() && sc.Text() != "data: [DONE]" {
			}
		} else if _, err := io.ReadAll(resp.Body); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
}
