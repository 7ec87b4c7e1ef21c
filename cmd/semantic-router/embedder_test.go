package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/logtest"
)

// embeddingsServer answers the OpenAI embeddings API with a vector that says whether the
// text greets.
func embeddingsServer(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var items []string
	for i, text := range req.Input {
		v := "[0,1]"
		if strings.Contains(strings.ToLower(text), "hello") || strings.Contains(strings.ToLower(text), "morning") {
			v = "[1,0]"
		}
		items = append(items, fmt.Sprintf(`{"index":%d,"embedding":%s}`, i, v))
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"data":[%s]}`, strings.Join(items, ","))
}

// TestRemoteEmbedderDownAtStart starts the router while its remote embedder is down: it
// serves, /ready says why it is not ready, and requests that need no embedding are served
// while those that do fail cleanly; once the embedder answers, /ready is 200 and routing by
// embeddings works.
func TestRemoteEmbedderDownAtStart(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	embAddr := ln.Addr().String()
	ln.Close() // nothing listens there: connection refused
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	yaml := `
routing: {virtual_model: auto, default_model: general}
models:
  - model_name: general
    provider: {type: sim, model: sim-general, sim: {first_token_latency: 1ms, token_latency: 1ms}}
  - model_name: friendly
    provider: {type: sim, model: sim-friendly, sim: {first_token_latency: 1ms, token_latency: 1ms}}
signals:
  embedder: {type: remote, base_url: "http://` + embAddr + `/v1", model: emb, timeout: 2s}
  embeddings:
    - {name: greeting, examples: ["hello there", "good morning"], threshold: 0.9}
decisions:
  - name: greet
    priority: 10
    rules: {signal: greeting}
    models: [{model: friendly, weight: 1}]
management: {auth: disabled}
`
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &logtest.Buffer{}
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"-config", cfg, "-listener-address", "127.0.0.1:0", "-api-address", "127.0.0.1:0",
			"-metrics-address", "127.0.0.1:0"}, io.Discard, logs)
	}()
	addrs := map[string]string{}
	deadline := time.Now().Add(60 * time.Second)
	for len(addrs) < 3 || !strings.Contains(logs.String(), `"msg":"serving; not ready yet"`) {
		select {
		case err := <-done:
			t.Fatalf("Run returned while the embedder was down: %v\n%s", err, logs)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("not serving:\n%s", logs)
		}
		time.Sleep(5 * time.Millisecond)
		for _, line := range strings.Split(logs.String(), "\n") {
			var l struct{ Msg, Server, Address string }
			if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "listening" {
				addrs[l.Server] = l.Address
			}
		}
	}
	get := func(url string) (int, string) {
		t.Helper()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	post := func(model, text string) (int, string, string) {
		t.Helper()
		body := fmt.Sprintf(`{"model":%q,"messages":[{"role":"user","content":%q}]}`, model, text)
		resp, err := http.Post("http://"+addrs["inference"]+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("x-vsr-selected-model"), string(b)
	}

	ready := "http://" + addrs["management"] + "/ready"
	code, body := get(ready)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, `"reason":"signals.embedder: not answering yet: remote embedder: POST http://`+embAddr+`/v1/embeddings: `) {
		t.Fatalf("/ready while the embedder is down = %d %s", code, body)
	}
	// A request naming a model needs no embedding and is served.
	if code, model, body := post("general", "hello there"); code != http.StatusOK || model != "general" {
		t.Fatalf("direct request while the embedder is down = %d %q %s", code, model, body)
	}
	// Classifying needs the embedding: the signal shows the embedder's error.
	classify := func() (int, string) {
		t.Helper()
		resp, err := http.Post("http://"+addrs["management"]+"/api/v1/classify", "application/json", strings.NewReader(`{"text":"hello there"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := classify(); code != http.StatusOK || !strings.Contains(body, `"error":"embedding unavailable: `) || !strings.Contains(body, "remote embedder") {
		t.Fatalf("classify while the embedder is down = %d %s, want the signal's error naming the embedder", code, body)
	}
	// A request for auto is not routed by a signal that could not be computed.
	if _, model, body := post("auto", "hello there"); model == "friendly" {
		t.Fatalf("routed request while the embedder is down went to %q: %s", model, body)
	}

	ln, err = net.Listen("tcp", embAddr)
	if err != nil {
		t.Fatalf("listening again at %s: %v", embAddr, err)
	}
	emb := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(embeddingsServer)}}
	emb.Start()
	defer emb.Close()
	if code, body := get(ready); code != http.StatusOK {
		t.Fatalf("/ready once the embedder answers = %d %s", code, body)
	}
	// The log says it too, once, within the interval it checks at.
	notReady := `"msg":"serving; not ready yet","reason":"signals.embedder: not answering yet: remote embedder: POST http://` + embAddr + `/v1/embeddings: `
	if !strings.Contains(logs.String(), notReady) || strings.Contains(logs.String(), `"msg":"ready"`) && strings.Index(logs.String(), `"msg":"ready"`) < strings.Index(logs.String(), notReady) {
		t.Fatalf("start-up log while the embedder is down, want %s before any ready line:\n%s", notReady, logs)
	}
	waitUntil(t, "the ready line", func() bool { return strings.Count(logs.String(), `"msg":"ready"`) == 1 })
	if code, model, body := post("auto", "hello there"); code != http.StatusOK || model != "friendly" {
		t.Fatalf("routed greeting once the embedder answers = %d %q %s", code, model, body)
	}

	if code, body := classify(); code != http.StatusOK || !strings.Contains(body, `"greeting"`) {
		t.Fatalf("classify once the embedder answers = %d %s", code, body)
	}

	// Down mid-run: the signals that need it fail again; the rest goes on, and /ready stays
	// 200 (a replica is not taken out for an outage every replica shares).
	emb.Close()
	if code, body := classify(); code != http.StatusOK || !strings.Contains(body, `"error":"embedding unavailable: `) || !strings.Contains(body, "remote embedder") {
		t.Fatalf("classify after the embedder went down = %d %s, want the signal's error naming the embedder", code, body)
	}
	if _, model, body := post("auto", "hello there"); model == "friendly" {
		t.Fatalf("routed request after the embedder went down went to %q: %s", model, body)
	}
	if code, body := get(ready); code != http.StatusOK {
		t.Fatalf("/ready after the embedder went down = %d %s", code, body)
	}
	if code, model, body := post("general", "hello there"); code != http.StatusOK || model != "general" {
		t.Fatalf("direct request after the embedder went down = %d %q %s", code, model, body)
	}
	// A reload while it is down is refused; the running config keeps serving and ready.
	if err := os.WriteFile(cfg, []byte(strings.Replace(yaml, "default_model: general", "default_model: friendly", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post("http://"+addrs["management"]+"/api/v1/config/reload", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK || !strings.Contains(string(b), "remote embedder") {
		t.Fatalf("reload while the embedder is down = %d %s, want it refused naming the embedder", resp.StatusCode, b)
	}
	if code, body := get(ready); code != http.StatusOK {
		t.Fatalf("/ready after a refused reload = %d %s", code, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
}
