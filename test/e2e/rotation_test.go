package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/provider/sim"
)

// keyedBackend is an OpenAI-compatible server that accepts a changeable set of API keys and
// counts the requests each key carried.
type keyedBackend struct {
	*httptest.Server
	mu    sync.Mutex
	keys  map[string]bool
	count map[string]int
}

func newKeyedBackend(t *testing.T, keys ...string) *keyedBackend {
	b := &keyedBackend{count: map[string]int{}}
	b.setKeys(keys...)
	h := sim.Handler(sim.Options{Model: "up"})
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		b.mu.Lock()
		ok := b.keys[key]
		if ok {
			b.count[key]++
		}
		b.mu.Unlock()
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":{"message":"invalid API key"}}`)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(b.Close)
	return b
}

func (b *keyedBackend) setKeys(keys ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.keys = map[string]bool{}
	for _, k := range keys {
		b.keys[k] = true
	}
}

func (b *keyedBackend) used(key string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.count[key]
}

// writeSecretVersion lays out a mounted Kubernetes Secret the way the kubelet does: the key
// is a symlink into ..data, itself a symlink to a timestamped directory that is swapped
// atomically on update.
func writeSecretVersion(t *testing.T, dir, version, key string) {
	t.Helper()
	vdir := filepath.Join(dir, "..2026_11_29_"+version)
	if err := os.MkdirAll(vdir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(vdir, "api-key"), []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "..data_tmp")
	if err := os.Symlink(filepath.Base(vdir), tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "api-key")
	if _, err := os.Lstat(link); os.IsNotExist(err) {
		if err := os.Symlink("..data/api-key", link); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFileKeyRotatesWithoutRestart follows the guide's rotation procedure on a mounted
// Secret while traffic flows: the backend learns the new key, the Secret is updated (the
// kubelet's symlink swap), the new key is confirmed in use, and only then is the old one
// revoked. No request may fail, and requests after the swap carry the new key.
func TestFileKeyRotatesWithoutRestart(t *testing.T) {
	t.Parallel()
	const oldKey, newKey = "sk-old-rotation-1111", "sk-new-rotation-2222"
	be := newKeyedBackend(t, oldKey)
	dir := t.TempDir()
	writeSecretVersion(t, dir, "1", oldKey)
	r := startRouter(t, fmt.Sprintf(`
models:
  - model_name: chat
    provider: {type: openai_compatible, base_url: %s/v1, api_key: "file:%s/api-key"}
`, be.URL, dir))

	var sent, failed atomic.Int64
	var firstFailure atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				body := chatBody
				if i%2 == 1 {
					body = strings.Replace(chatBody, `{`, `{"stream":true,`, 1)
				}
				resp, err := http.Post(r.Inference+"/v1/chat/completions", "application/json", strings.NewReader(body))
				if err != nil {
					failed.Add(1)
					firstFailure.CompareAndSwap(nil, err.Error())
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				sent.Add(1)
				if resp.StatusCode != 200 || (i%2 == 1 && !strings.Contains(string(b), "data: [DONE]")) {
					failed.Add(1)
					firstFailure.CompareAndSwap(nil, fmt.Sprintf("%d %s", resp.StatusCode, b))
				}
			}
		}()
	}
	waitFor(t, "traffic with the old key", func() bool { return be.used(oldKey) >= 20 })

	be.setKeys(oldKey, newKey)                                                     // 1. the provider accepts the new key
	writeSecretVersion(t, dir, "2", newKey)                                        // 2. the Secret is updated
	waitFor(t, "the new key in use", func() bool { return be.used(newKey) >= 20 }) // 3. confirmed
	be.setKeys(newKey)                                                             // 4. the old key is revoked
	before := be.used(newKey)
	waitFor(t, "traffic after the revocation", func() bool { return be.used(newKey) >= before+20 })
	close(stop)
	wg.Wait()

	if f := failed.Load(); f > 0 {
		t.Fatalf("%d of %d requests failed during the rotation; first: %v", f, sent.Load(), firstFailure.Load())
	}
	_, metrics := do(t, "GET", r.Metrics+"/metrics", "")
	if want := fmt.Sprintf(`semantic_router_credential_rotations_total{ref="file:%s/api-key"} 1`, dir); !strings.Contains(string(metrics), want) {
		t.Errorf("metrics lack %s", want)
	}
	r.Stop()
	logs := r.logs.String()
	if !strings.Contains(logs, `"msg":"credential rotated"`) || strings.Contains(logs, newKey) || strings.Contains(logs, oldKey) {
		t.Errorf("want one rotation log line without the value:\n%s", logs)
	}
	t.Logf("%d requests, none failed; %d carried the new key", sent.Load(), be.used(newKey))
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
