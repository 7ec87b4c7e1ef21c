package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/logtest"
)

// running is the program started in-process by start or launch.
type running struct {
	addrs map[string]string
	logs  *logtest.Buffer
	done  chan error
}

// start runs the program with args plus loopback addresses until the test ends, and returns
// once it serves: ready, or saying why not yet (a model still downloading).
func start(t *testing.T, args ...string) *running {
	t.Helper()
	r := launch(t, args...)
	waitUntil(t, "serving", func() bool {
		logs := r.logs.String()
		return len(r.listening(t)) == 3 && (strings.Contains(logs, `"msg":"ready"`) || strings.Contains(logs, `"msg":"serving; not ready yet"`))
	})
	return r
}

// launch runs the program with args plus loopback addresses until the test ends, and
// returns at once.
func launch(t *testing.T, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{addrs: map[string]string{}, logs: &logtest.Buffer{}, done: make(chan error, 1)}
	go func() {
		r.done <- Run(ctx, append([]string{"-listener-address", "127.0.0.1:0", "-api-address", "127.0.0.1:0",
			"-metrics-address", "127.0.0.1:0"}, args...), io.Discard, r.logs)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-r.done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Run did not return after cancel")
		}
	})
	return r
}

// listening reads the addresses the program listens on from its log; it fails the test if
// the program has returned.
func (r *running) listening(t *testing.T) map[string]string {
	t.Helper()
	select {
	case err := <-r.done:
		r.done <- err // for the clean-up
		t.Fatalf("Run returned early: %v\n%s", err, r.logs)
	default:
	}
	for _, line := range strings.Split(r.logs.String(), "\n") {
		var l struct{ Msg, Server, Address string }
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "listening" {
			r.addrs[l.Server] = l.Address
		}
	}
	return r.addrs
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	// Generous: a loaded CI machine with the race detector is slow to start a router.
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (r *running) get(t *testing.T, server, path string) string {
	t.Helper()
	resp, err := http.Get("http://" + r.addrs[server] + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// configMap writes config files the way the kubelet does: each version in its own
// directory, ..data a symlink to the current one, config.yaml a symlink through ..data.
type configMap struct {
	dir string
	n   int
}

func (c *configMap) publish(t *testing.T, content string) {
	t.Helper()
	c.n++
	version := fmt.Sprintf("..v%d", c.n)
	if err := os.Mkdir(filepath.Join(c.dir, version), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.dir, version, "config.yaml"), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(c.dir, "..data_tmp")
	if err := os.Symlink(version, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(c.dir, "..data")); err != nil { // the atomic swap
		t.Fatal(err)
	}
	if c.n == 1 {
		if err := os.Symlink("..data/config.yaml", filepath.Join(c.dir, "config.yaml")); err != nil {
			t.Fatal(err)
		}
	}
}

func reloadConfig(reply string) string {
	return fmt.Sprintf(`management: {auth: disabled}
models:
  - model_name: general
    provider:
      type: sim
      sim: {first_token_latency: 1ms, token_latency: 3ms, reply: "%s one two three four five six seven eight"}
`, reply)
}

// TestHotReload swaps a ConfigMap-style config under constant traffic of plain and streamed
// requests: the valid change is applied with no failed request (streams that started on the
// old config finish on it), the invalid one is refused, counted and logged, and the old
// config keeps serving; SIGHUP and the reload API do the same on demand.
func TestHotReload(t *testing.T) {
	cm := &configMap{dir: t.TempDir()}
	cm.publish(t, reloadConfig("first"))
	r := start(t, "-config", filepath.Join(cm.dir, "config.yaml"))
	url := "http://" + r.addrs["inference"] + "/v1/chat/completions"

	var (
		stop     atomic.Bool
		wg       sync.WaitGroup
		mu       sync.Mutex
		failures []string
		sawNew   atomic.Bool
		requests atomic.Int64
	)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				stream := i%2 == 0
				resp, err := http.Post(url, "application/json", strings.NewReader(
					fmt.Sprintf(`{"model":"general","stream":%t,"messages":[{"role":"user","content":"hi"}]}`, stream)))
				if err != nil {
					mu.Lock()
					failures = append(failures, err.Error())
					mu.Unlock()
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				requests.Add(1)
				if resp.StatusCode != 200 || (stream && !strings.HasSuffix(string(b), "data: [DONE]\n\n")) {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%d %s", resp.StatusCode, b))
					mu.Unlock()
				}
				if strings.Contains(string(b), "second") {
					sawNew.Store(true)
				}
			}
		}()
	}
	waitUntil(t, "traffic flows", func() bool { return requests.Load() > 20 })
	cm.publish(t, reloadConfig("second"))
	waitUntil(t, "the new config serves", sawNew.Load)
	waitUntil(t, "the old config drained", func() bool { return strings.Contains(r.logs.String(), "previous config drained and closed") })

	cm.publish(t, reloadConfig("third")+"    timeout: soon\n  - model_name: general\n    provider: {type: sim}\n")
	metric := func(result string) bool {
		return strings.Contains(r.get(t, "metrics", "/metrics"), fmt.Sprintf(`semantic_router_config_reloads_total{result=%q} 1`, result))
	}
	waitUntil(t, "the invalid config is counted", func() bool { return metric("invalid") })
	before := requests.Load()
	waitUntil(t, "traffic goes on", func() bool { return requests.Load() > before+20 })
	stop.Store(true)
	wg.Wait()
	if len(failures) > 0 {
		t.Errorf("%d of %d requests failed during the reloads, first: %s", len(failures), requests.Load(), failures[0])
	}
	if body := r.get(t, "management", "/api/v1/config"); !strings.Contains(body, "second one two") {
		t.Errorf("the old config does not serve after the refused reload: %s", body)
	}
	logs := r.logs.String()
	for _, want := range []string{
		`"msg":"config problem","config":"` + filepath.Join(cm.dir, "config.yaml") + `","problem":"models[0].timeout (line 7): must be a duration such as \"30s\", not \"soon\""`,
		`"problem":"models[1].model_name (line 8): duplicate model_name \"general\" (first defined at models[0])"`,
		`"msg":"config reload refused; the previous config keeps serving"`,
	} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %s", want)
		}
	}

	// On demand: the API answers with every problem; SIGHUP reloads (and refuses) too.
	resp, err := http.Post("http://"+r.addrs["management"]+"/api/v1/config/reload", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 422 || !strings.Contains(string(b), `the new configuration was refused and the old one keeps serving:\nmodels[0].timeout (line 7)`) {
		t.Errorf("reload API: %d %s", resp.StatusCode, b)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "SIGHUP reloads", func() bool { return strings.Contains(r.logs.String(), `"msg":"SIGHUP: reloading the config"`) })
	// A config that parses but whose model cannot be registered is refused too, and the
	// registration gauge goes on describing the config that serves.
	cm.publish(t, reloadConfig("ghostly")+"  - model_name: ghost\n    provider: {type: openai_compatible, base_url: http://x:1/v1, api_key: env.SR_TEST_UNSET_KEY}\n")
	waitUntil(t, "the unregistrable config is refused", func() bool {
		return strings.Contains(r.get(t, "metrics", "/metrics"), `semantic_router_config_reloads_total{result="invalid"} 4`)
	})
	if m := r.get(t, "metrics", "/metrics"); strings.Contains(m, `model="ghost"`) || !strings.Contains(m, `semantic_router_model_registered{model="general",provider="sim"} 1`) {
		t.Errorf("the refused config touched the registration gauge:\n%s", grepLines(m, "model_registered"))
	}
	// The unreadable reference is a config problem, at its field and line, like any other.
	if !strings.Contains(r.logs.String(), `"msg":"config problem","config":"`) ||
		!strings.Contains(r.logs.String(), `"problem":"models[1].provider.api_key (line 8): env.SR_TEST_UNSET_KEY: environment variable SR_TEST_UNSET_KEY is not set`) {
		t.Errorf("the registration failure is not logged as a config problem:\n%s", grepLines(r.logs.String(), "SR_TEST_UNSET_KEY"))
	}
	cm.publish(t, reloadConfig("fourth"))
	waitUntil(t, "a valid config after an invalid one applies", func() bool {
		return strings.Contains(r.get(t, "management", "/api/v1/config"), "fourth one two")
	})
	if m := r.get(t, "metrics", "/metrics"); !strings.Contains(m, `semantic_router_config_reloads_total{result="applied"} 2`) {
		t.Errorf("applied reloads not counted:\n%s", grepLines(m, "config_reloads"))
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestTokensThroughRun checks the wiring of client keys and management tokens in the program:
// probes open, everything else behind its token, and the reload API for admins only.
func TestTokensThroughRun(t *testing.T) {
	t.Setenv("SR_TEST_ADMIN_TOKEN", "admin-tok-123456")
	t.Setenv("SR_TEST_CLIENT_KEY", "sk-client-123456")
	path := filepath.Join(t.TempDir(), "config.yaml")
	cfg := `admission:
  api_keys: [{name: app, key: env.SR_TEST_CLIENT_KEY}]
management:
  tokens: [{name: ops, token: env.SR_TEST_ADMIN_TOKEN, role: admin}]
models:
  - model_name: general
    provider: {type: sim}
`
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	r := start(t, "-config", path)
	send := func(method, server, path, token string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, "http://"+r.addrs[server]+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, tt := range []struct {
		method, server, path, token string
		want                        int
		body                        string
	}{
		{"GET", "management", "/health", "", 200, `"ok"`},
		{"GET", "management", "/ready", "", 200, `"ready"`},
		{"GET", "management", "/api/v1/models", "", 401, "invalid_token"},
		{"GET", "management", "/api/v1/models", "sk-client-123456", 401, "invalid_token"},
		{"GET", "management", "/api/v1/models", "admin-tok-123456", 200, `"name":"general"`},
		{"POST", "management", "/api/v1/config/reload", "admin-tok-123456", 200, `{"status":"unchanged"}`},
		{"GET", "inference", "/v1/models", "", 401, "invalid_api_key"},
		{"GET", "inference", "/v1/models", "admin-tok-123456", 401, "invalid_api_key"},
		{"GET", "inference", "/v1/models", "sk-client-123456", 200, `"id":"general"`},
	} {
		if code, body := send(tt.method, tt.server, tt.path, tt.token); code != tt.want || !strings.Contains(body, tt.body) {
			t.Errorf("%s %s %s with %q: %d %s, want %d with %s", tt.method, tt.server, tt.path, tt.token, code, body, tt.want, tt.body)
		}
	}
	if err := os.WriteFile(path, []byte(strings.Replace(cfg, "type: sim", "type: sim, sim: {reply: changed}", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	// The watcher may get there first; either way the change is applied exactly once.
	code, body := send("POST", "management", "/api/v1/config/reload", "admin-tok-123456")
	if code != 200 || (body != `{"status":"applied"}`+"\n" && body != `{"status":"unchanged"}`+"\n") {
		t.Errorf("reload after a change: %d %s", code, body)
	}
	waitUntil(t, "the change serves", func() bool {
		_, body := send("GET", "management", "/api/v1/config", "admin-tok-123456")
		return strings.Contains(body, `"reply":"changed"`)
	})
	if logs := r.logs.String(); strings.Contains(logs, "admin-tok-123456") || strings.Contains(logs, "sk-client-123456") {
		t.Error("a token or key appears in the logs")
	}
}

// TestReloadIgnoresOtherFiles: a log written next to the config, line after line, neither
// triggers reloads nor holds back a change to the config itself.
func TestReloadIgnoresOtherFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "router.yaml")
	if err := os.WriteFile(path, []byte(reloadConfig("first")), 0o600); err != nil {
		t.Fatal(err)
	}
	r := start(t, "-config", path)
	reloads := func() string {
		return grepLines(r.get(t, "metrics", "/metrics"), "semantic_router_config_reloads_total{")
	}

	log, err := os.Create(filepath.Join(dir, "router.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	done := make(chan struct{})
	var writer sync.WaitGroup
	writer.Add(1)
	go func() { // a line every 20 ms, well inside the reload's debounce
		defer writer.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				_, _ = log.WriteString(`{"msg":"request"}` + "\n")
			}
		}
	}()
	defer func() { close(done); writer.Wait() }()

	// An editor saves by writing a temporary file and renaming it onto the config.
	tmp := filepath.Join(dir, ".router.yaml.swp")
	if err := os.WriteFile(tmp, []byte(reloadConfig("second")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the change applies while the log is written", func() bool {
		return strings.Contains(r.get(t, "management", "/api/v1/config"), "second one two")
	})
	want := `semantic_router_config_reloads_total{result="applied"} 1
semantic_router_config_reloads_total{result="invalid"} 0
semantic_router_config_reloads_total{result="unchanged"} 0`
	if got := reloads(); got != want {
		t.Errorf("reloads after one change with a log written beside it:\n%s", got)
	}
}

// TestReloadKeepsWhatTakesARestart: a reload that changes the listeners' settings applies
// the rest, keeps those in force (and /api/v1/config shows them), and warns that they take a
// restart; max_request_body_bytes follows the reload.
func TestReloadKeepsWhatTakesARestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.yaml")
	base := "management: {auth: disabled}\nmodels:\n  - model_name: m\n    provider: {type: sim}\n"
	if err := os.WriteFile(path, []byte(base), 0o600); err != nil {
		t.Fatal(err)
	}
	r := start(t, "-config", path)
	if err := os.WriteFile(path, []byte(base+"server:\n  read_timeout: 30s\n  max_request_body_bytes: 1024\n  h2c: false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the reload", func() bool { return strings.Contains(r.logs.String(), `"msg":"config reloaded"`) })
	var cfg struct {
		Server struct {
			ReadTimeout         string `json:"read_timeout"`
			MaxRequestBodyBytes int64  `json:"max_request_body_bytes"`
			H2C                 bool   `json:"h2c"`
		} `json:"server"`
	}
	if err := json.Unmarshal([]byte(r.get(t, "management", "/api/v1/config")), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Server.ReadTimeout != "1m0s" || cfg.Server.MaxRequestBodyBytes != 1024 || !cfg.Server.H2C {
		t.Errorf("effective config: read_timeout %s, max_request_body_bytes %d, h2c %t; want 1m0s and true (in force until a restart) and 1024",
			cfg.Server.ReadTimeout, cfg.Server.MaxRequestBodyBytes, cfg.Server.H2C)
	}
	for _, want := range []string{
		`"msg":"setting takes a restart","config":"` + path + `","warning":"server.read_timeout (line 6): 30s takes a restart; 1m0s stays in force until then"`,
		`"msg":"setting takes a restart","config":"` + path + `","warning":"server.h2c (line 8): false takes a restart; true stays in force until then"`,
	} {
		if !strings.Contains(r.logs.String(), want) {
			t.Errorf("logs lack %s:\n%s", want, r.logs.String())
		}
	}
}

// TestReloadReplacesOneWaitingForArtifacts: a reload waiting for a model that downloads
// slowly does not hold the config: a newer change replaces it at once, and the content that
// was replaced never applies.
func TestReloadReplacesOneWaitingForArtifacts(t *testing.T) {
	t.Parallel()
	slow, _ := slowModelServer(t)
	path := filepath.Join(t.TempDir(), "config.yaml")
	write := func(content string) {
		t.Helper()
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	write(reloadConfig("first"))
	r := start(t, "-config", path)
	section, _ := artifactSection(t, "m", slow.URL, "onnx/model.onnx")
	write(reloadConfig("second") + section)
	const checking = `"msg":"config reload: checking the new config's model artifacts; the current config serves meanwhile"`
	waitUntil(t, "the reload waits for the model", func() bool { return strings.Count(r.logs.String(), checking) == 1 })
	// A reload asked for meanwhile replaces the watcher's and waits too, until it is replaced
	// in turn: its caller is told so, not that the configuration was refused.
	asked := make(chan string, 1)
	go func() {
		resp, err := http.Post("http://"+r.addrs["management"]+"/api/v1/config/reload", "", nil)
		if err != nil {
			asked <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		asked <- fmt.Sprintf("%d %s", resp.StatusCode, b)
	}()
	waitUntil(t, "the asked reload waits for the model", func() bool { return strings.Count(r.logs.String(), checking) == 2 })
	write(reloadConfig("third"))
	if got, want := <-asked, `409 {"error":{"message":"a newer reload (a change of the file, SIGHUP or another call) replaced this one while it waited; the newest configuration is applied instead","type":"invalid_request_error","param":null,"code":"reload_replaced"}}`; strings.TrimSpace(got) != want {
		t.Errorf("the replaced reload call got %s\nwant %s", got, want)
	}
	waitUntil(t, "the newer change applies", func() bool {
		return strings.Contains(r.get(t, "management", "/api/v1/config"), "third one two")
	})
	waitUntil(t, "the replaced reload is logged", func() bool {
		return strings.Contains(r.logs.String(), `"msg":"config reload replaced by a newer one while it fetched model artifacts"`) &&
			strings.Contains(r.logs.String(), `"msg":"artifact download stopped","artifact":"m","file":"onnx/model.onnx","cause":"a newer reload replaced this one"`)
	})
	if strings.Contains(r.logs.String(), `"msg":"artifact not available"`) {
		t.Errorf("a download stopped on purpose is logged as a failure:\n%s", grepLines(r.logs.String(), "artifact"))
	}
	time.Sleep(300 * time.Millisecond) // had the replaced reload gone on, it would apply now
	if cfg := r.get(t, "management", "/api/v1/config"); !strings.Contains(cfg, "third one two") {
		t.Errorf("the replaced content applied after the newer one:\n%s", cfg)
	}
}

// TestReloadEndsTheStartupDownload: a reload that applies while the start-up config's model
// is still downloading ends that download, and readiness follows the config that serves.
func TestReloadEndsTheStartupDownload(t *testing.T) {
	t.Parallel()
	slow, downloading := slowModelServer(t)
	path := filepath.Join(t.TempDir(), "config.yaml")
	section, _ := artifactSection(t, "m", slow.URL, "onnx/model.onnx")
	if err := os.WriteFile(path, []byte(reloadConfig("first")+section), 0o600); err != nil {
		t.Fatal(err)
	}
	r := start(t, "-config", path)
	ready := func() int {
		resp, err := http.Get("http://" + r.addrs["management"] + "/ready")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	waitUntil(t, "the start-up download runs", func() bool { return downloading.Load() == 1 })
	if got := ready(); got != http.StatusServiceUnavailable {
		t.Fatalf("/ready during the download: %d, want 503", got)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(reloadConfig("second")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the new config applies", func() bool {
		return strings.Contains(r.get(t, "management", "/api/v1/config"), "second one two")
	})
	waitUntil(t, "the start-up download ends", func() bool { return downloading.Load() == 0 })
	if got := ready(); got != http.StatusOK {
		t.Errorf("/ready after the reload: %d, want 200", got)
	}
}

// slowModelServer serves every file a byte every 100 ms, alive and never done, and counts
// the downloads running.
func slowModelServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var running atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		running.Add(1)
		defer running.Add(-1)
		w.Header().Set("Content-Length", "1048576")
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
				_, _ = w.Write([]byte{0})
				w.(http.Flusher).Flush()
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &running
}
