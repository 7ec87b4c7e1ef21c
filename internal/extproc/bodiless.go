package extproc

import (
	"context"
	"fmt"
	"net/http"

	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// chatHeaders answers a chat request at its headers when it cannot be planned from a body,
// as the HTTP listener answers it: 405 for another method than POST (a PUT with a body
// too), the answer to an empty body when none follows (Content-Length: 0), or the refusal of
// a processing mode that does not hand the body over whole. nil: the body is awaited.
func (s *Server) chatHeaders(ctx context.Context, x *exchange, end bool) *extprocv3.ProcessingResponse {
	// Envoy always sends :method, unless its forward_rules leave it out: then the body decides.
	if m := x.header.Get(":method"); m != "" && m != http.MethodPost {
		_, x.span = s.p.StartSpan(ctx, "ext_proc "+clip(m)+" "+chatPath, x.header) // for the access line
		e := &openai.APIError{Status: http.StatusMethodNotAllowed, Type: openai.TypeInvalidRequest,
			Message: fmt.Sprintf("method %s is not allowed on %s; use POST", clip(m), chatPath), Header: map[string]string{"allow": http.MethodPost}}
		x.err = e
		s.last(x)
		return immediate(x.id, e)
	}
	if end {
		return s.bodiless(ctx, x)
	}
	if e := x.modes.headersProblem(); e != nil {
		return s.refuseMode(ctx, x, e)
	}
	return nil
}

// bodiless answers a POST with no body: what planning an empty body answers (a refusal by
// admission, or 400), never a request passed on unplanned.
func (s *Server) bodiless(ctx context.Context, x *exchange) *extprocv3.ProcessingResponse {
	resp := s.requestBody(ctx, x, nil)
	if resp.GetImmediateResponse() == nil { // an empty body always is: ParseChatRequest refuses it
		return immediate(x.id, openai.BadRequest("", "the request body is empty; send a JSON chat completion request"))
	}
	return resp
}
