package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"strings"
	"sync/atomic"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
)

// Readiness is the router's readiness: false until the configuration is loaded and every model
// is registered, and again while shutting down. It is safe for concurrent use.
type Readiness struct {
	ready    atomic.Bool
	stopping atomic.Pointer[string] // why the router stops; nil until Stop
	check    atomic.Pointer[func(context.Context) error]
}

// SetCheck sets a condition of readiness, asked on each probe: its error (a model artifact
// still downloading, a remote embedder that has not answered yet) makes /ready a 503 whose
// body gives it as the reason, also before the router is marked ready. A later call
// replaces the check.
func (r *Readiness) SetCheck(check func(context.Context) error) { r.check.Store(&check) }

// Reason returns why the router is not ready, or "" when it is: what /ready answers. A
// router that is stopping says so first, whatever the check says, so that an operator
// watching a pod leave its Service sees why; one not yet marked ready says it is starting.
func (r *Readiness) Reason(ctx context.Context) string {
	if why := r.stopping.Load(); why != nil {
		return *why
	}
	if c := r.check.Load(); c != nil {
		if err := (*c)(ctx); err != nil {
			return err.Error()
		}
	}
	if !r.ready.Load() {
		return "starting: the configuration and models are not loaded yet"
	}
	return ""
}

// Set marks the router ready or not.
func (r *Readiness) Set(ready bool) { r.ready.Store(ready) }

// Stop marks the router not ready for good, with why as the reason /ready gives. The first
// call's reason stays.
func (r *Readiness) Stop(why string) {
	r.stopping.CompareAndSwap(nil, &why)
	r.ready.Store(false)
}

// Ready reports the state.
func (r *Readiness) Ready() bool { return r.ready.Load() }

// Reloader reloads the configuration, as SIGHUP does. It reports whether a new configuration
// was applied (false: the file had not changed); the error lists every problem of a refused
// one.
type Reloader func(context.Context) (applied bool, err error)

// ErrReloadReplaced is a Reloader's error for a reload that a newer one replaced before it
// applied: not a refusal of its configuration.
var ErrReloadReplaced = errors.New("a newer reload replaced this one")

// NewManagement returns the handler of the management API: /health, /ready,
// /api/v1/models, /api/v1/config, the cache's stats and flush (/api/v1/cache, POST
// /api/v1/cache/flush), when reload is not nil POST /api/v1/config/reload, and with
// management.profiling Go's profiles under /debug/pprof/ for admin tokens.
// It never serves completions. With management auth configured every path but the probes
// needs a token: read for GET, admin for the reload.
func NewManagement(src *router.Holder, ready *Readiness, inferenceAddr string, log *slog.Logger, reload Reloader) http.Handler {
	mux := newRoutes(func(w http.ResponseWriter, r *http.Request) {
		paths := []string{"/health", "/ready", "/api/v1/models", "/api/v1/config", "/api/v1/cache", "POST /api/v1/classify", "POST /api/v1/config/reload", "POST /api/v1/cache/flush"}
		writeError(w, openai.NotFound("unknown_url", fmt.Sprintf("unknown path %s; the management API serves %s",
			clip(r.URL.Path), strings.Join(paths, ", "))))
	})
	addProbes(mux, ready)
	mux.handle(http.MethodGet, "/api/v1/models", requireRole(src, config.RoleRead, func(w http.ResponseWriter, _ *http.Request) {
		rt := src.Current()
		writeRedactedJSON(w, rt, map[string]any{
			"virtual_model": rt.Config().Routing.VirtualModel,
			"models":        rt.Models(),
		})
	}))
	mux.handle(http.MethodGet, "/api/v1/config", requireRole(src, config.RoleRead, func(w http.ResponseWriter, _ *http.Request) {
		// Credentials are references (env.VAR, file:/path) and SecretRef redacts anything
		// else; a held value written elsewhere (a key in a base_url's path) is redacted too.
		rt := src.Current()
		writeRedactedJSON(w, rt, rt.Config())
	}))
	mux.handle(http.MethodPost, "/api/v1/config/reload", requireRole(src, config.RoleAdmin, func(w http.ResponseWriter, r *http.Request) {
		if reload == nil {
			writeError(w, &openai.APIError{Status: http.StatusConflict, Type: openai.TypeInvalidRequest, Code: "nothing_to_reload",
				Message: "the router runs the embedded demo config; start it with -config to reload a file"})
			return
		}
		applied, err := reload(r.Context())
		if errors.Is(err, ErrReloadReplaced) {
			writeError(w, &openai.APIError{Status: http.StatusConflict, Type: openai.TypeInvalidRequest, Code: "reload_replaced",
				Message: "a newer reload (a change of the file, SIGHUP or another call) replaced this one while it waited; the newest configuration is applied instead"})
			return
		}
		if err != nil {
			writeError(w, &openai.APIError{Status: http.StatusUnprocessableEntity, Type: openai.TypeInvalidRequest, Code: "invalid_config",
				Message: "the new configuration was refused and the old one keeps serving:\n" + err.Error()})
			return
		}
		status := "unchanged"
		if applied {
			status = "applied"
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": status})
	}))
	mux.handle(http.MethodPost, "/api/v1/classify", requireRole(src, config.RoleRead, classify(src)))
	mux.handle(http.MethodGet, "/api/v1/cache", requireRole(src, config.RoleRead, func(w http.ResponseWriter, _ *http.Request) {
		stats, on := src.Current().CacheStats()
		writeJSON(w, http.StatusOK, map[string]any{"enabled": on, "stats": stats})
	}))
	mux.handle(http.MethodPost, "/api/v1/cache/flush", requireRole(src, config.RoleAdmin, func(w http.ResponseWriter, r *http.Request) {
		if err := src.Current().FlushCache(r.Context()); err != nil {
			writeError(w, &openai.APIError{Status: http.StatusBadGateway, Type: openai.TypeServer, Code: "cache_unavailable",
				Message: "flushing the cache failed: " + err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "flushed"})
	}))
	mux.handlePrefix("/debug/pprof/", requireRole(src, config.RoleAdmin, profiles(src)))
	mux.handlePrefix("/v1/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, openai.NotFound("wrong_port", fmt.Sprintf(
			"%s is not served on the management API; inference is served on the OpenAI-compatible listener (%s, port 8801 by default)",
			clip(r.URL.Path), inferenceAddr)))
	})
	// With auth on, every other path needs a token before the API says anything about it: a
	// stranger learns neither its paths nor their methods.
	open := func(path string) bool {
		return path == "/health" || path == "/ready" || strings.HasPrefix(path, "/v1/")
	}
	authenticated := requireRole(src, config.RoleRead, mux.ServeHTTP)
	return withRequestContext(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if open(r.URL.Path) {
			mux.ServeHTTP(w, r)
			return
		}
		authenticated(w, r)
	}), log, nil, "management")
}

