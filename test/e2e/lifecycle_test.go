package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/provider/sim"
)

// TestSecretsNeverLeak sends traffic that succeeds and fails with a key from env and one from
// a file, then looks for the values in everything the router shows: logs, the config API,
// the models API, metrics and error bodies.
func TestSecretsNeverLeak(t *testing.T) {
	t.Parallel()
	const envKey, fileKey = "sk-env-SECRET-7f3a9c", "sk-file-SECRET-91bd22"
	good := newBackend(t, envKey, sim.Options{Model: "upstream/chat-8b"})
	bad := statusBackend(t, 401)
	keyFile := filepath.Join(t.TempDir(), "api-key")
	if err := os.WriteFile(keyFile, []byte(fileKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`
models:
  - model_name: chat
    provider: {type: openai_compatible, base_url: %s/v1, api_key: env.CHAT_KEY}
  - model_name: other
    provider: {type: openai_compatible, base_url: %s/v1, api_key: "file:%s"}
`, good.URL, bad.URL, keyFile)
	r := startRouter(t, cfg, "CHAT_KEY="+envKey)

	var shown strings.Builder
	for _, body := range []string{chatBody, strings.Replace(chatBody, `"chat"`, `"other"`, 1)} {
		for _, stream := range []bool{false, true} {
			b := body
			if stream {
				b = strings.Replace(b, `{`, `{"stream":true,`, 1)
			}
			resp, out := do(t, "POST", r.Inference+"/v1/chat/completions", b)
			shown.Write(out)
			for k, v := range resp.Header {
				fmt.Fprintln(&shown, k, v)
			}
		}
	}
	// The reference to check is for operators: in the log and the models API, not in the
	// client's error.
	if strings.Contains(shown.String(), "file:") {
		t.Errorf("a client's error names the file reference:\n%s", shown.String())
	}
	_, models := do(t, "GET", r.API+"/api/v1/models", "")
	for _, where := range []string{r.logs.String(), string(models)} {
		if !strings.Contains(where, "check that file:"+keyFile+" holds a current key") {
			t.Errorf("the 401's cause does not name the file reference:\n%s", where)
		}
	}
	for _, u := range []string{r.API + "/api/v1/config", r.API + "/api/v1/models", r.Metrics + "/metrics"} {
		_, out := do(t, "GET", u, "")
		shown.Write(out)
	}
	_, cfgOut := do(t, "GET", r.API+"/api/v1/config", "")
	if !strings.Contains(string(cfgOut), `"api_key":"env.CHAT_KEY"`) {
		t.Errorf("/api/v1/config should show the reference: %s", cfgOut)
	}
	r.Stop()
	shown.WriteString(r.logs.String())
	for _, secret := range []string{envKey, fileKey, "SECRET"} {
		if strings.Contains(shown.String(), secret) {
			t.Errorf("%q appears in what the router shows", secret)
		}
	}
}

// TestShutdownDrainsStreams starts slow streams, sends SIGTERM while they run, and expects
// every stream to finish with [DONE] and readiness to drop at once, over HTTP/1.1 and over
// HTTP/2 without TLS (where every stream shares one connection, which gets a GOAWAY).
func TestShutdownDrainsStreams(t *testing.T) {
	t.Parallel()
	overBothProtocols(t, shutdownDrainsStreams)
}

// overBothProtocols runs test in parallel subtests with a client over HTTP/1.1 and one over
// HTTP/2 without TLS.
func overBothProtocols(t *testing.T, test func(*testing.T, *http.Client)) {
	for _, tc := range []struct {
		name   string
		client *http.Client
	}{{"HTTP/1.1", http.DefaultClient}, {"h2c", newH2CClient().Client}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			test(t, tc.client)
		})
	}
}

func shutdownDrainsStreams(t *testing.T, client *http.Client) {
	r := startRouter(t, `
models:
  - model_name: slow
    provider:
      type: sim
      sim: {first_token_latency: 200ms, token_latency: 50ms, reply: "one two three four five six seven eight"}
`)
	const n = 4
	var wg sync.WaitGroup
	results := make(chan string, n)
	started := make(chan struct{}, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("POST", r.Inference+"/v1/chat/completions",
				strings.NewReader(`{"model":"slow","stream":true,"messages":[{"role":"user","content":"go"}]}`))
			resp, err := client.Do(req)
			if err != nil {
				results <- "error: " + err.Error()
				return
			}
			defer resp.Body.Close()
			started <- struct{}{}
			var last string
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				if line := sc.Text(); line != "" {
					last = line
				}
			}
			results <- last
		}()
	}
	for range n {
		<-started // every stream has its headers, so it is in flight
	}
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Get(r.API + "/ready")
		if err != nil || resp.StatusCode == http.StatusServiceUnavailable {
			if resp != nil {
				resp.Body.Close()
			}
			break
		}
		resp.Body.Close()
		if time.Now().After(deadline) {
			t.Fatal("/ready still 200 after SIGTERM")
		}
		time.Sleep(5 * time.Millisecond)
	}
	wg.Wait()
	close(results)
	for last := range results {
		if last != "data: [DONE]" {
			t.Errorf("a stream ended with %q, want data: [DONE]", last)
		}
	}
	<-r.exited
	if r.exitErr != nil {
		t.Errorf("router exit: %v\n%s", r.exitErr, r.logs)
	}
}

