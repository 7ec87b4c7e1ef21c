// Package extproc is the router's second front door: an Envoy external processor (ext_proc,
// gRPC, port 50051). Envoy sends each request's headers and buffered body; the processor
// routes it with the same pipeline as the HTTP listener, rewrites the body for the chosen
// model and tells Envoy where to send it in headers, or answers at once (a block, a bad
// request). Envoy, not the router, then calls the model.
//
// Envoy's filter must buffer the request body (processing_mode.request_body_mode: BUFFERED)
// and send response headers; the route uses the x-vsr-destination-endpoint header (for an
// ORIGINAL_DST cluster) or x-vsr-selected-model to pick the upstream.
package extproc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
)

// Headers the processor sets on the request for Envoy's routing.
const (
	HeaderDestination   = "x-vsr-destination-endpoint" // host:port of the chosen model's server
	HeaderSelectedModel = "x-vsr-selected-model"
	HeaderDecision      = "x-vsr-selected-decision"
	HeaderConfidence    = "x-vsr-selected-confidence"
)

// Planner is what the processor needs of the router: admission (client keys, rate limits,
// the in-flight cap) and the routing plan.
type Planner interface {
	AdmitBearer(ctx context.Context, authorization, model string) (done func(*openai.Usage), err error)
	Plan(ctx context.Context, req *openai.ChatRequest, h http.Header) (*openai.ChatRequest, router.Route, router.Target, error)
}

// Server implements Envoy's ExternalProcessor service.
type Server struct {
	extprocv3.UnimplementedExternalProcessorServer
	planner Planner
	log     *slog.Logger
	maxBody int
}

// New returns a processor routing with p. Bodies larger than maxBody get a 413.
func New(p Planner, log *slog.Logger, maxBody int) *Server {
	return &Server{planner: p, log: log, maxBody: maxBody}
}

// stream is the state of one HTTP request as Envoy reports it.
type stream struct {
	header http.Header
	path   string
	route  router.Route
	routed bool
	done   func(*openai.Usage) // releases the admission slot; nil until admitted
}

// Process handles one HTTP request's messages, in order, until Envoy closes the stream.
func (s *Server) Process(srv extprocv3.ExternalProcessor_ProcessServer) error {
	st := &stream{header: http.Header{}}
	// Envoy ends the exchange after the last phase it sends (the response headers), or when
	// the HTTP request ends early: either way the request no longer holds its slot.
	defer func() {
		if st.done != nil {
			st.done(nil)
		}
	}()
	for {
		req, err := srv.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if status.Code(err) == codes.Canceled {
				return nil
			}
			return err
		}
		resp := s.handle(srv.Context(), st, req)
		if err := srv.Send(resp); err != nil {
			return err
		}
	}
}

func (s *Server) handle(ctx context.Context, st *stream, req *extprocv3.ProcessingRequest) *extprocv3.ProcessingResponse {
	switch r := req.Request.(type) {
	case *extprocv3.ProcessingRequest_RequestHeaders:
		for _, h := range r.RequestHeaders.GetHeaders().GetHeaders() {
			v := h.GetValue()
			if len(h.GetRawValue()) > 0 {
				v = string(h.GetRawValue())
			}
			if h.GetKey() == ":path" {
				st.path = v
			}
			st.header.Add(h.GetKey(), v)
		}
		return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_RequestHeaders{
			RequestHeaders: &extprocv3.HeadersResponse{Response: &extprocv3.CommonResponse{}}}}
	case *extprocv3.ProcessingRequest_RequestBody:
		return s.requestBody(ctx, st, r.RequestBody.GetBody())
	case *extprocv3.ProcessingRequest_ResponseHeaders:
		var set []*corev3.HeaderValueOption
		if st.routed {
			set = routeHeaders(st.route)
		}
		return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ResponseHeaders{
			ResponseHeaders: &extprocv3.HeadersResponse{Response: &extprocv3.CommonResponse{
				HeaderMutation: &extprocv3.HeaderMutation{SetHeaders: set}}}}}
	case *extprocv3.ProcessingRequest_ResponseBody:
		return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ResponseBody{
			ResponseBody: &extprocv3.BodyResponse{Response: &extprocv3.CommonResponse{}}}}
	case *extprocv3.ProcessingRequest_RequestTrailers:
		return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_RequestTrailers{
			RequestTrailers: &extprocv3.TrailersResponse{}}}
	case *extprocv3.ProcessingRequest_ResponseTrailers:
		return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ResponseTrailers{
			ResponseTrailers: &extprocv3.TrailersResponse{}}}
	default:
		return immediate(&openai.APIError{Status: http.StatusBadRequest, Type: openai.TypeInvalidRequest,
			Message: fmt.Sprintf("unexpected ext_proc message %T", r)})
	}
}

