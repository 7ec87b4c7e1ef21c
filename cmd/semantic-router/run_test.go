package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/logtest"
)

func TestWithDefaultPort(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{in: "0.0.0.0", want: "0.0.0.0:8801"},
		{in: "0.0.0.0:9000", want: "0.0.0.0:9000"},
		{in: ":9000", want: ":9000"},
		{in: "router.local", want: "router.local:8801"},
		{in: "::1", want: "[::1]:8801"},
		{in: "[::1]", want: "[::1]:8801"},
		{in: "[::1]:9", want: "[::1]:9"},
		{in: "", err: "must not be empty"},
		{in: "http://x", err: `"http://x" is not a host or host:port`},
		{in: "host:http", err: `"host:http": port must be a number from 0 to 65535`},
	}
	for _, tt := range tests {
		got, err := withDefaultPort(tt.in, "8801")
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("withDefaultPort(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("withDefaultPort(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestRunInProcess runs the program in-process (so the race detector sees the whole
// request path), sends concurrent plain and streamed requests, then cancels and expects a
// clean return.
func TestRunInProcess(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &logtest.Buffer{}
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"-listener-address", "127.0.0.1:0", "-api-address", "127.0.0.1:0",
			"-metrics-address", "127.0.0.1:0", "-log-level", "debug"}, io.Discard, logs)
	}()
	addrs := map[string]string{}
	// The demo config builds the domain classifier and the jailbreak detector at start-up,
	// which takes seconds under the race detector on a small machine.
	deadline := time.Now().Add(90 * time.Second)
	for len(addrs) < 3 || !strings.Contains(logs.String(), `"msg":"ready"`) {
		select {
		case err := <-done:
			t.Fatalf("Run returned early: %v\n%s", err, logs)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready:\n%s", logs)
		}
		time.Sleep(5 * time.Millisecond)
		for _, line := range strings.Split(logs.String(), "\n") {
			var l struct{ Msg, Server, Address string }
			if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "listening" {
				addrs[l.Server] = l.Address
			}
		}
	}
	base := "http://" + addrs["inference"]
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := `{"model":"auto","messages":[{"role":"user","content":"hi"}]}`
			if i%2 == 0 {
				body = `{"model":"general","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`
			}
			resp, err := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(body))
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 {
				errs <- errors.New(string(b))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	resp, err := http.Get("http://" + addrs["metrics"] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`semantic_router_requests_total{code="200",endpoint="inference",model="auto"} 8`,
		`semantic_router_requests_total{code="200",endpoint="inference",model="general"} 8`,
		`semantic_router_tokens_total{model="general",type="completion"}`,
		`semantic_router_time_to_first_token_seconds_count{model="general"} 8`,
		`semantic_router_in_flight_requests{model="general"} 0`,
		// The collector's cost and target, which the heap floor sets.
		"go_gc_heap_live_bytes ",
		"go_gc_heap_goal_bytes ",
		"go_gc_scan_heap_bytes ",
		"go_cpu_classes_gc_total_cpu_seconds_total ",
		"go_gc_gogc_percent ",
		"process_cpu_seconds_total ",
	} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	// The listeners are the router's own servers: no redirect for a dot-segment path.
	if r := rawGet(t, addrs["inference"], "/../../etc/passwd"); !strings.HasPrefix(r, "HTTP/1.1 404 ") || strings.Contains(r, "Location:") {
		t.Errorf("GET /../../etc/passwd answered:\n%s", r)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if !strings.Contains(logs.String(), `"msg":"stopped"`) {
		t.Errorf("no stopped log line:\n%s", logs)
	}
}

// rawGet sends GET path over a plain connection, as written, and returns the raw answer.
func rawGet(t *testing.T, addr, path string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(c)
	return string(b)
}
