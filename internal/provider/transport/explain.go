package transport

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"

	"github.com/semantic-router/semantic-router/internal/provider"
)

// Explain turns an error from http.Client.Do into a *provider.Error whose message says what
// failed and what to check. baseURL is the configured URL, safe to show.
func Explain(model, baseURL string, err error) *provider.Error {
	e := &provider.Error{Model: model, Err: err}
	var (
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		invalid          x509.CertificateInvalidError
		dnsErr           *net.DNSError
	)
	switch {
	case errors.Is(err, context.Canceled):
		e.Kind, e.Message = provider.KindCanceled, "the request was canceled"
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		e.Kind, e.Message = provider.KindTimeout, fmt.Sprintf("no answer from %s in time (see the model's timeout and connect_timeout)", baseURL)
	case errors.As(err, &unknownAuthority):
		e.Kind = provider.KindTLS
		e.Message = fmt.Sprintf("TLS: the certificate of %s is signed by an unknown authority; set provider.ca_cert_pem to a reference to the CA bundle", baseURL)
	case errors.As(err, &hostname):
		e.Kind = provider.KindTLS
		names := "none"
		if hostname.Certificate != nil && len(hostname.Certificate.DNSNames) > 0 {
			names = strings.Join(hostname.Certificate.DNSNames, ", ")
		}
		e.Message = fmt.Sprintf("TLS: the certificate of %s is not valid for host %q (its subject alternative names: %s)", baseURL, hostname.Host, names)
	case errors.As(err, &invalid):
		e.Kind = provider.KindTLS
		e.Message = fmt.Sprintf("TLS: the certificate of %s is invalid: %s", baseURL, invalid.Error())
	case strings.Contains(err.Error(), "server response headers exceeded"):
		// net/http has no typed error for it; its text has been the same since Go 1.7.
		e.Kind = provider.KindProtocol
		e.Message = fmt.Sprintf("the answer of %s has headers larger than %d KiB and was refused", baseURL, MaxResponseHeaderBytes>>10)
	case errors.Is(err, syscall.ECONNREFUSED):
		e.Kind = provider.KindConnect
		e.Message = fmt.Sprintf("connection refused at base_url %s: check that the server is running and the scheme, host and port are right", baseURL)
	case errors.As(err, &dnsErr):
		e.Kind = provider.KindConnect
		e.Message = fmt.Sprintf("cannot resolve host %q of base_url %s", dnsErr.Name, baseURL)
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE):
		e.Kind = provider.KindConnect
		e.Message = fmt.Sprintf("connection to %s was reset", baseURL)
	case errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH):
		e.Kind = provider.KindConnect
		e.Message = fmt.Sprintf("%s is unreachable from the router: check routes and network policies", baseURL)
	default:
		e.Kind = provider.KindConnect
		e.Message = fmt.Sprintf("calling %s: %v", baseURL, err)
	}
	return e
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
