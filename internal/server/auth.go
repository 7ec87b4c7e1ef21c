package server

import (
	"net/http"
	"strings"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
)

// bearerToken returns the token of an "Authorization: Bearer <token>" header value, or ""
// when the value is not one. The scheme is case-insensitive (RFC 9110); the token is one run
// of visible ASCII characters with no spaces, so stray whitespace cannot smuggle a second
// value in.
func bearerToken(header string) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	token = strings.TrimLeft(token, " ")
	if token == "" || len(token) > 4096 {
		return ""
	}
	for i := range len(token) {
		if c := token[i]; c < 0x21 || c > 0x7e {
			return ""
		}
	}
	return token
}

// requireRole wraps a management handler: with management auth on, the request must carry a
// token whose role is at least role. A read token may read; an admin token may do anything.
func requireRole(src *router.Holder, role string, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rt := src.Current()
		if !rt.ManagementAuth() {
			next(w, r)
			return
		}
		name, got, ok := rt.ManagementRole(bearerToken(r.Header.Get("Authorization")))
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="semantic-router management"`)
			writeError(w, &openai.APIError{Status: http.StatusUnauthorized, Type: openai.TypeAuthentication, Code: "invalid_token",
				Message: "the management API needs a token from management.tokens: send it as Authorization: Bearer <token>"})
			return
		}
		if role == config.RoleAdmin && got != config.RoleAdmin {
			writeError(w, &openai.APIError{Status: http.StatusForbidden, Type: openai.TypePermission, Code: "admin_required",
				Message: "the token \"" + name + "\" has the read role; " + r.Method + " " + r.URL.Path + " needs an admin token"})
			return
		}
		next(w, r)
	}
}
