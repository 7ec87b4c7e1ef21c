package server

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestPanicIsRecoveredWithTheRequestID: a panicking handler gives its client a 500 envelope
// naming the request id, the log line carries the same id, and the server goes on serving.
func TestPanicIsRecoveredWithTheRequestID(t *testing.T) {
	t.Parallel()
	logs := &logBuffer{}
	log := slog.New(slog.NewJSONHandler(logs, nil))
	h := withRequestContext(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/boom" {
			var m map[string]int
			if r.Method == http.MethodGet {
				m = nil // a nil map write: a real runtime panic, as a bug would raise
			}
			m["x"]++ //nolint:staticcheck // the panic is the point of the test
		}
		_, _ = io.WriteString(w, "fine")
	}), log, nil, "inference")
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	req, _ := http.NewRequest("GET", srv.URL+"/boom", nil)
	req.Header.Set(HeaderRequestID, "req-panic-1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"error":{"message":"internal error; the request id is req-panic-1","type":"server_error","param":null,"code":null}}` + "\n"
	if resp.StatusCode != 500 || string(body) != want {
		t.Errorf("panic answered %d %s, want 500 %s", resp.StatusCode, body, want)
	}
	if l := logs.String(); !strings.Contains(l, `"msg":"panic serving request","request_id":"req-panic-1","panic":"assignment to entry in nil map"`) {
		t.Errorf("panic log line lacks the request id:\n%s", l)
	}
	if r := do(t, "GET", srv.URL+"/after", "", ""); r.status != 200 || r.body != "fine" {
		t.Errorf("after the panic: %d %s", r.status, r.body)
	}
}

// silentBackend streams one event, stays silent for gap, then streams a second and ends.
func silentBackend(t *testing.T, gap time.Duration) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 2 {
			if i == 1 {
				select { // the model thinking
				case <-time.After(gap):
				case <-r.Context().Done():
					return
				}
			}
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"e%d\"}}]}\n\n", i)
			w.(http.Flusher).Flush()
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestStreamKeepAlive(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		keepalive string
		wantMin   int
	}{
		{"comments while the upstream is silent", "100ms", 2},
		{"off", "0s", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, fmt.Sprintf(`
server: {stream_keepalive: %s}
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: %s/v1}
`, tt.keepalive, silentBackend(t, 450*time.Millisecond)), nil)
			r := do(t, "POST", f.inference+"/v1/chat/completions", "", chat("m", true))
			var events []string
			keepalives := 0
			for _, ev := range strings.Split(strings.TrimSpace(r.body), "\n\n") {
				if ev == ": keep-alive" {
					keepalives++
					continue
				}
				events = append(events, ev)
			}
			if r.status != 200 || len(events) != 3 || !strings.Contains(events[0], `"e0"`) || !strings.Contains(events[1], `"e1"`) || events[2] != "data: [DONE]" {
				t.Fatalf("events out of order or missing: %d %q", r.status, r.body)
			}
			if keepalives < tt.wantMin || (tt.wantMin == 0 && keepalives > 0) {
				t.Errorf("%d keep-alive comments, want at least %d (none when off): %q", keepalives, tt.wantMin, r.body)
			}
			if i := strings.Index(r.body, ": keep-alive"); tt.wantMin > 0 && (i < strings.Index(r.body, `"e0"`) || i > strings.Index(r.body, `"e1"`)) {
				t.Errorf("keep-alive outside the silence: %q", r.body)
			}
		})
	}
}
