package extproc

import (
	"fmt"
	"mime"
	"net/http"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// gatewayFailure returns the client's error for the answer of a planned request that is
// not an answer in the OpenAI format: a 5xx whose body is neither JSON nor events. That is
// Envoy's own reply when it could not reach the model server (503 "upstream connect error
// or disconnect/reset before headers", "no healthy upstream") or stopped waiting for it (504
// "upstream request timeout"), or a server's plain-text error page. The client gets the
// OpenAI error envelope instead, as the HTTP listener sends, with the model and the request
// id; nil for any other answer, which goes on as it came.
func gatewayFailure(x *exchange, contentType string) *openai.APIError {
	if x.plan == nil || x.status < http.StatusInternalServerError || x.status > 599 {
		return nil
	}
	switch mt, _, _ := mime.ParseMediaType(contentType); mt {
	case "application/json", "text/event-stream":
		return nil
	}
	e := &openai.APIError{Status: x.status, Type: openai.TypeUpstream, Code: "upstream_error",
		Message: fmt.Sprintf("upstream model server for model %q failed: the gateway answered %d %s (request id %s)",
			x.plan.Target.Model, x.status, http.StatusText(x.status), x.id)}
	if x.status == http.StatusGatewayTimeout {
		e.Type, e.Code = openai.TypeTimeout, "upstream_timeout"
		e.Message = fmt.Sprintf("upstream model server for model %q did not answer in time: the gateway answered %d %s (request id %s)",
			x.plan.Target.Model, x.status, http.StatusText(x.status), x.id)
	}
	return e
}
