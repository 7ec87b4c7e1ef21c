package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// requestInfo collects what the handler learns about a request, for the access log line and
// the metrics written when it ends.
type requestInfo struct {
	id       string
	start    time.Time // when the request arrived
	model    string    // metric label: a configured name, the virtual model, or "unknown"
	selected string    // the model that served it
	stream   bool
	// err is the failure the log line gives beside the status: a stream's, after its status
	// was sent, or the router's shutdown, which ended the request.
	err    error
	span   trace.Span // the request's span, when the handler started one
	client string     // the API key's name, never the key
	cache  string     // the cache's outcome, when the cache applies
	// decision is the routing decision that matched: the one that refused a blocked request.
	decision string
	// modelFailed: the answer is the model's failure, counted by the router by its reason.
	modelFailed bool
}

type ctxKey struct{}

// requestInfoFrom returns the request's info, or a new one outside the middleware. It is not
// inlined: its fallback would then sit in the caller's frame, on the connection's goroutine.
//
//go:noinline
func requestInfoFrom(ctx context.Context) *requestInfo {
	if info, ok := ctx.Value(ctxKey{}).(*requestInfo); ok {
		return info
	}
	return &requestInfo{}
}

// statusRecorder remembers the status code. It forwards Flush and full-duplex control to the
// underlying writer through Unwrap, which http.ResponseController follows.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// withRequestContext gives each request an id (the client's X-Request-Id when it is sane),
// recovers panics into a 500 envelope, writes one log line per request and records the
// request metrics.
func withRequestContext(next http.Handler, log *slog.Logger, m *telemetry.Metrics, endpoint string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &requestInfo{id: router.NewRequestID(r.Header.Get(HeaderRequestID)), start: start}
		w.Header().Set(HeaderRequestID, info.id)
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler { //nolint:errorlint // a sentinel panic value, not an error chain
					panic(p)
				}
				answerPanic(log, rec, info, p)
			} else if rec.status != 0 && rec.Header().Get("Content-Length") != "" {
				// The answer is whole: send it now; the client need not wait for the log
				// line, the metrics and the span.
				_ = http.NewResponseController(w).Flush()
			}
			if router.ShuttingDown(r.Context()) && rec.status == 0 {
				// Ended by the shutdown before it wrote anything (waiting in the admission
				// queue, say): the client is still there, and told why.
				answerShutdown(r.Context(), rec, info)
			}
			finish(log, m, endpoint, r, rec.status, info, time.Since(start))
		}()
		next.ServeHTTP(rec, r.WithContext(router.WithRequestID(context.WithValue(r.Context(), ctxKey{}, info), info.id)))
	})
}

