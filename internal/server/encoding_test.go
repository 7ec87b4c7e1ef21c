package server

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strings"
	"testing"
)

func gzipped(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestContentEncoding: a gzip body is read decompressed, on the inference listener and the
// classification API alike, within the body limit; a coding the router cannot undo is a 415
// that says which one it can, not a body misread as JSON.
func TestContentEncoding(t *testing.T) {
	t.Parallel()
	f := newFixture(t, `
server: {max_request_body_bytes: 65536}
models:
  - model_name: echo
    provider: {type: sim, sim: {first_token_latency: 0s, token_latency: 0s, reply: "{prompt}"}}
management: {auth: disabled}
`, nil)
	prompt := `{"model":"echo","messages":[{"role":"user","content":"zipped hello"}]}`
	bomb := gzipped(t, `{"model":"echo","messages":[{"role":"user","content":"`+strings.Repeat("a", 1<<20)+`"}]}`)
	const unsupported = `{"error":{"message":"Content-Encoding %q is not supported; send the body as is or with Content-Encoding: gzip","type":"invalid_request_error","param":null,"code":"unsupported_content_encoding"}}` + "\n"
	for _, tt := range []struct {
		name, url, encoding, body string
		wantStatus                int
		wantBody                  string // exact, or for a 200 a part of it
	}{
		{"gzip", "/v1/chat/completions", "gzip", gzipped(t, prompt), 200, `"content":"zipped hello"`},
		{"x-gzip in capitals", "/v1/chat/completions", "X-GZIP", gzipped(t, prompt), 200, `"content":"zipped hello"`},
		{"identity", "/v1/chat/completions", "identity", prompt, 200, `"content":"zipped hello"`},
		{"brotli", "/v1/chat/completions", "br", prompt, 415, strings.Replace(unsupported, "%q", `\"br\"`, 1)},
		{"two codings", "/v1/chat/completions", "gzip, br", gzipped(t, prompt), 415, strings.Replace(unsupported, "%q", `\"gzip, br\"`, 1)},
		{"not gzip", "/v1/chat/completions", "gzip", prompt, 400,
			`{"error":{"message":"reading the request body: the body is not valid gzip (Content-Encoding: gzip): gzip: invalid header","type":"invalid_request_error","param":null,"code":null}}` + "\n"},
		{"truncated gzip", "/v1/chat/completions", "gzip", gzipped(t, prompt)[:20], 400,
			`{"error":{"message":"reading the request body: the body is not valid gzip (Content-Encoding: gzip): unexpected EOF","type":"invalid_request_error","param":null,"code":null}}` + "\n"},
		{"empty gzip", "/v1/chat/completions", "gzip", "", 400,
			`{"error":{"message":"reading the request body: the body is not valid gzip (Content-Encoding: gzip): unexpected EOF","type":"invalid_request_error","param":null,"code":null}}` + "\n"},
		{"a bomb past the limit", "/v1/chat/completions", "gzip", bomb, 413,
			`{"error":{"message":"the request body is larger than 65536 bytes (server.max_request_body_bytes)","type":"invalid_request_error","param":null,"code":"request_too_large"}}` + "\n"},
		{"classify", "/api/v1/classify", "gzip", gzipped(t, `{"text":"hello"}`), 200, `"model":"echo"`},
		{"classify brotli", "/api/v1/classify", "br", `{"text":"hello"}`, 415, strings.Replace(unsupported, "%q", `\"br\"`, 1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base := f.inference
			if strings.HasPrefix(tt.url, "/api/") {
				base = f.management
			}
			req, err := http.NewRequest("POST", base+tt.url, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Content-Encoding", tt.encoding)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var b bytes.Buffer
			_, _ = b.ReadFrom(resp.Body)
			got := b.String()
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.wantStatus, got)
			}
			if tt.wantStatus == 200 && !strings.Contains(got, tt.wantBody) || tt.wantStatus != 200 && got != tt.wantBody {
				t.Errorf("body\n%s\nwant\n%s", got, tt.wantBody)
			}
			if tt.wantStatus == 415 && resp.Header.Get("Accept-Encoding") != "gzip" {
				t.Errorf("415 without Accept-Encoding: gzip: %v", resp.Header)
			}
		})
	}
}
