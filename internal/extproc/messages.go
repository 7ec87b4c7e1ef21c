package extproc

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
)

// The messages the processor answers Envoy with.

func headersResponse(request bool, set []*corev3.HeaderValueOption, remove []string) *extprocv3.ProcessingResponse {
	hr := &extprocv3.HeadersResponse{Response: &extprocv3.CommonResponse{}}
	if len(set) > 0 || len(remove) > 0 {
		hr.Response.HeaderMutation = &extprocv3.HeaderMutation{SetHeaders: set, RemoveHeaders: remove}
	}
	if request {
		return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_RequestHeaders{RequestHeaders: hr}}
	}
	return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ResponseHeaders{ResponseHeaders: hr}}
}

func bodyResponse(request bool, cr *extprocv3.CommonResponse) *extprocv3.ProcessingResponse {
	if cr == nil {
		cr = &extprocv3.CommonResponse{}
	}
	br := &extprocv3.BodyResponse{Response: cr}
	if request {
		return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_RequestBody{RequestBody: br}}
	}
	return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ResponseBody{ResponseBody: br}}
}

// replaceBody is the mutation that sends b in place of a chunk.
func replaceBody(b []byte) *extprocv3.BodyMutation {
	if len(b) == 0 {
		return &extprocv3.BodyMutation{Mutation: &extprocv3.BodyMutation_ClearBody{ClearBody: true}}
	}
	return &extprocv3.BodyMutation{Mutation: &extprocv3.BodyMutation_Body{Body: b}}
}

func headers(kvs [][2]string) []*corev3.HeaderValueOption {
	out := make([]*corev3.HeaderValueOption, 0, len(kvs))
	for _, kv := range kvs {
		out = append(out, header(kv[0], kv[1]))
	}
	return out
}

func header(k, v string) *corev3.HeaderValueOption {
	return &corev3.HeaderValueOption{Header: &corev3.HeaderValue{Key: k, RawValue: []byte(v)},
		AppendAction: corev3.HeaderValueOption_OVERWRITE_IF_EXISTS_OR_ADD}
}

// immediate answers request id at once, with the status, headers (the request id among
// them) and OpenAI error envelope the HTTP listener would send.
func immediate(id string, e *openai.APIError) *extprocv3.ProcessingResponse {
	set := headers(e.Headers())
	if id != "" {
		set = append(set, header(router.HeaderRequestID, id))
	}
	return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ImmediateResponse{
		ImmediateResponse: &extprocv3.ImmediateResponse{
			Status:  &typev3.HttpStatus{Code: typev3.StatusCode(e.Status)}, //nolint:gosec // an HTTP status, 100 to 599
			Headers: &extprocv3.HeaderMutation{SetHeaders: set},
			Body:    e.Body(),
			Details: e.Code,
		}}}
}
