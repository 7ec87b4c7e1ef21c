package router

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/balancer"
	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/redact"
)

func testRouter(expose bool) (*Router, *bytes.Buffer) {
	var buf bytes.Buffer
	red := redact.New()
	red.NewSet().Replace([]string{"sk-secret-value"})
	r := &Router{log: slog.New(redact.Handler(slog.NewJSONHandler(&buf, nil), red)), redactor: red,
		cfg: &config.Config{Routing: config.Routing{ExposeUpstreamErrors: expose}}, models: map[string]*model{"m": {}}}
	return r, &buf
}

func TestAPIErrorMapsEveryKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind    provider.Kind
		status  int // upstream status
		cause   error
		want    int
		code    string
		message string
	}{
		{provider.KindConnect, 0, nil, http.StatusBadGateway, "upstream_unreachable", `upstream model server for model "m" could not be reached`},
		{provider.KindConnect, 0, &balancer.AllEjectedError{}, http.StatusBadGateway, "upstream_unreachable", `every endpoint of model "m" is ejected after consecutive failures`},
		{provider.KindConnect, 0, &balancer.AllEjectedError{RetryIn: 6200 * time.Millisecond}, http.StatusBadGateway, "upstream_unreachable", `every endpoint of model "m" is ejected after consecutive failures; the first returns in 7s`},
		{provider.KindTLS, 0, nil, http.StatusBadGateway, "upstream_tls_error", `upstream model server for model "m" failed the TLS handshake`},
		{provider.KindTimeout, 0, nil, http.StatusGatewayTimeout, "upstream_timeout", `upstream model server for model "m" did not answer in time`},
		{provider.KindTimeout, 0, errFirstTokenTimeout, http.StatusGatewayTimeout, "upstream_timeout", `upstream model server for model "m" sent no first event in time`},
		{provider.KindTimeout, 0, errStreamIdleTimeout, http.StatusGatewayTimeout, "upstream_timeout", `upstream model server for model "m" stopped sending events in the middle of the stream`},
		{provider.KindCanceled, 0, nil, StatusClientClosed, "client_closed_request", `upstream model server for model "m" was not waited for: the client went away`},
		{provider.KindAuth, 403, nil, http.StatusForbidden, "upstream_auth_failed", `upstream model server for model "m" answered 403 Forbidden`},
		{provider.KindAuth, 0, nil, http.StatusUnauthorized, "upstream_auth_failed", `upstream model server for model "m" could not be sent the router's credentials`},
		{provider.KindNotFound, 404, nil, http.StatusBadGateway, "upstream_model_not_found", `upstream model server for model "m" answered 404 Not Found`},
		{provider.KindBadRequest, 422, nil, http.StatusUnprocessableEntity, "upstream_rejected_request", `upstream model server for model "m" answered 422 Unprocessable Entity`},
		{provider.KindRateLimited, 429, nil, http.StatusTooManyRequests, "upstream_rate_limited", `upstream model server for model "m" answered 429 Too Many Requests`},
		{provider.KindUpstream, 503, nil, http.StatusBadGateway, "upstream_error", `upstream model server for model "m" answered 503 Service Unavailable`},
		{provider.KindUpstream, 0, nil, http.StatusBadGateway, "upstream_error", `upstream model server for model "m" failed during the stream`},
		{provider.KindProtocol, 200, nil, http.StatusBadGateway, "upstream_error", `upstream model server for model "m" sent an answer that is not the OpenAI protocol`},
		{provider.KindProtocol, 200, errMalformedStream, http.StatusBadGateway, "upstream_error", `upstream model server for model "m" sent a malformed stream`},
		{provider.KindProtocol, 302, provider.ErrRedirect, http.StatusBadGateway, "upstream_redirect", `upstream model server for model "m" answered 302 Found, a redirect, which the router does not follow`},
		{provider.KindInternal, 0, nil, http.StatusInternalServerError, "", `internal error calling model "m"`},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %d %v", tt.kind, tt.status, tt.cause), func(t *testing.T) {
			t.Parallel()
			r, logs := testRouter(false)
			cause := &provider.Error{Kind: tt.kind, Status: tt.status, Message: "http://10.0.0.7:8000/v1 rejected env.VLLM_KEY: upstream says sk-secret-value",
				RetryAfter: time.Second, Err: tt.cause}
			e := r.apiError(WithRequestID(context.Background(), "req-1"), "m", cause)
			if e.Status != tt.want || e.Code != tt.code || e.Message != tt.message+" (request id req-1)" || e.RetryAfter != time.Second {
				t.Errorf("got %d %q %q %v\nwant %d %q %q", e.Status, e.Code, e.Message, e.RetryAfter, tt.want, tt.code, tt.message)
			}
			if !errors.Is(e, cause) {
				t.Error("the cause is not kept")
			}
			if tt.kind == provider.KindCanceled {
				return
			}
			if !strings.Contains(logs.String(), `"request_id":"req-1"`) || !strings.Contains(logs.String(), `"error":"http://10.0.0.7:8000/v1 rejected env.VLLM_KEY: upstream says [redacted]"`) {
				t.Errorf("the log line lacks the request id or the cause: %s", logs)
			}
			if f := r.models["m"].lastFailure.Load(); f == nil || f.RequestID != "req-1" || f.Detail != "http://10.0.0.7:8000/v1 rejected env.VLLM_KEY: upstream says [redacted]" {
				t.Errorf("last failure = %+v", f)
			}
		})
	}
	r, _ := testRouter(false)
	e := r.apiError(context.Background(), "m", errors.New("boom"))
	if e.Status != 500 || e.Message != `internal error calling model "m"` || e.Type != openai.TypeServer {
		t.Errorf("unexpected error: %+v", e)
	}
}