// profiles serves net/http/pprof while the current configuration turns profiling on, and
// 404 otherwise, so that a reload switches it either way.
func profiles(src *router.Holder) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !src.Current().Config().Management.ProfilingEnabled() {
			writeError(w, openai.NotFound("profiling_off", "profiling is off; set management.profiling: true (it needs bearer auth and an admin token)"))
			return
		}
		switch strings.TrimPrefix(r.URL.Path, "/debug/pprof/") {
		case "cmdline":
			pprof.Cmdline(w, r)
		case "profile":
			pprof.Profile(w, r)
		case "symbol":
			pprof.Symbol(w, r)
		case "trace":
			pprof.Trace(w, r)
		default:
			pprof.Index(w, r)
		}
	}
}

// addProbes serves /health, always 200 while the process serves, and /ready, 200 when ready
// and otherwise 503 with the reason. Neither needs a token.
func addProbes(mux *routes, ready *Readiness) {
	mux.handle(http.MethodGet, "/health", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.handle(http.MethodGet, "/ready", func(w http.ResponseWriter, r *http.Request) {
		if reason := ready.Reason(r.Context()); reason != "" {
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "not ready", "reason": reason})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	})
}

// LateManagement is the management API of a router that is not built yet, as while its
// model artifacts download: it answers the probes, /ready with the reason, and every other
// path with 503, until Set hands it the full API. It is safe for concurrent use.
type LateManagement struct {
	starting http.Handler
	full     atomic.Pointer[http.Handler]
}

// NewLateManagement returns the stand-in management API, reporting ready.
func NewLateManagement(ready *Readiness, log *slog.Logger) *LateManagement {
	mux := newRoutes(func(w http.ResponseWriter, r *http.Request) {
		why := ready.Reason(r.Context())
		if why == "" {
			why = "not ready"
		}
		writeError(w, &openai.APIError{Status: http.StatusServiceUnavailable, Type: openai.TypeServer, Code: "starting",
			Message: "the router is starting (" + why + "); " + clip(r.URL.Path) + " is served once GET /ready answers 200"})
	})
	addProbes(mux, ready)
	return &LateManagement{starting: withRequestContext(mux, log, nil, "management")}
}

// Set makes full, the handler of NewManagement, serve every request from now on.
func (m *LateManagement) Set(full http.Handler) { m.full.Store(&full) }

func (m *LateManagement) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := m.full.Load(); h != nil {
		(*h).ServeHTTP(w, r)
		return
	}
	m.starting.ServeHTTP(w, r)
}

// writeRedactedJSON writes v as a 200 JSON answer with every credential value rt holds
// replaced, for answers built from the configuration and the models' state.
func writeRedactedJSON(w http.ResponseWriter, rt *router.Router, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(append(rt.Redact(b), '\n'))
}