// TestStreamingSoak sends 1,000 streams at concurrency 32 through the router to a real
// OpenAI-compatible backend and checks every one is complete: all chunks, in order, ending in
// data: [DONE].
func TestStreamingSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("soak test skipped in -short mode")
	}
	t.Parallel()
	const reply = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
	be := newBackend(t, "", sim.Options{Model: "upstream/chat-8b", Reply: reply})
	r := startRouter(t, compatConfig(be.URL, ""))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	const total, concurrency = 1000, 32
	var next, failures atomic.Int64
	var firstErr atomic.Value
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= total {
				if err := oneStream(ctx, client, r.Inference, reply); err != nil {
					failures.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
				}
			}
		}()
	}
	wg.Wait()
	if f := failures.Load(); f > 0 {
		t.Fatalf("%d of %d streams incomplete; first: %v", f, total, firstErr.Load())
	}
}

func oneStream(ctx context.Context, client *http.Client, base, reply string) error {
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/v1/chat/completions",
		strings.NewReader(`{"model":"chat","stream":true,"messages":[{"role":"user","content":"x"}]}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		return fmt.Errorf("status %d, content-type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var text strings.Builder
	events, done := 0, false
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		if done {
			return fmt.Errorf("data after [DONE]: %q", line)
		}
		data, ok := bytes.CutPrefix(line, []byte("data: "))
		if !ok {
			return fmt.Errorf("unexpected line %q", line)
		}
		if string(data) == "[DONE]" {
			done = true
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct{ Content string }
			}
		}
		if err := json.Unmarshal(data, &c); err != nil {
			return fmt.Errorf("chunk %d: %w", events, err)
		}
		if len(c.Choices) > 0 {
			text.WriteString(c.Choices[0].Delta.Content)
		}
		events++
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("after %d events: %w", events, err)
	}
	want := "This is upstream/chat-8b answering: x"
	if reply != "" {
		want = reply
	}
	switch {
	case !done:
		return fmt.Errorf("stream cut after %d events, no [DONE]", events)
	case text.String() != want:
		return fmt.Errorf("text %q, want %q (chunks lost or out of order)", text.String(), want)
	}
	return nil
}

// TestShutdownTimeoutEndsRequestsWithTheCause sends SIGTERM while a stream and a plain
// request run longer than shutdown_timeout, and expects each to be told the router is
// shutting down (an error event without [DONE], a 503 in the error envelope) and logged so,
// not as a client that went away; over HTTP/1.1 and over HTTP/2 without TLS.
func TestShutdownTimeoutEndsRequestsWithTheCause(t *testing.T) {
	t.Parallel()
	overBothProtocols(t, shutdownTimeoutEndsRequests)
}

func shutdownTimeoutEndsRequests(t *testing.T, client *http.Client) {
	be := newBackend(t, "", sim.Options{Model: "upstream/slow", TokenLatency: time.Second,
		Reply: "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"})
	r := startRouter(t, compatConfig(be.URL, "")+"server: {shutdown_timeout: 300ms}\n")

	stream, err := client.Post(r.Inference+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"chat","stream":true,"messages":[{"role":"user","content":"go"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	sc := bufio.NewScanner(stream.Body)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), "data: {") {
		t.Fatalf("no first event: %q %v", sc.Text(), sc.Err())
	}
	type answer struct {
		resp *http.Response
		body []byte
		err  error
	}
	plain := make(chan answer, 1)
	go func() {
		resp, err := client.Post(r.Inference+"/v1/chat/completions", "application/json", strings.NewReader(chatBody))
		if err != nil {
			plain <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		plain <- answer{resp, body, err}
	}()
	waitFor(t, "both requests in flight", func() bool {
		_, m := do(t, "GET", r.Metrics+"/metrics", "")
		return strings.Contains(string(m), `semantic_router_in_flight_requests{model="chat"} 2`)
	})
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}

	const msg = "the router is shutting down and ended the request before it finished; send it again (request id %s)"
	var last string
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			last = line
		}
	}
	id := stream.Header.Get("X-Request-Id")
	want := `data: {"error":{"message":"` + fmt.Sprintf(msg, id) + `","type":"server_error","param":null,"code":"shutting_down"}}`
	if last != want {
		t.Errorf("the stream ended with\n%s\nwant\n%s", last, want)
	}
	a := <-plain
	if a.err != nil {
		t.Fatalf("the plain request: %v", a.err)
	}
	if a.resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("the plain request got %d %s, want 503", a.resp.StatusCode, a.body)
	}
	plainID := a.resp.Header.Get("X-Request-Id")
	if m, _, code := errorEnvelope(t, a.resp, a.body); m != fmt.Sprintf(msg, plainID) || code != "shutting_down" {
		t.Errorf("the plain request's error: %q, code %q", m, code)
	}
	<-r.exited
	if r.exitErr != nil {
		t.Errorf("router exit: %v", r.exitErr)
	}
	for _, want := range []struct{ id, status string }{{id, `"status":200`}, {plainID, `"status":503`}} {
		line := logLine(r, want.id, "request")
		if !strings.Contains(line, want.status) || !strings.Contains(line, `"error":"the router is shutting down`) {
			t.Errorf("the access log line does not say the router ended the request:\n%s", line)
		}
	}
	if strings.Contains(r.logs.String(), `"status":499`) || strings.Contains(r.logs.String(), "client went away") {
		t.Errorf("a request ended by the shutdown is logged as one whose client went away:\n%s", r.logs)
	}
}

