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

// RequestID returns the id WithRequestID put in ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// withLogger returns ctx carrying the request's logger, whose lines carry the request id,
// the trace id and, once routed, the model and the decision.
func withLogger(ctx context.Context, log *slog.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, log)
}

// logFor returns the request's logger from ctx; without one, def with the request id when
// ctx has one.
func logFor(ctx context.Context, def *slog.Logger) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	if id := RequestID(ctx); id != "" {
		return def.With(LogKeyRequestID, id)
	}
	return def
}
