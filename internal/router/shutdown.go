package router

import (
	"context"
	"errors"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// ErrShuttingDown is the cause with which a front door ends the requests still running
// when its drain deadline (server.shutdown_timeout) passes. A request ended so is not one
// whose client went away: its client is told the router is shutting down (a 503, or an
// error event in a stream that has begun) and its log line says so.
var ErrShuttingDown = errors.New("the router is shutting down")

// ShutdownError is the error a client gets for a request that the router ended because
// it was shutting down; ctx is the request's, for its id.
func ShutdownError(ctx context.Context) *openai.APIError {
	msg := "the router is shutting down and ended the request before it finished; send it again"
	return refuse(KindShuttingDown, withRequestID(msg, RequestID(ctx)), ErrShuttingDown)
}

// ShuttingDown reports whether ctx was ended by the router's shutdown.
func ShuttingDown(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), ErrShuttingDown)
}