// answerPanic logs a handler's panic and answers 500 unless an answer has begun. It and
// answerShutdown are functions of their own so that the deferred function of
// withRequestContext keeps a small frame: it runs at the bottom of the connection's
// goroutine, whose stack is held for as long as the connection lives.
func answerPanic(log *slog.Logger, rec *statusRecorder, info *requestInfo, p any) {
	log.Error("panic serving request", router.LogKeyRequestID, info.id, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	if rec.status == 0 {
		writeError(rec, &openai.APIError{Status: http.StatusInternalServerError, Type: openai.TypeServer,
			Message: "internal error; the request id is " + info.id})
	}
}

// answerShutdown tells the client of a request the shutdown ended before it was answered.
func answerShutdown(ctx context.Context, rec *statusRecorder, info *requestInfo) {
	err := router.ShutdownError(router.WithRequestID(ctx, info.id))
	writeError(rec, err)
	info.err = err
}

// addAccessAttrs adds the fields of a request's access log line to rec, typed so that none is
// boxed, and straight into the record: a slice of them would be one more allocation a request.
func addAccessAttrs(rec *slog.Record, r *http.Request, status int, info *requestInfo, d time.Duration) {
	// The method and path are the client's: clipped as in error messages, so that one request
	// cannot write a line as long as the header limit.
	rec.AddAttrs(slog.String(router.LogKeyRequestID, info.id), slog.String("method", clip(r.Method)),
		slog.String("path", clip(r.URL.Path)), slog.Int("status", status), slog.Float64("latency_ms", float64(d.Microseconds())/1000))
	if info.model != "" {
		rec.AddAttrs(slog.String(router.LogKeyModel, info.model), slog.String("selected_model", info.selected),
			slog.Bool("stream", info.stream))
	}
	if info.client != "" {
		rec.AddAttrs(slog.String("client", info.client))
	}
	if info.cache != "" {
		rec.AddAttrs(slog.String("cache", info.cache))
	}
	if info.decision != "" {
		rec.AddAttrs(slog.String(router.LogKeyDecision, info.decision))
	}
	if info.err != nil {
		rec.AddAttrs(slog.String(router.LogKeyError, info.err.Error()))
	}
	if info.span != nil {
		if sc := info.span.SpanContext(); sc.HasTraceID() {
			rec.AddAttrs(slog.String("trace_id", sc.TraceID().String()))
		}
	}
}

func finish(log *slog.Logger, m *telemetry.Metrics, endpoint string, r *http.Request, status int, info *requestInfo, d time.Duration) {
	if status == 0 {
		status = router.StatusClientClosed
	}
	// A stream's failure after its 200 is the router's to report, unless the client went
	// away: the line notes it, but nothing failed on the router's side.
	failed := info.err != nil && !clientGone(info.err)
	if info.span != nil {
		endSpan(info, status, failed)
	}
	level := slog.LevelInfo
	if endpoint == "management" && status < 400 {
		level = slog.LevelDebug // probes every few seconds would drown the access log
	}
	if status >= 500 || failed {
		level = slog.LevelWarn
	}
	if log.Enabled(r.Context(), level) {
		logAccess(log, level, r, status, info, d)
	}
	if m == nil {
		return
	}
	if info.model == "" {
		// Refused before a model was read (a bad or large body, a key, a limit, an unknown
		// path, a panic) or not a chat request at all: counted, so that an error rate
		// computed from requests_total sees these answers too.
		m.Requests.WithLabelValues(endpoint, telemetry.NoModel, strconv.Itoa(status)).Inc()
		return
	}
	m.Requests.WithLabelValues(endpoint, info.model, strconv.Itoa(status)).Inc()
	m.RequestDuration.WithLabelValues(info.model, strconv.FormatBool(info.stream)).Observe(d.Seconds())
	if status >= 400 && status < 500 && status != router.StatusClientClosed && !info.modelFailed {
		m.Errors.WithLabelValues(info.model, "client_error").Inc()
	}
}

// endSpan ends the request's server span with its outcome. It is a function of its own so
// that finish keeps a small frame: a stream's access line is written at the bottom of the
// connection's goroutine, whose stack is held for as long as the connection lives.
func endSpan(info *requestInfo, status int, failed bool) {
	if info.span.IsRecording() {
		info.span.SetAttributes(attribute.Int("http.response.status_code", status), attribute.String("vsr.request_id", info.id),
			attribute.String("vsr.requested_model", info.model), attribute.String("vsr.selected_model", info.selected),
			attribute.Bool("vsr.stream", info.stream))
		if info.cache != "" {
			// A hit has no upstream span: this says why.
			info.span.SetAttributes(attribute.String("vsr.cache", info.cache))
		}
		switch {
		case failed:
			// A stream that failed after its 200 went out: the status text would say "OK".
			// The message is the one the client got, so it holds no secret.
			info.span.SetStatus(codes.Error, info.err.Error())
		case status >= 500:
			info.span.SetStatus(codes.Error, http.StatusText(status))
		}
	}
	info.span.End()
}

// logAccess writes the access line. It builds the record itself, as slog's wrappers do,
// without the caller's program counter, which no handler of the router reports: a frame a
// quarter the size of Logger.LogAttrs's, and no stack walk, at the bottom of the
// connection's goroutine.
func logAccess(log *slog.Logger, level slog.Level, r *http.Request, status int, info *requestInfo, d time.Duration) {
	rec := slog.NewRecord(time.Now(), level, "request", 0)
	addAccessAttrs(&rec, r, status, info, d)
	_ = log.Handler().Handle(r.Context(), rec)
}

// clientGone reports whether err says the client went away before its answer ended.
func clientGone(err error) bool {
	var e *openai.APIError
	return errors.As(err, &e) && e.Status == router.StatusClientClosed
}

// writeError is the one place an error becomes an HTTP response on the router's listeners.
func writeError(w http.ResponseWriter, err error) {
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) {
		apiErr = &openai.APIError{Status: http.StatusInternalServerError, Type: openai.TypeServer, Message: "internal error", Err: err}
	}
	if apiErr.Status == router.StatusClientClosed {
		return // nobody is listening
	}
	openai.WriteError(w, apiErr)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
