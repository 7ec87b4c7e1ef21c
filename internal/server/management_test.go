package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
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

	// The check passes, the router is not marked ready yet: the plain reason.
	ready.SetCheck(func(context.Context) error { return nil })
	if r := do(t, "GET", srv.URL+"/ready", "", ""); r.status != 503 || r.body != `{"reason":"not ready","status":"not ready"}`+"\n" {
		t.Errorf("ready before Set(true): %d %s", r.status, r.body)
	}
	f := newFixture(t, simModels, nil)
	late.Set(f.mgmtH)
	if r := do(t, "GET", srv.URL+"/api/v1/models", "", ""); r.status != 200 {
		t.Errorf("models after Set: %d %s", r.status, r.body)
	}
}