// TestAPIErrorNamesTheProtocol: an answer that does not parse is said not to follow the
// protocol the provider speaks to its backend, OpenAI's unless the provider names another.
func TestAPIErrorNamesTheProtocol(t *testing.T) {
	t.Parallel()
	tests := []struct{ protocol, want string }{
		{"", `upstream model server for model "m" sent an answer that is not the OpenAI protocol (request id req-1)`},
		{"Bedrock Converse", `upstream model server for model "m" sent an answer that is not the Bedrock Converse protocol (request id req-1)`},
		{"Vertex Gemini", `upstream model server for model "m" sent an answer that is not the Vertex Gemini protocol (request id req-1)`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			r, _ := testRouter(false)
			e := r.apiError(WithRequestID(context.Background(), "req-1"), "m",
				&provider.Error{Kind: provider.KindProtocol, Protocol: tt.protocol, Message: "https://backend.test: the answer does not parse"})
			if e.Status != http.StatusBadGateway || e.Code != "upstream_error" || e.Message != tt.want {
				t.Fatalf("got %d %q %q, want 502 upstream_error %q", e.Status, e.Code, e.Message, tt.want)
			}
		})
	}
}

// TestAPIErrorForModelOutput: an answer whose model output failed (Gemini's malformed
// function call) is the model's failure, in the router's words; Gemini's own are logged.
func TestAPIErrorForModelOutput(t *testing.T) {
	t.Parallel()
	r, logs := testRouter(false)
	mo := &provider.ModelOutputError{What: "a malformed function call", Reason: "MALFORMED_FUNCTION_CALL"}
	err := &provider.Error{Kind: provider.KindUpstream, Err: mo,
		Message: "Vertex AI: the model produced a malformed function call (MALFORMED_FUNCTION_CALL): Malformed function call: print(x"}
	e := r.apiError(WithRequestID(context.Background(), "req-1"), "m", fmt.Errorf("attempt 2: %w", err))
	want := `model "m" produced a malformed function call (request id req-1)`
	if e.Status != http.StatusBadGateway || e.Code != "upstream_error" || e.Type != openai.TypeUpstream || e.Message != want {
		t.Fatalf("got %d %q %q %q, want 502 upstream_error %q", e.Status, e.Type, e.Code, e.Message, want)
	}
	if !strings.Contains(logs.String(), "Malformed function call: print(x") {
		t.Errorf("the log line lacks Gemini's finish message: %s", logs)
	}
}

