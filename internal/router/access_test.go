package router

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/admission"
	"github.com/semantic-router/semantic-router/internal/openai"
)

// TestRefused: each admission refusal becomes the API error clients have always seen, with
// the refusal's message and Retry-After and the refusal as the cause.
func TestRefused(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		reason admission.Reason
		want   openai.APIError
	}{
		{admission.ReasonUnauthenticated, openai.APIError{Status: 401, Type: "authentication_error", Code: "invalid_api_key"}},
		{admission.ReasonModelNotAllowed, openai.APIError{Status: 403, Type: "permission_error", Code: "model_not_allowed", Param: "model"}},
		{admission.ReasonKeyRateLimited, openai.APIError{Status: 429, Type: "rate_limit_error", Code: "rate_limit_exceeded"}},
		{admission.ReasonModelRateLimited, openai.APIError{Status: 429, Type: "rate_limit_error", Code: "rate_limit_exceeded"}},
		{admission.ReasonOverloaded, openai.APIError{Status: 503, Type: "server_error", Code: "overloaded"}},
		{admission.ReasonClientGone, openai.APIError{Status: 499, Type: "invalid_request_error", Code: "client_closed_request"}},
	} {
		ref := &admission.Refusal{Reason: tt.reason, Message: "message of " + string(tt.reason), RetryAfter: 3 * time.Second, Err: admission.ErrQueueFull}
		got := refused(fmt.Errorf("wrapped: %w", ref))
		if got.Status != tt.want.Status || got.Type != tt.want.Type || got.Code != tt.want.Code || got.Param != tt.want.Param ||
			got.Message != ref.Message || got.RetryAfter != ref.RetryAfter {
			t.Errorf("%s: %d %s %s %q %q %v", tt.reason, got.Status, got.Type, got.Code, got.Param, got.Message, got.RetryAfter)
		}
		if !errors.Is(got, admission.ErrQueueFull) {
			t.Errorf("%s: the cause is lost", tt.reason)
		}
	}
	for _, err := range []error{errors.New("boom"), &admission.Refusal{Reason: "new_reason", Message: "m"}} {
		if got := refused(err); got.Status != 500 || got.Message != "internal error in admission" {
			t.Errorf("%v: %d %q", err, got.Status, got.Message)
		}
	}
}
