package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestLateManagement: before the router is built the stand-in answers the probes, /ready with
// the check's reason, and every other path with 503; once handed the full API it serves it.
func TestLateManagement(t *testing.T) {
	t.Parallel()
	var ready Readiness
	ready.SetCheck(func(context.Context) error {
		return errors.New(`artifact "m": downloading model.onnx (1.0 KiB of 2.0 KiB)`)
	})
	late := NewLateManagement(&ready, slog.New(slog.DiscardHandler))
	srv := httptest.NewServer(late)
	t.Cleanup(srv.Close)

	tests := []struct {
		name, method, path string
		status             int
		body               string
	}{
		{"health", "GET", "/health", 200, `{"status":"ok"}` + "\n"},
		{"ready gives the check's reason", "GET", "/ready", 503,
			`{"reason":"artifact \"m\": downloading model.onnx (1.0 KiB of 2.0 KiB)","status":"not ready"}` + "\n"},
		{"any other path", "POST", "/api/v1/config/reload", 503,
			`{"error":{"message":"the router is starting (artifact \"m\": downloading model.onnx (1.0 KiB of 2.0 KiB)); /api/v1/config/reload is served once GET /ready answers 200","type":"server_error","param":null,"code":"starting"}}` + "\n"},
	}
	for _, tt := range tests {
		if r := do(t, tt.method, srv.URL+tt.path, "", ""); r.status != tt.status || r.body != tt.body {
			t.Errorf("%s: %d %s\nwant %d %s", tt.name, r.status, r.body, tt.status, tt.body)
		}
	}

	// The check passes, the router is not marked ready yet: it is starting.
	ready.SetCheck(func(context.Context) error { return nil })
	if r := do(t, "GET", srv.URL+"/ready", "", ""); r.status != 503 || r.body != `{"reason":"starting: the configuration and models are not loaded yet","status":"not ready"}`+"\n" {
		t.Errorf("ready before Set(true): %d %s", r.status, r.body)
	}
	f := newFixture(t, simModels, nil)
	late.Set(f.mgmtH)
	if r := do(t, "GET", srv.URL+"/api/v1/models", "", ""); r.status != 200 {
		t.Errorf("models after Set: %d %s", r.status, r.body)
	}
}

// TestReadyReasons: /ready names why the router is not ready, and a router told to stop says
// so whatever else it would say, so that an operator sees why a pod left its Services.
func TestReadyReasons(t *testing.T) {
	t.Parallel()
	const starting = `{"reason":"starting: the configuration and models are not loaded yet","status":"not ready"}` + "\n"
	const stopping = `{"reason":"shutting down: told to stop","status":"not ready"}` + "\n"
	tests := []struct {
		name   string
		setup  func(*Readiness)
		status int
		body   string
	}{
		{"starting", func(*Readiness) {}, 503, starting},
		{"ready", func(r *Readiness) { r.Set(true) }, 200, `{"status":"ready"}` + "\n"},
		{"a failing check", func(r *Readiness) {
			r.Set(true)
			r.SetCheck(func(context.Context) error { return errors.New("embedder unreachable") })
		}, 503, `{"reason":"embedder unreachable","status":"not ready"}` + "\n"},
		{"stopping", func(r *Readiness) { r.Set(true); r.Stop("shutting down: told to stop") }, 503, stopping},
		{"stopping beats a failing check", func(r *Readiness) {
			r.SetCheck(func(context.Context) error { return errors.New("embedder unreachable") })
			r.Stop("shutting down: told to stop")
		}, 503, stopping},
		{"the first reason to stop stays", func(r *Readiness) {
			r.Stop("shutting down: told to stop")
			r.Stop("shutting down: a listener failed")
			r.Set(true)
		}, 503, stopping},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var ready Readiness
			tt.setup(&ready)
			srv := httptest.NewServer(NewLateManagement(&ready, slog.New(slog.DiscardHandler)))
			t.Cleanup(srv.Close)
			if r := do(t, "GET", srv.URL+"/ready", "", ""); r.status != tt.status || r.body != tt.body {
				t.Errorf("/ready: %d %s\nwant %d %s", r.status, r.body, tt.status, tt.body)
			}
		})
	}
}

