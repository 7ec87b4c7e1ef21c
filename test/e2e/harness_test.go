// Package e2e runs the semantic-router binary against real local servers and drives it with
// real clients: the official OpenAI Go SDK and plain HTTP.
package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/logtest"
)

var routerBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sr-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	routerBin = filepath.Join(dir, "semantic-router")
	build := exec.Command("go", "build", "-o", routerBin, "../../cmd/semantic-router")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the router:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// router is a running router process.
type router struct {
	t         *testing.T
	cmd       *exec.Cmd
	logs      *logtest.Buffer
	exited    chan struct{}
	exitErr   error
	Inference string // http://127.0.0.1:port
	API       string
	Metrics   string
	GRPC      string // host:port of the external processor, in extproc mode
}

// startRouter starts the binary with the given config (none: the embedded demo) and extra
// environment, and waits until it is ready. It is stopped with SIGTERM at the end of the test.
func startRouter(t *testing.T, configYAML string, env ...string) *router {
	t.Helper()
	return startRouterWith(t, configYAML, nil, env...)
}

// startRouterWith is startRouter with extra command-line arguments.
func startRouterWith(t *testing.T, configYAML string, extra []string, env ...string) *router {
	t.Helper()
	args := append([]string{"-listener-address", "127.0.0.1:0", "-api-address", "127.0.0.1:0", "-metrics-address", "127.0.0.1:0",
		"-grpc-address", "127.0.0.1:0"}, extra...)
	if configYAML != "" {
		path := filepath.Join(t.TempDir(), "config.yaml")
		if err := os.WriteFile(path, []byte(configYAML), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "-config", path)
	}
	r := &router{t: t, logs: &logtest.Buffer{}, exited: make(chan struct{})}
	r.cmd = exec.Command(routerBin, args...)
	r.cmd.Env = append(os.Environ(), env...)
	r.cmd.Stdout = r.logs
	r.cmd.Stderr = r.logs
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.exitErr = r.cmd.Wait(); close(r.exited) }()
	t.Cleanup(func() { r.Stop() })

	deadline := time.Now().Add(60 * time.Second)
	for {
		addrs := r.listening()
		if logs := r.logs.String(); len(addrs) == 3 && (strings.Contains(logs, `"msg":"ready"`) || strings.Contains(logs, `"msg":"serving; not ready yet"`)) {
			r.Inference, r.API, r.Metrics = "http://"+addrs["inference"], "http://"+addrs["management"], "http://"+addrs["metrics"]
			r.GRPC = addrs["extproc"]
			return r
		}
		select {
		case <-r.exited:
			t.Fatalf("router exited before it was ready (%v); logs:\n%s", r.exitErr, r.logs)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("router not ready in 60s; logs:\n%s", r.logs)
		}
	}
}

// listening returns the address of each server from the "listening" log lines.
func (r *router) listening() map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(r.logs.String()))
	for sc.Scan() {
		var line struct {
			Msg, Server, Address string
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
			out[line.Server] = line.Address
		}
	}
	return out
}

// Stop sends SIGTERM and waits for the process to exit.
func (r *router) Stop() {
	select {
	case <-r.exited:
		return
	default:
	}
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.exited:
	case <-time.After(40 * time.Second):
		_ = r.cmd.Process.Kill()
		r.t.Errorf("router did not stop within 40s of SIGTERM; logs:\n%s", r.logs)
	}
}

// runRouter runs the binary to completion and returns its exit code and combined output.
func runRouter(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(routerBin, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok { //nolint:errorlint // exec returns it unwrapped
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

func writeConfig(t *testing.T, yaml string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// do sends a request and returns the response with its body read.
func do(t *testing.T, method, url, body string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// errorEnvelope decodes an OpenAI error body, failing the test if it is not one.
func errorEnvelope(t *testing.T, resp *http.Response, body []byte) (message, typ, code string) {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("error content-type = %q, want application/json", ct)
	}
	var env struct {
		Error *struct {
			Message string  `json:"message"`
			Type    string  `json:"type"`
			Param   *string `json:"param"`
			Code    *string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &env); err != nil || env.Error == nil {
		t.Fatalf("body is not an OpenAI error envelope: %s", body)
	}
	if env.Error.Code != nil {
		code = *env.Error.Code
	}
	return env.Error.Message, env.Error.Type, code
}
