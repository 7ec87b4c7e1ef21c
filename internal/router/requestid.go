package router

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
)

type (
	requestIDKey struct{}
	loggerKey    struct{}
)

// NewRequestID returns the client's id if it is short and printable, else a new random one.
func NewRequestID(client string) string {
	if n := len(client); n > 0 && n <= 128 {
		ok := true
		for i := range n {
			if c := client[i]; c < 0x21 || c > 0x7e {
				ok = false
				break
			}
		}
		if ok {
			return client
		}
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// WithRequestID returns ctx carrying the request's id. The pipeline sets it, so that the
// router's log lines and the errors it gives clients name the request.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the id of the request ctx belongs to (the pipeline's, or one
// WithRequestID put in ctx), or "".
func RequestID(ctx context.Context) string {
	if rl, ok := ctx.Value(loggerKey{}).(*requestLog); ok {
		return rl.id
	}
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// requestLog is what every log line of a request names: its id, its trace and, once
// routed, the model and the decision. The logger is made from it only when a line is
// written, which few requests do.
type requestLog struct {
	base                         *slog.Logger // the front door's logger; nil: the router's
	id, traceID, model, decision string
}

// withRequestLog returns ctx carrying the request's log attributes.
func withRequestLog(ctx context.Context, rl *requestLog) context.Context {
	return context.WithValue(ctx, loggerKey{}, rl)
}

// logFor returns the request's logger (def when the front door gave none) with the
// request's attributes from ctx: the request id, the trace id,
// and once routed the model and the decision.
func logFor(ctx context.Context, def *slog.Logger) *slog.Logger {
	rl, ok := ctx.Value(loggerKey{}).(*requestLog)
	if !ok {
		if id := RequestID(ctx); id != "" {
			return def.With(LogKeyRequestID, id)
		}
		return def
	}
	if rl.base != nil {
		def = rl.base
	}
	attrs := make([]any, 0, 8)
	attrs = append(attrs, LogKeyRequestID, rl.id)
	if rl.traceID != "" {
		attrs = append(attrs, LogKeyTraceID, rl.traceID)
	}
	if rl.model != "" {
		attrs = append(attrs, LogKeyModel, rl.model)
	}
	if rl.decision != "" {
		attrs = append(attrs, LogKeyDecision, rl.decision)
	}
	return def.With(attrs...)
}
