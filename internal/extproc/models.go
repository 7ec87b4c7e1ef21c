package extproc

import (
	"context"
	"encoding/json"
	"net/http"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
)

const modelsPath = "/v1/models"

// models answers GET /v1/models itself, as the HTTP listener does: the models the client
// may use (the exposed ones, the virtual model first; with client keys, those of its key,
// or 401). Envoy calls no server for it, so a route for the path needs no backend that
// serves it, and clients (and probes) see the router's names, not a model server's ids.
func (s *Server) models(ctx context.Context, x *exchange) *extprocv3.ProcessingResponse {
	_, x.span = s.p.StartSpan(ctx, "ext_proc GET "+modelsPath, x.header) // for the access line
	s.last(x)
	names, err := s.p.Models(x.header)
	if err != nil {
		x.err = err
		return immediate(x.id, asAPIError(err))
	}
	body, err := json.Marshal(openai.NewModelList(names, s.start.Unix(), router.ModelOwner))
	if err != nil {
		x.err = err
		return immediate(x.id, asAPIError(err))
	}
	x.status = http.StatusOK
	return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ImmediateResponse{
		ImmediateResponse: &extprocv3.ImmediateResponse{
			Status: &typev3.HttpStatus{Code: typev3.StatusCode_OK},
			Headers: &extprocv3.HeaderMutation{SetHeaders: []*corev3.HeaderValueOption{
				header("content-type", "application/json"), header(router.HeaderRequestID, x.id)}},
			Body: append(body, '\n'),
		}}}
}