// TestShutdownDelayServesWhileNotReady: after SIGTERM, /ready answers 503 at once while the
// inference listener still takes new connections for shutdown_delay, the time Kubernetes
// needs to take the pod out of its Services.
func TestShutdownDelayServesWhileNotReady(t *testing.T) {
	t.Parallel()
	r := startRouter(t, `
server: {shutdown_delay: 3s}
models:
  - model_name: chat
    provider: {type: sim}
`)
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var readyBody []byte
	waitFor(t, "/ready to answer 503", func() bool {
		resp, err := http.Get(r.API + "/ready")
		if err != nil {
			return false
		}
		readyBody, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode == http.StatusServiceUnavailable
	})
	// The reason tells the operator why the pod leaves its Services, and for how long.
	const wantReady = `{"reason":"shutting down: serving on for server.shutdown_delay (3s), then draining requests in flight for up to server.shutdown_timeout (30s)","status":"not ready"}` + "\n"
	if string(readyBody) != wantReady {
		t.Errorf("/ready after SIGTERM:\n got %s\nwant %s", readyBody, wantReady)
	}
	// A new connection, as a client sent here by a Service not yet updated would open.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Post(r.Inference+"/v1/chat/completions", "application/json", strings.NewReader(chatBody))
	if err != nil {
		t.Fatalf("a new request while not ready: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a new request while not ready got %d %s", resp.StatusCode, body)
	}
	<-r.exited
	if r.exitErr != nil {
		t.Errorf("router exit: %v", r.exitErr)
	}
	if !strings.Contains(r.logs.String(), `"msg":"not ready; serving on until the drain starts","shutdown_delay":"3s"`) {
		t.Errorf("no log line for the delay:\n%s", r.logs)
	}
}

// TestSecondSignalExitsAtOnce: a second SIGTERM during the drain ends the router at once,
// with a non-zero exit code and a line that says why, instead of waiting out
// shutdown_timeout for a stream that runs for a minute.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	t.Parallel()
	r := startRouter(t, `
server: {shutdown_timeout: 2m}
models:
  - model_name: slow
    provider:
      type: sim
      sim: {token_latency: 1s, reply: "`+strings.Repeat("word ", 60)+`"}
`)
	resp, err := http.Post(r.Inference+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"slow","stream":true,"messages":[{"role":"user","content":"go"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the drain to start", func() bool { return strings.Contains(r.logs.String(), `"msg":"shutting down"`) })
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-r.exited:
	case <-time.After(10 * time.Second):
		t.Fatalf("the router still runs 10s after a second SIGTERM:\n%s", r.logs)
	}
	var ee *exec.ExitError
	if !errors.As(r.exitErr, &ee) || ee.ExitCode() != 1 {
		t.Errorf("exit: %v, want exit code 1", r.exitErr)
	}
	if !strings.Contains(r.logs.String(), "semantic-router: second signal (terminated) during the shutdown: exiting now, without draining") {
		t.Errorf("no line says why it exited:\n%s", r.logs)
	}
}
