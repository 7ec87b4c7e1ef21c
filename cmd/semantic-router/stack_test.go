package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/provider/providertest"
)

// stackChildEnv makes the test binary run the measured part of
// TestRequestPathFitsEightKiBStack: the stack limit it sets holds for the whole process.
const stackChildEnv = "SEMANTIC_ROUTER_STACK_CHILD"

// connectionStackLimit is the stack a client connection's goroutine starts with and, on the
// request path a bare reverse proxy takes, keeps.
const connectionStackLimit = 8 << 10

// TestRequestPathFitsEightKiBStack holds the request path of a router to the stack of a bare
// reverse proxy. A connection's goroutine keeps the stack its deepest request grew to for as
// long as the connection lives, and a stream holds its connection for minutes: every held
// stream costs that stack. A request that needs more than 8 KiB doubles it to 16 KiB for the
// connection's life (40 MB for 5,000 streams, make bench's streams run).
//
// The process runs the router in-process, as a user runs it (Run, the production logger and
// redaction, an OpenAI-compatible backend over HTTP), warms it up, and then limits every
// goroutine's stack to 8 KiB: a request, streamed or not, that needs more ends the process
// with "stack overflow" and the path that needed it. Run from a fresh process, as the limit
// is the process's. When it was written, the deepest path (the access line's latency,
// formatted by slog's JSON handler) had 256 to 512 bytes to spare. Error paths, which log
// through the router's own warnings, are not held to the limit: a connection that served
// one keeps a larger stack.
func TestRequestPathFitsEightKiBStack(t *testing.T) {
	if os.Getenv(stackChildEnv) == "1" {
		stackChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRequestPathFitsEightKiBStack$", "-test.count=1", "-test.v")
	// New goroutines start at the smallest stack, not at the average the runtime has seen,
	// which could start a connection above the limit and let its growth go unchecked.
	cmd.Env = append(os.Environ(), stackChildEnv+"=1", "GODEBUG=adaptivestackstart=0")
	if raceEnabled {
		// The race detector's instrumentation enlarges every frame: the limit is for the
		// binary users run, so the measured process is a test binary built without it.
		cmd = exec.Command("go", "test", "-count=1", "-v", "-run=^TestRequestPathFitsEightKiBStack$", ".")
	}
	out, err := cmd.CombinedOutput()
	if i := strings.Index(string(out), "stack overflow"); i >= 0 {
		t.Fatalf("a request needs more than %d bytes of stack; the path that needed more:\n%s",
			connectionStackLimit, out[max(0, i-200):min(len(out), i+12000)])
	}
	if err != nil {
		t.Fatalf("the measured process failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestRequestPathFitsEightKiBStack") {
		t.Fatalf("the measured process did not report:\n%s", out)
	}
}

func stackChild(t *testing.T) {
	const key = "sk-stack-test-0123456789abcdef"
	backend := providertest.NewOpenAIFake(t, providertest.NewScript(), key)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "router.yaml")
	// An API key makes the redaction of logs and answers active, as it is in production.
	yaml := fmt.Sprintf(`routing:
  virtual_model: auto
models:
  - model_name: chat
    provider:
      type: openai_compatible
      base_url: %q
      model: served-model
      api_key: env.STACK_TEST_API_KEY
`, backend.Server.URL+"/v1")
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("STACK_TEST_API_KEY", key)
	addr := start(t, "-config", cfg).listening(t)["inference"]
	url := "http://" + addr + "/v1/chat/completions"
	bodies := []string{
		`{"model":"auto","messages":[{"role":"user","content":"What is the capital city of France today?"}]}`,
		`{"model":"auto","stream":true,"messages":[{"role":"user","content":"What is the capital city of France today?"}]}`,
		`{"model":"chat","stream":true,"stream_options":{"include_usage":true},"temperature":0.2,"max_tokens":64,` +
			`"messages":[{"role":"system","content":"Answer briefly."},{"role":"user","content":"Name three rivers."}]}`,
	}
	// Warm-up: what runs once per process (JSON codecs built per type, pools, the first
	// upstream connection) grows the stack of its own connection only.
	for range 5 {
		for _, b := range bodies {
			post(t, http.DefaultClient, url, b)
		}
	}
	// Restored before the test's clean-up stops the router: shutting down is not held to it.
	defer debug.SetMaxStack(debug.SetMaxStack(connectionStackLimit))
	// Each request on a connection of its own, whose goroutine starts small.
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	for range 10 {
		for _, b := range bodies {
			post(t, fresh, url, b)
		}
	}
}

func post(t *testing.T, c *http.Client, url, body string) {
	t.Helper()
	resp, err := c.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	// A stream's text may be cut into other events than the backend's: the redaction of
	// answers holds back what could be the start of a secret.
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "Hello from the fake.") && !strings.HasSuffix(string(b), "data: [DONE]\n\n") {
		t.Fatalf("%s answered %d: %s", body, resp.StatusCode, b)
	}
}
