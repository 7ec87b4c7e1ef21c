package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
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

// TestH2CUpgradeIsRefused: the listener speaks HTTP/2 without TLS to clients that start with
// its preface only, never to an HTTP/1.1 request that asks to upgrade. A proxy in front that
// checks each request and passes Upgrade headers through would otherwise hand the client a
// connection on which later requests reach the router unchecked ("h2c smuggling"). The
// request is answered over HTTP/1.1 and the connection stays HTTP/1.1.
func TestH2CUpgradeIsRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t, simModels, nil)
	addr := listenH2C(t, f.infHandler, f.holder.Current().Config().Server)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	br := bufio.NewReader(conn)
	body := chat("general", false)
	for i, upgrade := range []bool{true, false} {
		var extra string
		if upgrade {
			extra = "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n"
		}
		fmt.Fprintf(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: router\r\nContent-Type: application/json\r\n%sContent-Length: %d\r\n\r\n%s",
			extra, len(body), body)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if resp.StatusCode != http.StatusOK || resp.Proto != "HTTP/1.1" || resp.Header.Get("Upgrade") != "" ||
			!strings.Contains(string(raw), `"chat.completion"`) {
			t.Fatalf("request %d (upgrade %v): %s %d, Upgrade %q, body %s; want an HTTP/1.1 200 chat completion and no upgrade",
				i, upgrade, resp.Proto, resp.StatusCode, resp.Header.Get("Upgrade"), raw)
		}
	}
}
