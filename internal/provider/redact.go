package provider

import (
	"strings"
	"unicode/utf8"
)

// Redacted replaces a credential value in text a provider puts into an error.
const Redacted = "[redacted]"

// MaxUpstreamText bounds the upstream text (an error message a backend sent) that a
// provider keeps in an error.
const MaxUpstreamText = 300

// minSecretLen is the shortest value treated as a credential: shorter ones would garble
// any text they happen to occur in, and no real API key, AWS key or OAuth token is so short.
const minSecretLen = 6

// Redact returns s with every occurrence of each secret replaced by "[redacted]". Providers
// call it with the credential values they sent (an API key, the AWS secret, session token
// and access key id, an OAuth access token) on any text a backend sent back, since a
// backend may echo the request's headers into its error. Values shorter than six bytes are
// left alone.
func Redact(s string, secrets ...string) string {
	for _, v := range secrets {
		if len(v) >= minSecretLen && strings.Contains(s, v) {
			s = strings.ReplaceAll(s, v, Redacted)
		}
	}
	return s
}

// UpstreamText makes text a backend sent fit to keep in an error: the credentials redacted
// first (so a cut cannot leave half a secret), then the first line, trimmed and cut to
// MaxUpstreamText bytes at a character boundary.
func UpstreamText(s string, secrets ...string) string {
	s = Redact(s, secrets...)
	s, _, _ = strings.Cut(s, "\n")
	s = strings.TrimSpace(s)
	if len(s) <= MaxUpstreamText {
		return s
	}
	cut := MaxUpstreamText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// RedactError removes the secrets from the message of err when it is a *Error, and returns
// err. Providers apply it to every error they return, as a last guard behind the redaction
// of upstream text where it is read.
func RedactError(err error, secrets ...string) error {
	if e, ok := err.(*Error); ok && e != nil { //nolint:errorlint // only the provider's own top-level error is rewritten
		e.Message = Redact(e.Message, secrets...)
	}
	return err
}
