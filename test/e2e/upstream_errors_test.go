package e2e

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/provider/sim"
)

const chatBody = `{"model":"chat","messages":[{"role":"user","content":"hi"}]}`

// statusBackend answers every request with the given status and OpenAI error body.
func statusBackend(t *testing.T, status int, headers ...string) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":"upstream says %d","type":"x"}}`, status)
	}))
	t.Cleanup(s.Close)
	return s
}

func closedPortURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return "http://" + addr
}

// newTLSBackend is the simulated model behind TLS with httptest's certificate, which names
// example.com and 127.0.0.1 but not localhost. Failed handshakes are expected, so its error
// log is discarded.
func newTLSBackend(t *testing.T) *httptest.Server {
	t.Helper()
	s := httptest.NewUnstartedServer(sim.Handler(sim.Options{Model: "upstream/chat-8b"}))
	s.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

func certPEM(c *x509.Certificate) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw}))
}

// TestUpstreamErrorsTellTheKindAndLogTheCause: a client learns the kind of failure, the
// model and the request id, never the backend's address, the credential reference or the
// upstream's own text; the log line with that request id has the cause in full.
func TestUpstreamErrorsTellTheKindAndLogTheCause(t *testing.T) {
	t.Parallel()
	tlsBackend := newTLSBackend(t)
	tlsPort := tlsBackend.Listener.Addr().(*net.TCPAddr).Port
	down := closedPortURL(t)

	tests := []struct {
		name    string
		baseURL string
		keyRef  string
		env     []string
		status  int
		code    string
		client  string // the client's message, before " (request id ...)"
		cause   string // part of the log line's error
		retry   string
	}{
		{
			name: "connection refused", baseURL: down, status: 502, code: "upstream_unreachable",
			client: `upstream model server for model "chat" could not be reached`,
			cause:  fmt.Sprintf(`connection refused at base_url %s/v1: check that the server is running and the scheme, host and port are right`, down),
		},
		{
			name: "unknown authority", baseURL: tlsBackend.URL, status: 502, code: "upstream_tls_error",
			client: `upstream model server for model "chat" failed the TLS handshake`,
			cause:  fmt.Sprintf(`TLS: the certificate of %s/v1 is signed by an unknown authority; set provider.ca_cert_pem to a reference to the CA bundle`, tlsBackend.URL),
		},
		{
			name: "name not in the certificate", baseURL: fmt.Sprintf("https://localhost:%d", tlsPort),
			env: []string{"CHAT_CA=" + certPEM(tlsBackend.Certificate())}, status: 502, code: "upstream_tls_error",
			client: `upstream model server for model "chat" failed the TLS handshake`,
			cause: fmt.Sprintf(`TLS: the certificate of https://localhost:%d/v1 is not valid for host \"localhost\" (its subject alternative names: %s)`,
				tlsPort, strings.Join(tlsBackend.Certificate().DNSNames, ", ")),
		},
		{
			name: "401 names the env reference in the log only", baseURL: statusBackend(t, 401).URL, keyRef: "env.CHAT_API_KEY",
			env: []string{"CHAT_API_KEY=sk-wrong-0000"}, status: 401, code: "upstream_auth_failed",
			client: `upstream model server for model "chat" answered 401 Unauthorized`,
			cause:  "rejected the API key with 401: check that env.CHAT_API_KEY holds a current key for this server (env.VAR names are case-sensitive; restart after changing an env Secret): upstream says 401",
		},
		{
			name: "401 without a key", baseURL: statusBackend(t, 401).URL, status: 401, code: "upstream_auth_failed",
			client: `upstream model server for model "chat" answered 401 Unauthorized`,
			cause:  "rejected the request with 401 and no api_key is configured for this model; set provider.api_key to an env.VAR or file: reference: upstream says 401",
		},
		{
			name: "404 model", baseURL: statusBackend(t, 404).URL, status: 502, code: "upstream_model_not_found",
			client: `upstream model server for model "chat" answered 404 Not Found`,
			cause:  `answered 404 for upstream model \"upstream/chat-8b\": check provider.model and that base_url ends in the API root (such as /v1): upstream says 404`,
		},
		{
			name: "429 keeps Retry-After", baseURL: statusBackend(t, 429, "Retry-After", "7").URL, status: 429, code: "upstream_rate_limited",
			client: `upstream model server for model "chat" answered 429 Too Many Requests`, cause: "is rate limiting (429): upstream says 429", retry: "7",
		},
		{
			name: "500", baseURL: statusBackend(t, 500).URL, status: 502, code: "upstream_error",
			client: `upstream model server for model "chat" answered 500 Internal Server Error`, cause: "failed with 500: upstream says 500",
		},
		{
			name: "400 keeps its status", baseURL: statusBackend(t, 400).URL, status: 400, code: "upstream_rejected_request",
			client: `upstream model server for model "chat" answered 400 Bad Request`, cause: "rejected the request with 400: upstream says 400",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := compatConfig(tt.baseURL, tt.keyRef)
			if strings.HasPrefix(tt.name, "name not") {
				cfg = strings.Replace(cfg, "model: upstream/chat-8b", "model: upstream/chat-8b\n      ca_cert_pem: env.CHAT_CA", 1)
			}
			r := startRouter(t, cfg, tt.env...)
			for _, stream := range []bool{false, true} {
				body := chatBody
				if stream { // a streaming request fails the same way, before any byte is sent
					body = strings.Replace(chatBody, `"model"`, `"stream":true,"model"`, 1)
				}
				resp, raw := do(t, "POST", r.Inference+"/v1/chat/completions", body)
				msg, _, code := errorEnvelope(t, resp, raw)
				id := resp.Header.Get("X-Request-Id")
				want := fmt.Sprintf("%s (request id %s)", tt.client, id)
				if resp.StatusCode != tt.status || code != tt.code || msg != want || id == "" {
					t.Errorf("stream %v: got %d %q %q\nwant %d %q %q", stream, resp.StatusCode, code, msg, tt.status, tt.code, want)
				}
				for _, internal := range []string{"127.0.0.1", "localhost", "env.", "upstream says"} {
					if strings.Contains(string(raw), internal) {
						t.Errorf("stream %v: the client's error reveals %q: %s", stream, internal, raw)
					}
				}
				if got := resp.Header.Get("Retry-After"); got != tt.retry {
					t.Errorf("Retry-After = %q, want %q", got, tt.retry)
				}
				if line := logLine(r, id, "upstream failure"); !strings.Contains(line, tt.cause) {
					t.Errorf("stream %v: the log line of request %s lacks the cause %q: %s", stream, id, tt.cause, line)
				}
			}
		})
	}
}

