package router

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// TestCloseDropsIdleUpstreamConnections: a router that is closed (as the configuration a
// reload replaced is, after its last request) leaves no idle connection open to its
// backends, instead of a pool that lingers until the idle timeout on both sides.
func TestCloseDropsIdleUpstreamConnections(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	open := map[net.Conn]bool{}
	be := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"c","object":"chat.completion","created":1,"model":"up","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`))
	}))
	be.Config.ConnState = func(c net.Conn, s http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		switch s {
		case http.StateNew:
			open[c] = true
		case http.StateClosed, http.StateHijacked:
			delete(open, c)
		}
	}
	be.Start()
	t.Cleanup(be.Close)
	openConns := func() int { mu.Lock(); defer mu.Unlock(); return len(open) }

	cfg := "models:\n  - model_name: m\n    provider: {type: openai_compatible, base_url: " + be.URL + "/v1, model: up}\n"
	r := buildRouter(t, cfg, nil, Options{})
	if _, _, err := serve(r, &openai.ChatRequest{Model: "m", Messages: []openai.Message{{Role: "user", Content: openai.TextContent("hi")}}}); err != nil {
		t.Fatal(err)
	}
	if n := openConns(); n != 1 {
		t.Fatalf("after one answer the backend has %d connections open, want the 1 kept for the next request", n)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for openConns() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("after Close the backend still has %d connections open", openConns())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