// TestProfiling: /debug/pprof/ is served only with management.profiling on, and only to an
// admin token; with it off the path is a 404 that says how to turn it on.
func TestProfiling(t *testing.T) {
	t.Parallel()
	const adminTok, readTok = "adm-7f3c2a", "read-91be44"
	env := map[string]string{"ADMIN_TOKEN": adminTok, "READ_TOKEN": readTok}
	mgmt := func(profiling bool) string {
		return fmt.Sprintf(`
management:
  profiling: %t
  tokens:
    - {name: ops, token: env.ADMIN_TOKEN, role: admin}
    - {name: viewer, token: env.READ_TOKEN}
%s`, profiling, simModels)
	}
	on, off := newFixture(t, mgmt(true), env), newFixture(t, mgmt(false), env)

	tests := []struct {
		name, url, token string
		status           int
		contains         string
	}{
		{"index for admin", on.management + "/debug/pprof/", "Bearer " + adminTok, 200, "goroutine"},
		{"heap profile for admin", on.management + "/debug/pprof/heap?debug=1", "Bearer " + adminTok, 200, "heap profile"},
		{"cmdline for admin", on.management + "/debug/pprof/cmdline", "Bearer " + adminTok, 200, ""},
		{"no token", on.management + "/debug/pprof/heap", "", 401, `"code":"invalid_token"`},
		{"read token", on.management + "/debug/pprof/heap", "Bearer " + readTok, 403,
			`the token \"viewer\" has the read role; GET /debug/pprof/heap needs an admin token`},
		{"off", off.management + "/debug/pprof/heap", "Bearer " + adminTok, 404,
			`profiling is off; set management.profiling: true (it needs bearer auth and an admin token)`},
	}
	for _, tt := range tests {
		r := do(t, "GET", tt.url, tt.token, "")
		if r.status != tt.status || !strings.Contains(r.body, tt.contains) {
			t.Errorf("%s: %d %.300s\nwant %d containing %s", tt.name, r.status, r.body, tt.status, tt.contains)
		}
		if strings.Contains(r.body, adminTok) || strings.Contains(r.body, readTok) {
			t.Errorf("%s: the answer holds a token", tt.name)
		}
	}
}

// TestManagementSaysNothingToStrangers: with auth on, a request without a token gets 401 on
// every path but the probes and the wrong-port hint, unknown paths and wrong methods
// included, so that it learns neither the paths nor their methods; a token sees the 404 and
// the 405.
func TestManagementSaysNothingToStrangers(t *testing.T) {
	t.Parallel()
	f := newFixture(t, `
management:
  tokens:
    - {name: viewer, token: env.READ_TOKEN}
`+simModels, map[string]string{"READ_TOKEN": "read-5d1e"})
	const unauthorized = `{"error":{"message":"the management API needs a token from management.tokens: send it as Authorization: Bearer \u003ctoken\u003e","type":"authentication_error","param":null,"code":"invalid_token"}}` + "\n"
	tests := []struct {
		name, method, path, token string
		status                    int
		body                      string // the whole body, or "" to check the status only
	}{
		{"unknown path", "GET", "/nope", "", 401, unauthorized},
		{"wrong method", "GET", "/api/v1/classify", "", 401, unauthorized},
		{"another wrong method", "DELETE", "/api/v1/models", "", 401, unauthorized},
		{"health", "GET", "/health", "", 200, ""},
		{"ready", "GET", "/ready", "", 503, ""},
		{"the wrong-port hint", "POST", "/v1/chat/completions", "", 404, ""},
		{"unknown path with a token", "GET", "/nope", "Bearer read-5d1e", 404, ""},
		{"wrong method with a token", "DELETE", "/api/v1/models", "Bearer read-5d1e", 405, ""},
	}
	for _, tt := range tests {
		r := do(t, tt.method, f.management+tt.path, tt.token, "")
		if r.status != tt.status || (tt.body != "" && r.body != tt.body) {
			t.Errorf("%s: %d %s\nwant %d %s", tt.name, r.status, r.body, tt.status, tt.body)
		}
	}
}

// TestManagementAnswersHoldNoKey: a key that also appears outside its reference (here in
// the path of a base_url, where some gateways take it) is redacted from the effective config
// and the models' state.
func TestManagementAnswersHoldNoKey(t *testing.T) {
	t.Parallel()
	const key = "sk-PATHKEY-0123456789"
	f := newFixture(t, `
management: {auth: disabled}
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: http://127.0.0.1:9/`+key+`/v1, api_key: env.KEY}
`, map[string]string{"KEY": key})
	for _, path := range []string{"/api/v1/config", "/api/v1/models"} {
		r := do(t, "GET", f.management+path, "", "")
		if r.status != 200 || strings.Contains(r.body, key) || !strings.Contains(r.body, "http://127.0.0.1:9/[redacted]/v1") {
			t.Errorf("%s: %d %s", path, r.status, r.body)
		}
	}
}
