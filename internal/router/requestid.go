package router

import "context"

type requestIDKey struct{}

// WithRequestID returns ctx carrying the request's id. Front doors set it, so that the
// router's log lines and the errors it gives clients name the request.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the id WithRequestID put in ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}
