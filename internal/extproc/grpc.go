package extproc

import (
	"math"

	"google.golang.org/grpc"
)

// Envoy sends a body it buffers (the request's, with request_body_mode BUFFERED; the
// answer's, with response_body_mode BUFFERED) in one gRPC message, while a gRPC server takes
// messages of at most 4 MiB unless told otherwise: a larger one would end the exchange with
// an error, and Envoy would answer the client 500 instead of the router's 413 or the model's
// answer.
const (
	minMessageBytes = 32 << 20 // a buffered answer: the HTTP listener's default max_response_body_bytes
	messageOverhead = 1 << 20  // the headers and attributes beside a body
)

// ServerOptions returns the gRPC server options the processor needs: messages as large as a
// request body of maxRequestBody bytes (server.max_request_body_bytes, which the router
// itself refuses past with 413) or a buffered answer of 32 MiB, whichever is larger.
func ServerOptions(maxRequestBody int64) []grpc.ServerOption {
	limit := max(maxRequestBody, minMessageBytes) + messageOverhead
	return []grpc.ServerOption{grpc.MaxRecvMsgSize(int(min(limit, math.MaxInt32)))}
}
