package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/artifact"
	"github.com/semantic-router/semantic-router/internal/config"
)

// modelRepo serves one file, org/m@main/onnx/model.onnx, in the Hugging Face layout, to the
// bearer token "hf_token", and counts requests.
func modelRepo(t *testing.T) (*httptest.Server, *atomic.Int64, []byte) {
	t.Helper()
	data := bytes.Repeat([]byte("weights"), 1000)
	var n atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /org/m/resolve/main/{path...}", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if r.Header.Get("Authorization") != "Bearer hf_token" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if r.PathValue("path") != "onnx/model.onnx" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "model.onnx", time.Time{}, bytes.NewReader(data))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &n, data
}

func writeModelsConfig(t *testing.T, baseURL, path string) (cfgPath, dir string) {
	t.Helper()
	section, dir := artifactSection(t, "m", baseURL, path)
	cfgPath = filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfgPath, []byte("models:\n  - model_name: a\n    provider: {type: sim}\n"+section), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfgPath, dir
}

// artifactSection returns the artifacts section of a config naming one artifact, name: the
// file path of the repository org/m at baseURL, read with the token "hf_token" and saved as
// model.onnx in dir, a new directory.
func artifactSection(t *testing.T, name, baseURL, path string) (yaml, dir string) {
	t.Helper()
	tmp := t.TempDir()
	tokenFile := filepath.Join(tmp, "token")
	if err := os.WriteFile(tokenFile, []byte("hf_token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(tmp, "models", name)
	return fmt.Sprintf(`artifacts:
  - name: %s
    repository: org/m
    base_url: %s
    token: file:%s
    dir: %s
    files:
      - path: %s
        save_as: model.onnx
`, name, baseURL, tokenFile, dir, path), dir
}

func TestModelsPull(t *testing.T) {
	t.Parallel()
	srv, requests, data := modelRepo(t)
	cfgPath, dir := writeModelsConfig(t, srv.URL, "onnx/model.onnx")
	pull := func(extra ...string) (string, error) {
		var stdout, stderr bytes.Buffer
		err := Run(context.Background(), append([]string{"models", "pull", "-config", cfgPath, "-log-format", "text"}, extra...), &stdout, &stderr)
		return stdout.String(), err
	}
	out, err := pull()
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("m: ready in %s (1 downloaded, 0 already cached, %d bytes received)\n", dir, len(data)); out != want {
		t.Fatalf("stdout %q, want %q", out, want)
	}
	got, err := os.ReadFile(filepath.Join(dir, "model.onnx"))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("model.onnx: %d bytes, %v", len(got), err)
	}
	// A pod restart with the volume still there: nothing is fetched, online or offline.
	for _, extra := range [][]string{nil, {"-offline"}} {
		out, err := pull(extra...)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("m: ready in %s (0 downloaded, 1 already cached, 0 bytes received)\n", dir); out != want {
			t.Fatalf("stdout %q, want %q", out, want)
		}
	}
	if n := requests.Load(); n != 1 {
		t.Fatalf("%d requests; the warm runs should make none", n)
	}
}

func TestModelsPullFailsWithTheCause(t *testing.T) {
	t.Parallel()
	srv, _, _ := modelRepo(t)
	cfgPath, _ := writeModelsConfig(t, srv.URL, "model.onnx")
	var stdout, stderr bytes.Buffer
	err := Run(context.Background(), []string{"models", "pull", "-config", cfgPath}, &stdout, &stderr)
	cause := `artifact "m": model.onnx: 404 Not Found from ` + srv.URL +
		`: no file "model.onnx" at revision "main" of repository "org/m"; check the repository, the revision and the file's path`
	if want := "models pull: 1 of 1 artifacts not available:\n" + cause; err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	if errors.Is(err, errUsage) {
		t.Fatal("a failed pull is not a usage error (exit 1, not 2)")
	}
	if want := "m: FAILED: " + cause + "\n"; stdout.String() != want {
		t.Fatalf("stdout %q, want %q", stdout.String(), want)
	}
	if !strings.Contains(stderr.String(), `"msg":"artifact not available"`) {
		t.Fatalf("no log line of the failure:\n%s", stderr.String())
	}
}

func TestModelsUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"models"}, {"models", "push"}, {"models", "pull", "extra"}, {"models", "pull", "-log-format", "xml"}} {
		var stdout, stderr bytes.Buffer
		if err := Run(context.Background(), args, &stdout, &stderr); !errors.Is(err, errUsage) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := Run(context.Background(), []string{"models", "pull"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if want := "embedded demo config (examples/demo.yaml) names no artifacts; nothing to download\n"; stdout.String() != want {
		t.Fatalf("stdout %q", stdout.String())
	}
}

func TestPullAtStart(t *testing.T) {
	t.Parallel()
	srv, requests, _ := modelRepo(t)
	cfgPath, dir := writeModelsConfig(t, srv.URL, "onnx/model.onnx")
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	if err := pullArtifacts(context.Background(), &config.Config{}, true, log, nil); err != nil {
		t.Fatalf("no artifacts: %v", err)
	}
	var status artifact.Status
	err = pullArtifacts(context.Background(), cfg, true, log, &status)
	cause := `artifact "m": onnx/model.onnx: not in the cache (` + filepath.Join(dir, "model.onnx") +
		`) and downloads are off (-offline): run "semantic-router models pull" first, or start without -offline`
	if err == nil || err.Error() != "model artifacts:\n"+cause {
		t.Fatalf("offline, cold: %v", err)
	}
	if ok, why := status.Ready(); ok || why != cause {
		t.Fatalf("ready %t %q", ok, why)
	}
	if err := pullArtifacts(context.Background(), cfg, false, log, &status); err != nil {
		t.Fatal(err)
	}
	if ok, why := status.Ready(); !ok {
		t.Fatal(why)
	}
	if n := requests.Load(); n != 1 {
		t.Fatalf("%d requests", n)
	}
}
