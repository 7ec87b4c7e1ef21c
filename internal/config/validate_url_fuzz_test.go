package config

import (
	"strings"
	"testing"
)

// FuzzRedactURL: whatever the URL looks like, parsable or not, the userinfo, the query values
// and the fragment never survive RedactURL.
func FuzzRedactURL(f *testing.F) {
	f.Add("http", "user:pass", "vllm:8000", "v1", "api-key", "hunter2", "frag")
	f.Add("https", "a@b", "[::1]:1", "", "k", "v=w", "")
	f.Add("http", "u:hun/ter2", "vllm:8000", "v1", "k", "v", "")
	f.Fuzz(func(t *testing.T, scheme, userinfo, host, path, key, value, frag string) {
		// The parts must not hold the separators that delimit them, or they are other parts;
		// but a password may hold a "/", which people write unescaped.
		for _, p := range []string{scheme, userinfo, host, path, key, value, frag} {
			if strings.ContainsAny(p, "?#&@") || p != userinfo && strings.Contains(p, "/") {
				return
			}
		}
		if strings.Contains(key, "=") {
			return
		}
		raw := scheme + "://" + userinfo + "@" + host + "/" + path + "?" + key + "=" + value + "#" + frag
		got := RedactURL(raw)
		want := scheme + "://[redacted]@" + host + "/" + path + "?" + key + "=[redacted]#[redacted]"
		if got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", raw, got, want)
		}
	})
}

// FuzzRedactAddress: whatever the credentials before an address's last "@" hold ("/", "?",
// "#", "://"), nothing of them survives redactAddress; only a URL scheme before them does.
func FuzzRedactAddress(f *testing.F) {
	f.Add("redis", "u:p/a?s#s", "redis:6379")
	f.Add("", "u:p://w", "127.0.0.1:4317")
	f.Fuzz(func(t *testing.T, scheme, userinfo, host string) {
		if strings.ContainsAny(host, "@/?#") {
			return
		}
		if _, _, ok := cutScheme(userinfo); ok && scheme == "" {
			return // "x://y@host" is y at host over x, whatever was meant
		}
		raw := userinfo + "@" + host
		if scheme != "" {
			raw = scheme + "://" + raw
		}
		got := redactAddress(raw)
		if got != "[redacted]@"+host && got != scheme+"://[redacted]@"+host {
			t.Errorf("redactAddress(%q) = %q", raw, got)
		}
	})
}
