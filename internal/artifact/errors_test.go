package artifact

import (
	"context"
	"errors"
	"net"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/semantic-router/semantic-router/internal/config"
)

func TestExplainTransport(t *testing.T) {
	t.Parallel()
	base, _ := url.Parse("https://huggingface.co/org/m/resolve/main/x")
	signed := &url.Error{Op: "Get", URL: "https://cdn.example.com/blob?X-Amz-Signature=secret", Err: errors.New("boom")}
	tests := []struct {
		name string
		err  error
		kind Kind
		want string
	}{
		{
			name: "dns",
			err:  &url.Error{Op: "Get", URL: base.String(), Err: &net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "huggingface.co", IsNotFound: true}}},
			kind: KindDNS,
			want: `cannot resolve host "huggingface.co" of https://huggingface.co: check DNS, the base_url and egress from the router (network policies, firewalls, and HTTPS_PROXY when traffic must go through a proxy)`,
		},
		{
			name: "proxy",
			err:  &url.Error{Op: "Get", URL: base.String(), Err: &net.OpError{Op: "proxyconnect", Net: "tcp", Err: errors.New("connection refused")}},
			kind: KindConnect,
			want: `cannot connect to the proxy (HTTPS_PROXY) on the way to https://huggingface.co: connection refused`,
		},
		{
			name: "a redirect's query is never shown",
			err:  signed,
			kind: KindConnect,
			want: `download from https://cdn.example.com interrupted: boom`,
		},
		{
			name: "stalled",
			err:  errStalled,
			kind: KindConnect,
			want: `no data from https://huggingface.co for too long; the connection stalled`,
		},
		{
			name: "canceled",
			err:  context.Canceled,
			kind: KindCanceled,
			want: `the download was canceled`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			kind, msg := explainTransport(tt.err, base)
			if kind != tt.kind || msg != tt.want {
				t.Fatalf("got  %s %q\nwant %s %q", kind, msg, tt.kind, tt.want)
			}
		})
	}
}

func TestConnectionRefusedIsRetriedThenExplained(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	a := config.Artifact{Name: "m", Repository: "org/m", Revision: "main", BaseURL: "http://" + addr,
		Dir: filepath.Join(t.TempDir(), "m"), Files: []config.ArtifactFile{{Path: "model.onnx", SaveAs: "model.onnx"}}}
	_, err = New(Options{Backoff: instant, MaxAttempts: 2}).Ensure(context.Background(), a)
	want := `artifact "m": model.onnx: connection refused by http://` + addr +
		`: check the base_url and egress from the router (network policies, firewalls, and HTTPS_PROXY when traffic must go through a proxy) (gave up after 2 attempts)`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}
