package router

import (
	"errors"
	"testing"
)

// TestRefusals: every kind of refusal has its status, type and code in the table, and
// refuse builds the client's error from it, keeping the cause for logs; a 401 says which
// scheme would do.
func TestRefusals(t *testing.T) {
	t.Parallel()
	want := map[Kind]struct {
		status    int
		typ, code string
	}{
		KindBadBody:           {400, "invalid_request_error", ""},
		KindTooLarge:          {413, "invalid_request_error", "request_too_large"},
		KindBodyTimeout:       {408, "invalid_request_error", "request_timeout"},
		KindUnauthenticated:   {401, "authentication_error", "invalid_api_key"},
		KindModelNotAllowed:   {403, "permission_error", "model_not_allowed"},
		KindRateLimited:       {429, "rate_limit_error", "rate_limit_exceeded"},
		KindOverloaded:        {503, "server_error", "overloaded"},
		KindClientGone:        {499, "invalid_request_error", "client_closed_request"},
		KindModelNotFound:     {404, "not_found_error", "model_not_found"},
		KindPolicyUnavailable: {503, "server_error", "policy_unavailable"},
		KindBlocked:           {403, "invalid_request_error", "blocked_by_policy"},
		KindModelUnavailable:  {503, "server_error", "model_unavailable"},
		KindShuttingDown:      {503, "server_error", "shutting_down"},
	}
	// The kinds are numbered from 1 with no gap: every one up to the last has an entry.
	for k := KindBadBody; k <= KindShuttingDown; k++ {
		if _, ok := refusals[k]; !ok {
			t.Errorf("kind %d has no entry in the table", k)
		}
	}
	if len(refusals) != len(want) {
		t.Errorf("the table has %d kinds, this test %d: a new kind needs its expected status here", len(refusals), len(want))
	}
	cause := errors.New("the cause")
	for k, w := range want {
		e := refuse(k, "message of the refusal", cause)
		wantHeader := ""
		if k == KindUnauthenticated {
			wantHeader = `Bearer realm="semantic-router"`
		}
		if e.Status != w.status || e.Type != w.typ || e.Code != w.code || e.Message != "message of the refusal" || e.Param != "" ||
			e.RetryAfter != 0 || len(e.Header) > 1 || e.Header["www-authenticate"] != wantHeader {
			t.Errorf("kind %d: %+v, want %d %s %s", k, e, w.status, w.typ, w.code)
		}
		if !errors.Is(e, cause) {
			t.Errorf("kind %d: the cause is lost", k)
		}
	}
}
