package providertest_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/bedrock"
	"github.com/semantic-router/semantic-router/internal/provider/openaicompat"
	"github.com/semantic-router/semantic-router/internal/provider/providertest"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
	"github.com/semantic-router/semantic-router/internal/provider/vertex"
)

// testCA is a private CA, as a company running its own model servers has.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newTestCA(t *testing.T, notBefore, notAfter time.Time) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Test Models CA"},
		NotBefore: notBefore, NotAfter: notAfter, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// serve starts a TLS server for h whose certificate, signed by the CA, names only dns and
// ips.
func (ca *testCA) serve(t *testing.T, h http.Handler, dns []string, ips []net.IP) *httptest.Server {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "models"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), DNSNames: dns, IPAddresses: ips,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // rejected handshakes are the point here
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

// tlsProviders builds each provider against its fake, served over TLS by serveTLS, with a
// transport that trusts caPEM (none when nil). It returns each provider's base URL too.
func tlsProviders(t *testing.T, caPEM []byte, serveTLS func(http.Handler) *httptest.Server) map[string]struct {
	p    provider.Provider
	base string
} {
	t.Helper()
	tr, err := transport.New(transport.Options{CACertPEM: caPEM})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]struct {
		p    provider.Provider
		base string
	}{}
	script := providertest.NewScript()

	oa := providertest.NewOpenAIFake(t, script, "k")
	srv := serveTLS(oa.Server.Config.Handler)
	p1, err := openaicompat.New(openaicompat.Options{Name: "m", BaseURL: srv.URL + "/v1", Model: "x", Transport: tr,
		APIKey: func() (string, error) { return "k", nil }})
	if err != nil {
		t.Fatal(err)
	}
	out["openai_compatible"] = struct {
		p    provider.Provider
		base string
	}{p1, srv.URL + "/v1"}

	creds := aws.Credentials{AccessKeyID: "AKID", SecretAccessKey: "s"}
	bf := providertest.NewBedrockFake(t, script, "us-east-1", creds)
	srv = serveTLS(bf.Server.Config.Handler)
	p2, err := bedrock.New(bedrock.Options{Name: "m", Model: "x", Region: "us-east-1", BaseURL: srv.URL, Transport: tr,
		AccessKeyID: func() (string, error) { return "AKID", nil }, SecretAccessKey: func() (string, error) { return "s", nil }})
	if err != nil {
		t.Fatal(err)
	}
	out["bedrock"] = struct {
		p    provider.Provider
		base string
	}{p2, srv.URL}

	vf := providertest.NewVertexFake(t, script, "p", "us-central1")
	key := base64.StdEncoding.EncodeToString(vf.NewKey(t))
	srv = serveTLS(vf.Server.Config.Handler)
	p3, err := vertex.New(vertex.Options{Name: "m", Model: "x", Project: "p", Location: "us-central1", BaseURL: srv.URL, Transport: tr,
		ServiceAccountKey: func() (string, error) { return key, nil }})
	if err != nil {
		t.Fatal(err)
	}
	out["vertex"] = struct {
		p    provider.Provider
		base string
	}{p3, srv.URL}
	return out
}

func TestTLSTrust(t *testing.T) {
	t.Parallel()
	ca := newTestCA(t, time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour))
	loopback := []net.IP{net.IPv4(127, 0, 0, 1)}
	tests := []struct {
		name    string
		caPEM   []byte
		dns     []string
		ips     []net.IP
		wantErr string // with {base} for the provider's base URL; empty for success
	}{
		{name: "ca_cert_pem trusts the private CA", caPEM: ca.pem, ips: loopback},
		{name: "no ca_cert_pem", ips: loopback,
			wantErr: `model "m": TLS: the certificate of {base} is signed by an unknown authority; set provider.ca_cert_pem to a reference to the CA bundle`},
		{name: "server name not in the SANs", caPEM: ca.pem, dns: []string{"models.internal.example", "models"},
			wantErr: `model "m": TLS: the certificate of {base} is not valid for host "127.0.0.1" (its subject alternative names: models.internal.example, models)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ps := tlsProviders(t, tt.caPEM, func(h http.Handler) *httptest.Server { return ca.serve(t, h, tt.dns, tt.ips) })
			for name, p := range ps {
				_, err := p.p.ChatCompletion(context.Background(), &openai.ChatRequest{
					Messages: []openai.Message{{Role: "user", Content: openai.TextContent("hi")}}})
				if tt.wantErr == "" {
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					continue
				}
				var pe *provider.Error
				want := strings.ReplaceAll(tt.wantErr, "{base}", p.base)
				if !errors.As(err, &pe) || pe.Kind != provider.KindTLS || err.Error() != want {
					t.Fatalf("%s: error\n%v\nwant kind tls and\n%s", name, err, want)
				}
			}
		})
	}
}

// TestCACertStartupErrors shows that a bad bundle stops the transport from being built, so
// the router refuses to start instead of failing requests.
func TestCACertStartupErrors(t *testing.T) {
	t.Parallel()
	expired := newTestCA(t, time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC))
	tests := []struct {
		name, pem, want string
	}{
		{"expired", string(expired.pem), "ca_cert_pem: certificate 1 (Test Models CA) expired on 2021-01-01"},
		{"not PEM", "just text", "ca_cert_pem: no PEM certificate found (expected -----BEGIN CERTIFICATE-----)"},
		{"garbage in a PEM block", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
			"ca_cert_pem: certificate 1 does not parse: x509: malformed certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := transport.New(transport.Options{CACertPEM: []byte(tt.pem)})
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}