// requestBody routes a chat completion; other paths pass through untouched.
func (s *Server) requestBody(ctx context.Context, st *stream, body []byte) *extprocv3.ProcessingResponse {
	pass := &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_RequestBody{
		RequestBody: &extprocv3.BodyResponse{Response: &extprocv3.CommonResponse{}}}}
	path, _, _ := strings.Cut(st.path, "?")
	if path != "/v1/chat/completions" {
		return pass
	}
	if len(body) > s.maxBody {
		return immediate(&openai.APIError{Status: http.StatusRequestEntityTooLarge, Type: openai.TypeInvalidRequest,
			Code: "request_too_large", Message: fmt.Sprintf("the request body is larger than %d bytes (server.max_request_body_bytes)", s.maxBody)})
	}
	chat, apiErr := openai.ParseChatRequest(body)
	if apiErr != nil {
		return immediate(apiErr)
	}
	done, err := s.planner.AdmitBearer(ctx, st.header.Get("authorization"), chat.Model)
	if err != nil {
		return immediate(asAPIError(err))
	}
	st.done = done
	out, rt, target, err := s.planner.Plan(ctx, chat, st.header)
	st.route, st.routed = rt, true
	if err != nil {
		resp := immediate(asAPIError(err))
		resp.GetImmediateResponse().Headers.SetHeaders = append(resp.GetImmediateResponse().Headers.SetHeaders, routeHeaders(rt)...)
		return resp
	}
	newBody, err := json.Marshal(out)
	if err != nil {
		return immediate(&openai.APIError{Status: http.StatusInternalServerError, Type: openai.TypeServer, Message: "encoding the request", Err: err})
	}
	set := append(routeHeaders(rt), header("content-length", strconv.Itoa(len(newBody))))
	if u, err := url.Parse(target.BaseURL); err == nil && u.Host != "" {
		set = append(set, header(HeaderDestination, hostPort(u)))
	}
	s.log.Debug("routed for envoy", "model", target.Model, "decision", rt.Decision)
	return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_RequestBody{
		RequestBody: &extprocv3.BodyResponse{Response: &extprocv3.CommonResponse{
			Status:          extprocv3.CommonResponse_CONTINUE_AND_REPLACE,
			HeaderMutation:  &extprocv3.HeaderMutation{SetHeaders: set},
			BodyMutation:    &extprocv3.BodyMutation{Mutation: &extprocv3.BodyMutation_Body{Body: newBody}},
			ClearRouteCache: true, // the route may depend on the headers just set
		}}}}
}

func asAPIError(err error) *openai.APIError {
	var e *openai.APIError
	if !errors.As(err, &e) {
		e = &openai.APIError{Status: http.StatusInternalServerError, Type: openai.TypeServer, Message: "internal error", Err: err}
	}
	return e
}

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return u.Host + ":443"
	}
	return u.Host + ":80"
}

func routeHeaders(rt router.Route) []*corev3.HeaderValueOption {
	var set []*corev3.HeaderValueOption
	if rt.Model != "" {
		set = append(set, header(HeaderSelectedModel, rt.Model))
	}
	if rt.Decision != "" {
		set = append(set, header(HeaderDecision, rt.Decision),
			header(HeaderConfidence, strconv.FormatFloat(rt.Confidence, 'f', 2, 64)))
	}
	for k, v := range rt.Headers {
		set = append(set, header(strings.ToLower(k), v))
	}
	return set
}

func header(k, v string) *corev3.HeaderValueOption {
	return &corev3.HeaderValueOption{Header: &corev3.HeaderValue{Key: k, RawValue: []byte(v)},
		AppendAction: corev3.HeaderValueOption_OVERWRITE_IF_EXISTS_OR_ADD}
}

// immediate is the one place an error becomes an Envoy response: the status and the OpenAI
// error envelope, as the HTTP listener would send it.
func immediate(e *openai.APIError) *extprocv3.ProcessingResponse {
	body, _ := json.Marshal(e.Envelope())
	set := []*corev3.HeaderValueOption{header("content-type", "application/json")}
	if e.RetryAfter > 0 {
		set = append(set, header("retry-after", strconv.Itoa(int(e.RetryAfter.Seconds()+0.999))))
	}
	return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ImmediateResponse{
		ImmediateResponse: &extprocv3.ImmediateResponse{
			Status:  &typev3.HttpStatus{Code: typev3.StatusCode(e.Status)}, //nolint:gosec // an HTTP status, 100 to 599
			Headers: &extprocv3.HeaderMutation{SetHeaders: set},
			Body:    body,
			Details: e.Code,
		}}}
}
