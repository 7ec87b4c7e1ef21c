package extproc

import (
	"cmp"
	"context"
	"fmt"
	"net/http"

	epv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_proc/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
)

// The processor routes a chat completion from its whole body, and tells Envoy where to send
// it with headers set in its answer to that body. Envoy applies those headers only while it
// still holds the request's headers: when the filter's request_body_mode is BUFFERED, or
// BUFFERED_PARTIAL for a body that fits its buffer. In any other mode the destination, the
// model's credential and the removal of the client's key would be dropped (NONE: the body is
// never seen at all), so such a request is refused, not passed on unplanned.
//
// Envoy (1.34 and later) says its modes in the first message's protocol_config; an older one
// does not, and then a body that comes in parts is the only sign.

// exchangeModes is what Envoy said of its processing modes; known is false when it said
// nothing.
type exchangeModes struct {
	known                     bool
	requestBody, responseBody epv3.ProcessingMode_BodySendMode
}

// observe records the modes from the first message that carries them.
func (m *exchangeModes) observe(req *extprocv3.ProcessingRequest) {
	if pc := req.GetProtocolConfig(); pc != nil && !m.known {
		m.known, m.requestBody, m.responseBody = true, pc.GetRequestBodyMode(), pc.GetResponseBodyMode()
	}
}

// lastAnswerChunk reports whether every chunk of the answer Envoy sends is the last the
// processor sees, end_of_stream or not: BUFFERED sends the whole body once (end_of_stream is
// false when trailers follow), and BUFFERED_PARTIAL a body larger than its buffer only up
// to the buffer, the rest going to the client past the processor. Nothing may be held back
// from such a chunk: it would never be sent.
func (m *exchangeModes) lastAnswerChunk() bool {
	return m.known && (m.responseBody == epv3.ProcessingMode_BUFFERED || m.responseBody == epv3.ProcessingMode_BUFFERED_PARTIAL)
}

// headersProblem is the refusal of a chat request whose body Envoy will not hand over in
// one piece with its headers still held; nil when the mode is right or unknown.
func (m *exchangeModes) headersProblem() *openai.APIError {
	if !m.known || m.requestBody == epv3.ProcessingMode_BUFFERED || m.requestBody == epv3.ProcessingMode_BUFFERED_PARTIAL {
		return nil
	}
	return misconfigured(fmt.Sprintf("its request_body_mode is %s", m.requestBody))
}

// partialProblem is the refusal of a chat request whose body came with more to follow. In
// BUFFERED mode that is the whole body with trailers after it (nil: it is planned);
// BUFFERED_PARTIAL sends a part when the body is larger than Envoy's buffer.
func (m *exchangeModes) partialProblem() *openai.APIError {
	switch {
	case m.known && m.requestBody == epv3.ProcessingMode_BUFFERED:
		return nil
	case m.known && m.requestBody == epv3.ProcessingMode_BUFFERED_PARTIAL:
		return &openai.APIError{Status: http.StatusRequestEntityTooLarge, Type: openai.TypeInvalidRequest, Code: "request_too_large",
			Message: "the request body is larger than the gateway's buffer"}
	}
	return misconfigured("it sent the request body in parts")
}

// noPath is the refusal of a request whose :path Envoy did not send (its forward_rules left
// it out): the processor cannot tell a chat completion, which it must check, from the rest.
var noPath = &openai.APIError{Status: http.StatusInternalServerError, Type: openai.TypeServer, Code: "gateway_misconfigured",
	Message: "the gateway does not tell the router the request's path (Envoy's ext_proc filter must forward the :path and :method headers)"}

// noHeaders is the refusal of an exchange whose first message is not the request's headers
// (request_header_mode SKIP).
var noHeaders = &openai.APIError{Status: http.StatusInternalServerError, Type: openai.TypeServer, Code: "gateway_misconfigured",
	Message: "the gateway does not send the router the request's headers (Envoy's ext_proc filter needs processing_mode.request_header_mode SEND)"}

func misconfigured(why string) *openai.APIError {
	return &openai.APIError{Status: http.StatusInternalServerError, Type: openai.TypeServer, Code: "gateway_misconfigured",
		Message: "the gateway does not hand the request body to the router whole (Envoy's ext_proc filter needs " +
			"processing_mode.request_body_mode BUFFERED; " + why + ")"}
}

// refuseMode answers a chat request refused for Envoy's processing mode; a misconfiguration
// is logged as an error, since the fix is the operator's, in Envoy's configuration.
func (s *Server) refuseMode(ctx context.Context, x *exchange, e *openai.APIError) *extprocv3.ProcessingResponse {
	if x.span == nil {
		_, x.span = s.p.StartSpan(ctx, "ext_proc "+clip(x.header.Get(":method"))+" "+cmp.Or(x.path, "(no path)"), x.header) // for the access line
	}
	if e.Status >= http.StatusInternalServerError {
		s.log.Error("envoy's ext_proc filter is not set up as the router needs", router.LogKeyRequestID, x.id, router.LogKeyError, e.Message)
	}
	x.err = e
	s.last(x)
	return immediate(x.id, e)
}
