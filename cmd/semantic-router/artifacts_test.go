package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/logtest"
)

// heldRepo serves org/m@main/onnx/model.onnx in the Hugging Face layout, to the bearer token
// "hf_token", like modelRepo, but sends only the first half of the file until release is
// called. It counts requests.
type heldRepo struct {
	srv      *httptest.Server
	data     []byte
	requests atomic.Int64
	held     chan struct{}
	once     sync.Once
}

func newHeldRepo(t *testing.T) *heldRepo {
	t.Helper()
	h := &heldRepo{data: bytes.Repeat([]byte("weights"), 1000), held: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /org/m/resolve/main/{path...}", func(w http.ResponseWriter, r *http.Request) {
		h.requests.Add(1)
		if r.Header.Get("Authorization") != "Bearer hf_token" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if r.PathValue("path") != "onnx/model.onnx" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Content-Length", strconv.Itoa(len(h.data)))
		half := len(h.data) / 2
		_, _ = w.Write(h.data[:half])
		w.(http.Flusher).Flush()
		select {
		case <-h.held:
		case <-r.Context().Done():
			return
		}
		_, _ = w.Write(h.data[half:])
	})
	h.srv = httptest.NewServer(mux)
	t.Cleanup(func() { h.release(); h.srv.Close() })
	return h
}

// release lets every held and later response send the rest of the file.
func (h *heldRepo) release() { h.once.Do(func() { close(h.held) }) }

