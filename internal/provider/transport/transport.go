// Package transport builds the pooled HTTP transports that providers use to reach their
// backends, and explains transport failures in words an operator can act on.
package transport

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Options tune a transport. Zero values take the defaults noted on each field.
type Options struct {
	// ConnectTimeout bounds dialing and the TLS handshake. Default 5s.
	ConnectTimeout time.Duration
	// CACertPEM, if set, is a PEM bundle added to the system roots.
	CACertPEM []byte
	// Now is the clock used to check certificate expiry; default time.Now.
	Now func() time.Time
	// H2C speaks HTTP/2 without TLS, with prior knowledge, to http:// URLs: every request to
	// a host shares a connection (up to the server's stream limit) instead of holding one.
	// Such a transport speaks nothing else.
	H2C bool
}

// MaxResponseHeaderBytes bounds the headers of a backend's answer. Model servers send a few
// hundred bytes; Go's own default (10 MB) would let a broken or hostile backend make the
// router hold megabytes per call before a single event.
const MaxResponseHeaderBytes = 256 << 10

// IdleConnTimeout is how long an idle upstream connection is kept for the next request.
const IdleConnTimeout = 90 * time.Second

// New returns a transport tuned for many concurrent keep-alive connections to a few hosts,
// which is what a gateway in front of model servers has. It fails if CACertPEM holds no
// certificate or an expired one, so a bad bundle is a start-up error, not a request error.
func New(o Options) (*http.Transport, error) {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 5 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if len(o.CACertPEM) > 0 {
		pool, err := CertPool(o.CACertPEM, o.Now())
		if err != nil {
			return nil, err
		}
		tlsConf.RootCAs = pool
	}
	dialer := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}
	t := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSClientConfig:       tlsConf,
		TLSHandshakeTimeout:   o.ConnectTimeout,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          2048,
		MaxIdleConnsPerHost:   512,
		IdleConnTimeout:       IdleConnTimeout,
		ExpectContinueTimeout: time.Second,
		// Model servers answer compressed or not as they like; the router passes bytes on,
		// so it asks for none and never pays to decompress.
		DisableCompression: true,
		// A connection keeps its buffers for its lifetime, and a router holding thousands
		// of streams holds as many connections. Request headers fit in 1 KiB, and a body
		// larger than the buffer is written through it, not copied. Reading, a longer
		// header line is read in pieces, and a read larger than the buffer (a whole answer's
		// body, a stream's events) goes straight into the reader's memory.
		WriteBufferSize:        1 << 10,
		ReadBufferSize:         1 << 10,
		MaxResponseHeaderBytes: MaxResponseHeaderBytes,
	}
	if o.H2C {
		t.Protocols = new(http.Protocols)
		t.Protocols.SetUnencryptedHTTP2(true)
	}
	return t, nil
}

// CertPool returns the system roots plus every certificate in pemBytes. It fails when the
// bundle holds no certificate, a block that does not parse, or a certificate that has
// expired or is not yet valid at now.
func CertPool(pemBytes []byte, now time.Time) (*x509.CertPool, error) {
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	n := 0
	for rest := pemBytes; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		n++
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("ca_cert_pem: certificate %d does not parse: %w", n, err)
		}
		if now.After(cert.NotAfter) {
			return nil, fmt.Errorf("ca_cert_pem: certificate %d (%s) expired on %s", n, cert.Subject.CommonName, cert.NotAfter.UTC().Format(time.DateOnly))
		}
		if now.Before(cert.NotBefore) {
			return nil, fmt.Errorf("ca_cert_pem: certificate %d (%s) is not valid before %s", n, cert.Subject.CommonName, cert.NotBefore.UTC().Format(time.RFC3339))
		}
		pool.AddCert(cert)
	}
	if n == 0 {
		return nil, errors.New("ca_cert_pem: no PEM certificate found (expected -----BEGIN CERTIFICATE-----)")
	}
	return pool, nil
}
