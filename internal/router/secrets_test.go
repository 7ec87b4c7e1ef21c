package router

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/redact"
)

// TestEveryCredentialIsRedacted: the values of every credential reference in the
// configuration (backend keys, cloud credentials, client keys, management tokens) are
// redacted, CA bundles are not, and a service-account key's private key is.
func TestEveryCredentialIsRedacted(t *testing.T) {
	t.Parallel()
	sa := base64.StdEncoding.EncodeToString([]byte(`{"type":"service_account","private_key_id":"pkid-0123456789",` +
		`"private_key":"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"}`))
	env := map[string]string{"BACKEND": "sk-backend-000001", "CA": "-----BEGIN CERTIFICATE-----\npublic-cert-line\n-----END CERTIFICATE-----",
		"AKID": "AKIAEXAMPLE0001", "SECRET": "aws-secret-000001", "SESSION": "aws-session-00001", "SA": sa,
		"CLIENT": "client-key-000001", "MGMT": "mgmt-token-000001"}
	cfg, err := config.Parse([]byte(`management: {tokens: [{name: ops, token: env.MGMT, role: admin}]}
admission: {api_keys: [{name: team, key: env.CLIENT}]}
models:
  - model_name: a
    provider: {type: openai_compatible, base_url: http://x/v1, api_key: env.BACKEND, ca_cert_pem: env.CA}
  - model_name: b
    provider: {type: bedrock, region: us-east-1, access_key_id: env.AKID, secret_access_key: env.SECRET, session_token: env.SESSION}
  - model_name: c
    provider: {type: vertex, project: my-project-1, location: us-central1, service_account_key: env.SA}
`))
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, r := range secretRefs(cfg) {
		refs = append(refs, string(r))
	}
	slices.Sort(refs)
	if want := "env.AKID env.BACKEND env.CLIENT env.MGMT env.SA env.SECRET env.SESSION"; strings.Join(refs, " ") != want {
		t.Errorf("references = %v, want %s", refs, want)
	}
	red := redact.New()
	rd := newRedaction(cfg, red, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	defer func() { _ = rd.close() }()
	for _, k := range []string{"BACKEND", "AKID", "SECRET", "SESSION", "SA", "CLIENT", "MGMT"} {
		if got := red.String("x " + env[k] + " y"); got != "x [redacted] y" {
			t.Errorf("%s: %q", k, got)
		}
	}
	for in, want := range map[string]string{
		"pkid-0123456789": "[redacted]", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC": "[redacted]", "public-cert-line": "public-cert-line",
	} {
		if got := red.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRotatedCredentialIsRedacted: a file: credential that rotates is redacted in its new
// value at once, and its old value stays redacted.
func TestRotatedCredentialIsRedacted(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(path, []byte("sk-old-value-0001\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse([]byte("models:\n  - model_name: a\n    provider: {type: openai_compatible, base_url: http://x/v1, api_key: \"file:" + path + "\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	red := redact.New()
	rd := newRedaction(cfg, red, nil)
	defer func() { _ = rd.close() }()
	if err := os.WriteFile(path, []byte("sk-new-value-0002\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for red.String("sk-new-value-0002") != "[redacted]" {
		if time.Now().After(deadline) {
			t.Fatal("the rotated value is not redacted")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := red.String("sk-old-value-0001"); got != "[redacted]" {
		t.Errorf("the old value after rotation: %q", got)
	}
}

// TestEmbedderKeyIsAToken: the remote embedder's api_key goes into a header, so a value
// that could not be redacted from relayed text stops the router, as a model's key does.
func TestEmbedderKeyIsAToken(t *testing.T) {
	t.Parallel()
	cfg, err := config.Parse([]byte(`models:
  - model_name: m
    provider: {type: sim}
signals:
  embedder: {type: remote, base_url: "http://embedder.internal/v1", model: e, api_key: env.EMBED_KEY}
  embeddings:
    - {name: greeting, examples: ["hello there"], threshold: 0.9}
`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(cfg, Options{LookupEnv: func(k string) (string, bool) { return "abc", k == "EMBED_KEY" }})
	const want = "api_key env.EMBED_KEY: environment variable EMBED_KEY holds 3 characters; a credential needs at least 6"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("New = %v, want an error containing %q", err, want)
	}
}

// TestEncodedCredentialIsRedacted: a key that comes back hex or base64 encoded, alone or
// inside a longer encoded text such as the Authorization header, is redacted too, since a
// client decodes it at once.
func TestEncodedCredentialIsRedacted(t *testing.T) {
	t.Parallel()
	const key = "sk-proj-Zq8LmN3vXr7TtY2pQw9s"
	cfg, err := config.Parse([]byte("models:\n  - model_name: a\n    provider: {type: openai_compatible, base_url: http://x/v1, api_key: env.KEY}\n"))
	if err != nil {
		t.Fatal(err)
	}
	red := redact.New()
	rd := newRedaction(cfg, red, func(k string) (string, bool) { return key, k == "KEY" })
	defer func() { _ = rd.close() }()
	for _, tc := range []struct{ name, in, want string }{
		{"hex", "x 736b2d70726f6a2d5a71384c6d4e3376587237547459327051773973 y", "x [redacted] y"},
		{"hex upper case", "x 736B2D70726F6A2D5A71384C6D4E3376587237547459327051773973 y", "x [redacted] y"},
		{"base64", "x c2stcHJvai1acThMbU4zdlhyN1R0WTJwUXc5cw== y", "x [redacted] y"},
		{"base64 unpadded", "x c2stcHJvai1acThMbU4zdlhyN1R0WTJwUXc5cw y", "x [redacted] y"},
		{"base64 of the header", "x QmVhcmVyIHNrLXByb2otWnE4TG1OM3ZYcjdUdFkycFF3OXM= y", "x QmVhcmVyIH[redacted]M= y"},
		{"base64 at offset one", "x IHNrLXByb2otWnE4TG1OM3ZYcjdUdFkycFF3OXM= y", "x IH[redacted]M= y"},
		{"base64 at offset two", "x ICBzay1wcm9qLVpxOExtTjN2WHI3VHRZMnBRdzlz y", "x ICB[redacted] y"},
		{"base64 of another key", "x c2stcHJvai1acThMbU4zdlhyN1R0WTJwUXc5dA== y", "x c2stcHJvai1acThMbU4zdlhyN1R0WTJwUXc5dA== y"},
	} {
		if got := red.String(tc.in); got != tc.want {
			t.Errorf("%s: String(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}