// probe answers GET path on the running program's server with the status and body.
func probe(t *testing.T, r *running, server, path string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + r.addrs[server] + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestReadyWhileDownloadingAtStart: the router serves while the artifacts download: /ready
// says which file and how far, /health is 200, and requests that need no model still
// downloading are answered; once the file is complete the router becomes ready.
func TestReadyWhileDownloadingAtStart(t *testing.T) {
	t.Parallel()
	hub := newHeldRepo(t)
	cfgPath, dir := writeModelsConfig(t, hub.srv.URL, "onnx/model.onnx")
	r := launch(t, "-config", cfgPath)
	waitUntil(t, "the management API listens", func() bool { return r.listening(t)["management"] != "" })

	downloading := `{"reason":"artifact \"m\": downloading onnx/model.onnx (3.4 KiB of 6.8 KiB)","status":"not ready"}` + "\n"
	waitUntil(t, "/ready reports the held download", func() bool {
		code, body := probe(t, r, "management", "/ready")
		return code == http.StatusServiceUnavailable && body == downloading
	})
	if code, body := probe(t, r, "management", "/health"); code != http.StatusOK || body != `{"status":"ok"}`+"\n" {
		t.Errorf("/health while downloading: %d %s", code, body)
	}
	waitUntil(t, "the inference listener listens", func() bool { return r.listening(t)["inference"] != "" })
	if code, body := chatTo(t, r, "a"); code != http.StatusOK {
		t.Errorf("a request that needs no artifact, while one downloads: %d %s", code, body)
	}

	// The log tells what /ready does: not "ready" while the file downloads.
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(r.logs.String(), `"msg":"serving; not ready yet","reason":"artifact \"m\": `) {
		if time.Now().After(deadline) {
			t.Fatalf("no not-ready line:\n%s", r.logs)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if strings.Contains(r.logs.String(), `"msg":"ready"`) {
		t.Errorf("the log says ready while the artifact downloads:\n%s", r.logs)
	}

	hub.release()
	waitUntil(t, "ready after the download", func() bool {
		code, _ := probe(t, r, "management", "/ready")
		return code == http.StatusOK
	})
	waitUntil(t, "the ready line", func() bool { return strings.Contains(r.logs.String(), `"msg":"ready"`) })
	if _, body := probe(t, r, "management", "/ready"); body != `{"status":"ready"}`+"\n" {
		t.Errorf("/ready after the download: %s", body)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "model.onnx")); err != nil || !bytes.Equal(got, hub.data) {
		t.Errorf("model.onnx: %d bytes, %v", len(got), err)
	}
	if n := hub.requests.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// chatTo sends a one-message chat request for model to the running program's inference
// listener and returns the status and body.
func chatTo(t *testing.T, r *running, model string) (int, string) {
	t.Helper()
	body := `{"model":"` + model + `","messages":[{"role":"user","content":"What is the derivative of x squared?"}]}`
	resp, err := http.Post("http://"+r.addrs["inference"]+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServesWhileTheEmbedderDownloads: the onnx embedder's model is an artifact still
// downloading. A request whose decisions need embeddings is refused with the download's
// progress as the reason; a request that names a model, with no policy needing them, is
// served.
func TestServesWhileTheEmbedderDownloads(t *testing.T) {
	t.Parallel()
	hub := newHeldRepo(t)
	section, _ := artifactSection(t, "m", hub.srv.URL, "onnx/model.onnx")
	cfgPath := filepath.Join(t.TempDir(), "config.yaml")
	cfg := `models:
  - model_name: a
    provider: {type: sim}
signals:
  embedder: {type: onnx, model_dir: "artifact:m"}
  domains:
    - {name: stem, categories: [math]}
decisions:
  - {name: stem, rules: {signal: stem}, on_error: refuse, models: [{model: a}]}
` + section
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	r := launch(t, "-config", cfgPath)
	waitUntil(t, "the inference listener listens", func() bool { return r.listening(t)["inference"] != "" })
	waitUntil(t, "the download is held", func() bool { return hub.requests.Load() == 1 })
	want := `{"error":{"message":"the request was not sent to a model: policy \"stem\" could not be checked because signal \"stem\" could not be computed (the model is not loaded yet: artifact \"m\": downloading onnx/model.onnx (3.4 KiB of 6.8 KiB)); try again later","type":"server_error","param":null,"code":"policy_unavailable"}}` + "\n"
	waitUntil(t, "a routed request names the download", func() bool {
		code, body := chatTo(t, r, "auto")
		return code == http.StatusServiceUnavailable && body == want
	})
	if code, body := chatTo(t, r, "a"); code != http.StatusOK {
		t.Errorf("a request naming the model: %d %s", code, body)
	}
}

// TestStartFailsOnAFailedDownload: a download that fails at start-up stops the program with
// the cause.
func TestStartFailsOnAFailedDownload(t *testing.T) {
	t.Parallel()
	hub := newHeldRepo(t)
	cfgPath, _ := writeModelsConfig(t, hub.srv.URL, "model.onnx")
	err := Run(context.Background(), []string{"-config", cfgPath, "-listener-address", "127.0.0.1:0", "-api-address", "127.0.0.1:0",
		"-metrics-address", "127.0.0.1:0"}, io.Discard, io.Discard)
	want := `model artifacts:
artifact "m": model.onnx: 404 Not Found from ` + hub.srv.URL + `: no file "model.onnx" at revision "main" of repository "org/m"; check the repository, the revision and the file's path`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}

// TestReloadDownloadsArtifacts: a reloaded config naming an artifact not in the cache is
// applied once the file is downloaded, the old config serving meanwhile; a download that
// fails refuses the reload with the cause.
func TestReloadDownloadsArtifacts(t *testing.T) {
	t.Parallel()
	hub := newHeldRepo(t)
	cm := &configMap{dir: t.TempDir()}
	cm.publish(t, reloadConfig("first"))
	r := start(t, "-config", filepath.Join(cm.dir, "config.yaml"))

	section, dir := artifactSection(t, "m", hub.srv.URL, "onnx/model.onnx")
	cm.publish(t, reloadConfig("second")+section)
	waitUntil(t, "the reload downloads", func() bool { return hub.requests.Load() == 1 })
	if _, body := probe(t, r, "management", "/api/v1/config"); !strings.Contains(body, "first one two") {
		t.Errorf("the old config does not serve during the download: %s", body)
	}
	if code, _ := probe(t, r, "management", "/ready"); code != http.StatusOK {
		t.Errorf("/ready during a reload's download: %d, want 200 (the old config serves)", code)
	}
	hub.release()
	waitUntil(t, "the new config serves", func() bool {
		_, body := probe(t, r, "management", "/api/v1/config")
		return strings.Contains(body, "second one two")
	})
	if got, err := os.ReadFile(filepath.Join(dir, "model.onnx")); err != nil || !bytes.Equal(got, hub.data) {
		t.Errorf("model.onnx: %d bytes, %v", len(got), err)
	}

	missing, _ := artifactSection(t, "other", hub.srv.URL, "onnx/missing.onnx")
	cm.publish(t, reloadConfig("third")+missing)
	cause := `model artifacts:\nartifact \"other\": onnx/missing.onnx: 404 Not Found from ` + hub.srv.URL +
		`: no file \"onnx/missing.onnx\" at revision \"main\" of repository \"org/m\"; check the repository, the revision and the file's path`
	waitUntil(t, "the reload is refused with the cause", func() bool {
		return strings.Contains(r.logs.String(), `"msg":"config reload refused; the previous config keeps serving","config":"`+
			filepath.Join(cm.dir, "config.yaml")+`","error":"`+cause+`"`)
	})
	resp, err := http.Post("http://"+r.addrs["management"]+"/api/v1/config/reload", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `the new configuration was refused and the old one keeps serving:\n` + cause; resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(b), want) {
		t.Errorf("reload API: %d %s\nwant the message %s", resp.StatusCode, b, want)
	}
	if _, body := probe(t, r, "management", "/api/v1/config"); !strings.Contains(body, "second one two") {
		t.Errorf("the previous config does not serve after the refused reload: %s", body)
	}
}

// TestReloadOfflineRefusesMissingArtifact: with -offline a reload whose artifact is not in
// the cache is refused without any request.
func TestReloadOfflineRefusesMissingArtifact(t *testing.T) {
	t.Parallel()
	hub := newHeldRepo(t)
	cm := &configMap{dir: t.TempDir()}
	cm.publish(t, reloadConfig("first"))
	r := start(t, "-offline", "-config", filepath.Join(cm.dir, "config.yaml"))

	section, dir := artifactSection(t, "m", hub.srv.URL, "onnx/model.onnx")
	cm.publish(t, reloadConfig("second")+section)
	cause := fmt.Sprintf(`model artifacts:\nartifact \"m\": onnx/model.onnx: not in the cache (%s) and downloads are off (-offline): `+
		`run \"semantic-router models pull\" first, or start without -offline`, filepath.Join(dir, "model.onnx"))
	resp, err := http.Post("http://"+r.addrs["management"]+"/api/v1/config/reload", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `the new configuration was refused and the old one keeps serving:\n` + cause; resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(b), want) {
		t.Errorf("reload API: %d %s\nwant the message %s", resp.StatusCode, b, want)
	}
	if _, body := probe(t, r, "management", "/api/v1/config"); !strings.Contains(body, "first one two") {
		t.Errorf("the previous config does not serve after the refused reload: %s", body)
	}
	if n := hub.requests.Load(); n != 0 {
		t.Errorf("%d requests with -offline, want 0", n)
	}
}

// TestStopWhileDownloading: a stop (SIGTERM) during the download at start-up ends the program
// cleanly, keeping the part for the next start to resume.
func TestStopWhileDownloading(t *testing.T) {
	t.Parallel()
	hub := newHeldRepo(t)
	cfgPath, dir := writeModelsConfig(t, hub.srv.URL, "onnx/model.onnx")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &logtest.Buffer{}
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"-config", cfgPath, "-listener-address", "127.0.0.1:0", "-api-address", "127.0.0.1:0",
			"-metrics-address", "127.0.0.1:0"}, io.Discard, logs)
	}()
	part := filepath.Join(dir, "model.onnx.part")
	waitUntil(t, "half the file is in the part", func() bool {
		fi, err := os.Stat(part)
		return err == nil && fi.Size() == int64(len(hub.data)/2)
	})
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v\n%s", err, logs)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if _, err := os.Stat(part); err != nil {
		t.Errorf("the part was not kept: %v", err)
	}
}