// TestAPIErrorForARefusal: a request the provider refused to translate sent nothing; it is
// the client's 400, naming the problem and the param, and not the model's failure.
func TestAPIErrorForARefusal(t *testing.T) {
	t.Parallel()
	image := provider.Within("messages[0]", provider.Within("content[1]",
		provider.Refusef("image_url must be a base64 data: URL; Bedrock does not fetch images from URLs")))
	tests := []struct {
		name, code, param, message string
		refusal                    error
	}{
		{"remote image", "unsupported_value", "messages[0].content[1]",
			`model "m": the request cannot be sent to Bedrock: messages[0]: content[1]: image_url must be a base64 data: URL; Bedrock does not fetch images from URLs (request id req-1)`, image},
		{"tool_choice", "unsupported_value", "tool_choice",
			`model "m": the request cannot be sent to Bedrock: tool_choice "always" is not one of auto, none, required (request id req-1)`,
			provider.RefuseAt("tool_choice", `tool_choice "always" is not one of auto, none, required`)},
		{"unsupported field", "unsupported_field", "seed", `model "m" does not support the request field "seed" (request id req-1)`,
			provider.Unsupported("seed", "Bedrock Converse has no seed")},
	}
	for _, tt := range tests {
		for _, expose := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s expose %v", tt.name, expose), func(t *testing.T) {
				t.Parallel()
				r, logs := testRouter(expose)
				e := r.apiError(WithRequestID(context.Background(), "req-1"), "m", provider.Refused("m", "Bedrock", tt.refusal))
				if e.Status != http.StatusBadRequest || e.Type != openai.TypeInvalidRequest || e.Code != tt.code || e.Param != tt.param || e.Message != tt.message {
					t.Errorf("got %d %q %q param %q\n%s\nwant 400 %q param %q\n%s", e.Status, e.Type, e.Code, e.Param, e.Message, tt.code, tt.param, tt.message)
				}
				if strings.Contains(logs.String(), "upstream failure") || r.models["m"].lastFailure.Load() != nil {
					t.Errorf("a refusal was recorded as the model's failure: %s", logs)
				}
			})
		}
	}
}

func TestAPIErrorExposesTheCauseRedacted(t *testing.T) {
	t.Parallel()
	r, _ := testRouter(true)
	e := r.apiError(WithRequestID(context.Background(), "req-2"), "m", &provider.Error{Kind: provider.KindAuth, Status: 401,
		Message: "http://vllm:8000/v1 rejected the API key with 401: check env.VLLM_KEY: echo Bearer sk-secret-value"})
	want := `upstream model server for model "m" answered 401 Unauthorized: http://vllm:8000/v1 rejected the API key with 401: check env.VLLM_KEY: echo Bearer [redacted] (request id req-2)`
	if e.Message != want {
		t.Errorf("message\n got %s\nwant %s", e.Message, want)
	}
}

// TestAPIErrorAtShutdown: a call the router ended because it is shutting down is neither
// the client's going away nor the model's failure, whatever the provider made of it.
func TestAPIErrorAtShutdown(t *testing.T) {
	t.Parallel()
	for _, cause := range []error{
		&provider.Error{Kind: provider.KindCanceled, Message: "the request was canceled", Err: context.Canceled},
		&provider.Error{Kind: provider.KindConnect, Message: "calling http://vllm:8000/v1: context canceled", Err: context.Canceled},
	} {
		r, logs := testRouter(false)
		ctx, end := context.WithCancelCause(WithRequestID(context.Background(), "req-3"))
		end(ErrShuttingDown)
		e := r.apiError(ctx, "m", cause)
		want := "the router is shutting down and ended the request before it finished; send it again (request id req-3)"
		if e.Status != http.StatusServiceUnavailable || e.Code != "shutting_down" || e.Type != openai.TypeServer || e.Message != want {
			t.Errorf("got %d %q %q %q", e.Status, e.Type, e.Code, e.Message)
		}
		if !errors.Is(e, ErrShuttingDown) || !errors.Is(e, cause) {
			t.Errorf("the causes are not kept: %v", e.Err)
		}
		if logs.Len() != 0 || r.models["m"].lastFailure.Load() != nil {
			t.Errorf("logged as the model's failure: %s", logs)
		}
	}
}
