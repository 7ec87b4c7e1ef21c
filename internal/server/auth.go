package server

import (
	"net/http"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
)

// requireRole wraps a management handler: with management auth on, the request must carry a
// token whose role is at least role. A read token may read; an admin token may do anything.
func requireRole(src *router.Holder, role string, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rt := src.Current()
		if !rt.ManagementAuth() {
			next(w, r)
			return
		}
		name, got, ok := rt.ManagementRole(openai.BearerToken(r.Header.Get("Authorization")))
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