// logLine waits for the log line with msg and the request id, and returns it.
func logLine(r *router, id, msg string) string {
	r.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, line := range strings.Split(r.logs.String(), "\n") {
			if strings.Contains(line, `"request_id":"`+id+`"`) && strings.Contains(line, `"msg":"`+msg+`"`) {
				return line
			}
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("no log line %q for request %s:\n%s", msg, id, r.logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCABundleFromEnvTrustsTheBackend(t *testing.T) {
	t.Parallel()
	be := newTLSBackend(t)
	cfg := strings.Replace(compatConfig(be.URL, ""), "model: upstream/chat-8b", "model: upstream/chat-8b\n      ca_cert_pem: env.CHAT_CA", 1)
	r := startRouter(t, cfg, "CHAT_CA="+certPEM(be.Certificate()))
	resp, body := do(t, "POST", r.Inference+"/v1/chat/completions", chatBody)
	if resp.StatusCode != 200 || !strings.Contains(string(body), "answering: hi") {
		t.Errorf("through TLS with ca_cert_pem: %d %s", resp.StatusCode, body)
	}
}

func expiredCert(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "old-ca"},
		NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// TestValidateRefusesWhatStopsTheStart: -validate reads a CA bundle it can read as the start
// does, and refuses the same bundles, located by field path and line.
func TestValidateRefusesWhatStopsTheStart(t *testing.T) {
	t.Parallel()
	cfg := strings.Replace(compatConfig("https://127.0.0.1:1", ""), "model: upstream/chat-8b", "model: upstream/chat-8b\n      ca_cert_pem: env.CHAT_CA", 1)
	yesterday := time.Now().Add(-24 * time.Hour).UTC().Format(time.DateOnly)
	for _, tt := range []struct{ bundle, want string }{
		{expiredCert(t), `models[0].provider.ca_cert_pem (line 10): env.CHAT_CA: certificate 1 (old-ca) expired on ` + yesterday},
		{"not a certificate", `models[0].provider.ca_cert_pem (line 10): env.CHAT_CA: no PEM certificate found (expected -----BEGIN CERTIFICATE-----)`},
		{"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", `models[0].provider.ca_cert_pem (line 10): env.CHAT_CA: certificate 1 does not parse: `},
	} {
		code, out := runRouter(t, []string{"CHAT_CA=" + tt.bundle}, "-validate", "-config", writeConfig(t, cfg))
		if code != 1 || !strings.Contains(out, tt.want) || strings.Contains(out, "valid,") {
			t.Errorf("-validate with a bad bundle: exit %d, want 1 and %q:\n%s", code, tt.want, out)
		}
	}
}

func TestStartupErrors(t *testing.T) {
	t.Parallel()
	expired := expiredCert(t)
	yesterday := time.Now().Add(-24 * time.Hour).UTC().Format(time.DateOnly)
	tests := []struct {
		name   string
		config string
		env    []string
		want   []string
	}{
		{
			name:   "missing env variable names the model and the variable",
			config: compatConfig("http://127.0.0.1:1", "env.Chat_Api_Key"),
			env:    []string{"CHAT_API_KEY=set-but-differently-cased"},
			want: []string{
				`models[0].provider.api_key (line `, `): env.Chat_Api_Key: environment variable Chat_Api_Key is not set (names are case-sensitive and must match the Secret key exactly): secret not found`,
				`"msg":"model registration failed"`,
			},
		},
		{
			name:   "expired CA certificate",
			config: strings.Replace(compatConfig("https://127.0.0.1:1", ""), "model: upstream/chat-8b", "model: upstream/chat-8b\n      ca_cert_pem: env.CHAT_CA", 1),
			env:    []string{"CHAT_CA=" + expired},
			want:   []string{`model "chat": provider.ca_cert_pem: certificate 1 (old-ca) expired on ` + yesterday},
		},
		{
			name:   "unparsable CA bundle",
			config: strings.Replace(compatConfig("https://127.0.0.1:1", ""), "model: upstream/chat-8b", "model: upstream/chat-8b\n      ca_cert_pem: env.CHAT_CA", 1),
			env:    []string{"CHAT_CA=not a certificate"},
			want:   []string{`model "chat": provider.ca_cert_pem: no PEM certificate found (expected -----BEGIN CERTIFICATE-----)`},
		},
		{
			name:   "invalid config lists every problem",
			config: "models:\n  - model_name: a\n    provider: {type: sim, bse_url: x}\n  - model_name: a\n    provider: {type: sim}\n",
			want: []string{
				`models[0].provider.bse_url (line 3): unknown field; did you mean "base_url"?`,
				`models[1].model_name (line 4): duplicate model_name "a" (first defined at models[0])`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out := runRouter(t, tt.env, "-config", writeConfig(t, tt.config), "-listener-address", "127.0.0.1:0",
				"-api-address", "127.0.0.1:0", "-metrics-address", "127.0.0.1:0")
			if code != 1 {
				t.Errorf("exit code %d, want 1; output:\n%s", code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestValidateFlag(t *testing.T) {
	t.Parallel()
	code, out := runRouter(t, nil, "-validate", "-config", writeConfig(t, compatConfig("http://vllm:8000", "env.SR_TEST_UNSET_KEY")))
	if code != 0 || !strings.Contains(out, `valid, 2 models, virtual model "auto", default model "chat"`) ||
		!strings.Contains(out, `warning: models[0].provider.api_key (line 10): env.SR_TEST_UNSET_KEY: environment variable SR_TEST_UNSET_KEY is not set`) {
		t.Errorf("valid config: exit %d\n%s", code, out)
	}
	code, out = runRouter(t, nil, "-validate", "-config", writeConfig(t, "models:\n  - model_name: x\n    provider: {type: vllm}\n"))
	if code != 1 || !strings.Contains(out, `models[0].provider.type (line 3): unknown provider type "vllm" (one of openai_compatible, bedrock, vertex, sim)`) {
		t.Errorf("invalid config: exit %d\n%s", code, out)
	}
	code, out = runRouter(t, nil, "-validate")
	if code != 0 || !strings.Contains(out, "embedded demo config (examples/demo.yaml): valid, 3 models") {
		t.Errorf("embedded config: exit %d\n%s", code, out)
	}
	code, out = runRouter(t, nil, "-gateway", "envoy")
	if code != 2 || !strings.Contains(out, `-gateway: must be standalone or extproc, got "envoy"`) {
		t.Errorf("bad flag: exit %d\n%s", code, out)
	}
	code, out = runRouter(t, nil, "-version")
	if code != 0 || !strings.HasPrefix(out, "semantic-router ") {
		t.Errorf("-version: exit %d %q", code, out)
	}
}
