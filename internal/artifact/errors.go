package artifact

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
)

// Kind classifies a failure so that callers (the readiness reason, the operator's status)
// can name the cause without parsing messages.
type Kind string

// Failure kinds.
const (
	KindDNS      Kind = "dns"      // the host name does not resolve
	KindConnect  Kind = "connect"  // no connection, a cut one, a timeout, a proxy failure
	KindTLS      Kind = "tls"      // the server's certificate is not trusted
	KindAuth     Kind = "auth"     // 401 or 403
	KindNotFound Kind = "notfound" // 404: wrong repository, revision or path
	KindHTTP     Kind = "http"     // another unexpected status, 429 and 5xx included
	KindChecksum Kind = "checksum" // the downloaded file does not match its sha256
	KindSize     Kind = "size"     // the server's file is not of the configured size
	KindOffline  Kind = "offline"  // a file is missing and downloads are off
	KindConfig   Kind = "config"   // a token or CA reference cannot be read
	KindIO       Kind = "io"       // the cache directory cannot be written, or has no room
	KindCanceled Kind = "canceled" // the context ended
)

// Error is a failure to make one artifact file available. Its message says what failed and
// what to change; it never contains a token, only the reference it came from, and never a
// redirect's query string (signed CDN URLs carry credentials there).
type Error struct {
	// Artifact is the artifact's name; File its file's path in the repository, or empty.
	Artifact, File string
	// Kind is the class of the cause.
	Kind Kind
	// Message explains the cause; it is safe to show.
	Message string
	// Err is the underlying error, if any.
	Err error

	retry bool // another attempt may cure it
}

func (e *Error) Error() string {
	if e.File == "" {
		return fmt.Sprintf("artifact %q: %s", e.Artifact, e.Message)
	}
	return fmt.Sprintf("artifact %q: %s: %s", e.Artifact, e.File, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// errStalled is the cause of a download canceled because no data came for StallTimeout.
var errStalled = errors.New("no data received")

// origin is scheme://host of u: what may be shown of a URL that could carry a signature.
func origin(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// explainTransport turns an error from http.Client.Do or from reading a body into a kind
// and a message that names what to check.
func explainTransport(err error, fallback *url.URL) (Kind, string) {
	where := origin(fallback)
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			where = origin(u)
		}
	}
	var (
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		invalid          x509.CertificateInvalidError
		dnsErr           *net.DNSError
		opErr            *net.OpError
	)
	const egress = "egress from the router (network policies, firewalls, and HTTPS_PROXY when traffic must go through a proxy)"
	var redirect *redirectError
	switch {
	case errors.As(err, &redirect):
		return KindHTTP, redirect.msg
	case errors.Is(err, context.Canceled):
		return KindCanceled, "the download was canceled"
	case errors.Is(err, errStalled):
		return KindConnect, fmt.Sprintf("no data from %s for too long; the connection stalled", where)
	case errors.As(err, &opErr) && opErr.Op == "proxyconnect":
		return KindConnect, fmt.Sprintf("cannot connect to the proxy (HTTPS_PROXY) on the way to %s: %v", where, opErr.Err)
	case errors.As(err, &unknownAuthority):
		return KindTLS, fmt.Sprintf("TLS: the certificate of %s is signed by an unknown authority; set the artifact's ca_cert_pem to a reference to the CA bundle (a mirror's CA, or a TLS-inspecting proxy's)", where)
	case errors.As(err, &hostname):
		return KindTLS, fmt.Sprintf("TLS: the certificate of %s is not valid for host %q", where, hostname.Host)
	case errors.As(err, &invalid):
		return KindTLS, fmt.Sprintf("TLS: the certificate of %s is invalid: %s", where, invalid.Error())
	case errors.As(err, &dnsErr):
		return KindDNS, fmt.Sprintf("cannot resolve host %q of %s: check DNS, the base_url and %s", dnsErr.Name, where, egress)
	case errors.Is(err, syscall.ECONNREFUSED):
		return KindConnect, fmt.Sprintf("connection refused by %s: check the base_url and %s", where, egress)
	case errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH):
		return KindConnect, fmt.Sprintf("%s is unreachable: check %s", where, egress)
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return KindConnect, fmt.Sprintf("no answer from %s in time: check %s", where, egress)
	default:
		return KindConnect, fmt.Sprintf("download from %s interrupted: %v", where, scrub(err))
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// scrub drops the URL from a *url.Error, whose text would include a redirect's query.
func scrub(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// statusError explains an HTTP status other than 200 and 206.
func statusError(a *job, file string, resp *http.Response) *Error {
	e := &Error{Artifact: a.cfg.Name, File: file, Kind: KindHTTP}
	where := origin(resp.Request.URL)
	code := resp.StatusCode
	status := fmt.Sprintf("%d %s", code, http.StatusText(code))
	detail := ""
	if m := strings.TrimSpace(resp.Header.Get("X-Error-Message")); m != "" {
		detail = fmt.Sprintf(" (the server says: %.200s)", m)
	}
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		e.Kind = KindAuth
		if a.cfg.Token.IsZero() {
			e.Message = fmt.Sprintf("%s from %s%s: the repository %q needs a token; set the artifact's token to an env.VAR or file:/path reference (Hugging Face also answers 401 for a repository that does not exist)",
				status, where, detail, a.cfg.Repository)
		} else {
			e.Message = fmt.Sprintf("%s from %s%s: the token from %s was refused; check that it is valid and may read %q (for a gated model, accept its terms on the model's page)",
				status, where, detail, a.cfg.Token, a.cfg.Repository)
		}
	case code == http.StatusNotFound:
		e.Kind = KindNotFound
		e.Message = fmt.Sprintf("%s from %s%s: no file %q at revision %q of repository %q; check the repository, the revision and the file's path",
			status, where, detail, file, a.cfg.Revision, a.cfg.Repository)
	case code == http.StatusTooManyRequests || code >= 500:
		e.retry = true
		e.Message = fmt.Sprintf("%s from %s%s", status, where, detail)
	default:
		e.Message = fmt.Sprintf("unexpected %s from %s%s", status, where, detail)
	}
	return e
}
