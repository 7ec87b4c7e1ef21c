package router

import (
	"errors"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

func TestAPIErrorMapsEveryKind(t *testing.T) {
	r := &Router{log: slog.New(slog.DiscardHandler)}
	tests := []struct {
		kind   provider.Kind
		status int // upstream status
		want   int
		code   string
	}{
		{provider.KindConnect, 0, http.StatusBadGateway, "upstream_unreachable"},
		{provider.KindTLS, 0, http.StatusBadGateway, "upstream_tls_error"},
		{provider.KindTimeout, 0, http.StatusGatewayTimeout, "upstream_timeout"},
		{provider.KindCanceled, 0, StatusClientClosed, "client_closed_request"},
		{provider.KindAuth, 403, http.StatusForbidden, "upstream_auth_failed"},
		{provider.KindAuth, 0, http.StatusUnauthorized, "upstream_auth_failed"},
		{provider.KindNotFound, 404, http.StatusBadGateway, "upstream_model_not_found"},
		{provider.KindBadRequest, 422, http.StatusUnprocessableEntity, "upstream_rejected_request"},
		{provider.KindRateLimited, 429, http.StatusTooManyRequests, "upstream_rate_limited"},
		{provider.KindUpstream, 503, http.StatusBadGateway, "upstream_error"},
		{provider.KindProtocol, 200, http.StatusBadGateway, "upstream_error"},
		{provider.KindInternal, 0, http.StatusInternalServerError, ""},
	}
	for _, tt := range tests {
		t.Run(tt.kind.String(), func(t *testing.T) {
			cause := &provider.Error{Kind: tt.kind, Status: tt.status, Message: "what happened", RetryAfter: time.Second}
			e := r.apiError("m", cause)
			if e.Status != tt.want || e.Code != tt.code || e.Message != `model "m": what happened` || e.RetryAfter != time.Second {
				t.Errorf("got %d %q %q %v", e.Status, e.Code, e.Message, e.RetryAfter)
			}
			if !errors.Is(e, cause) {
				t.Error("the cause is not kept")
			}
		})
	}
	e := r.apiError("m", errors.New("boom"))
	if e.Status != 500 || e.Message != `model "m": internal error` || e.Type != openai.TypeServer {
		t.Errorf("unexpected error: %+v", e)
	}
}
