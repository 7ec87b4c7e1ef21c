package server

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func h2cOnly() *http.Client {
	p := new(http.Protocols)
	p.SetUnencryptedHTTP2(true)
	return &http.Client{Transport: &http.Transport{Protocols: p}}
}

// TestH2CLimits: over HTTP/2 the listener's limits mean what they mean over HTTP/1.1: a
// stream outlives read_timeout and write_timeout, and a body that stalls gets the 408.
func TestH2CLimits(t *testing.T) {
	t.Parallel()
	f := newFixture(t, shortLimits+`
models:
  - model_name: slow
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 150ms, reply: "one two three four five six seven eight nine ten"}}
`, nil)
	addr := listenH2C(t, f.infHandler, f.holder.Current().Config().Server)
	client := h2cOnly()

	start := time.Now()
	resp, err := client.Post("http://"+addr+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"slow","stream":true,"messages":[{"role":"user","content":"go"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var last string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			last = line
		}
	}
	resp.Body.Close()
	took := time.Since(start)
	if resp.ProtoMajor != 2 || last != "data: [DONE]" {
		t.Errorf("the stream over %s ended with %q (%v), want data: [DONE]", resp.Proto, last, sc.Err())
	}
	if took < 1300*time.Millisecond {
		t.Errorf("the stream took %s; the test needs it longer than write_timeout (1s)", took)
	}

	// 10 of 100 bytes, and then nothing.
	pr, pw := io.Pipe()
	t.Cleanup(func() { _ = pw.Close() })
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/chat/completions", pr)
	req.ContentLength = 100
	go func() { _, _ = io.WriteString(pw, `{"model":"`) }()
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"error":{"message":"the request body did not arrive in time (server.read_timeout)","type":"invalid_request_error","param":null,"code":"request_timeout"}}`
	if resp.StatusCode != http.StatusRequestTimeout || strings.TrimSpace(string(body)) != want {
		t.Errorf("a stalled body over HTTP/2: %d %s\nwant 408 %s", resp.StatusCode, body, want)
	}
}
