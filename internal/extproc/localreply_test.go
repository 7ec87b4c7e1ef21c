package extproc

import (
	"slices"
	"strings"
	"testing"
)

// TestProcessorWrapsGatewayFailures: when Envoy cannot reach the chosen model server, or
// stops waiting for it, its own plain-text reply passes through the processor; the client
// gets the OpenAI error envelope with the model and the request id instead, as from the HTTP
// listener. Answers in the OpenAI format, errors included, go on as they came.
func TestProcessorWrapsGatewayFailures(t *testing.T) {
	t.Parallel()
	f := defaultFixture(t)
	tests := []struct {
		name        string
		status      int
		contentType string
		chunks      []string
		want        string // the body the client gets; "" for the answer as it came
	}{
		{"connect failure", 503, "text/plain", []string{"upstream connect error or disconnect/reset before headers. ", "reset reason: connection failure"},
			`{"error":{"message":"upstream model server for model \"general\" failed: the gateway answered 503 Service Unavailable (request id req-1)","type":"upstream_error","param":null,"code":"upstream_error"}}` + "\n"},
		{"timeout", 504, "text/plain", []string{"upstream request timeout"},
			`{"error":{"message":"upstream model server for model \"general\" did not answer in time: the gateway answered 504 Gateway Timeout (request id req-1)","type":"timeout_error","param":null,"code":"upstream_timeout"}}` + "\n"},
		{"an HTML error page", 502, "text/html; charset=utf-8", []string{"<html><body>Bad Gateway</body></html>"},
			`{"error":{"message":"upstream model server for model \"general\" failed: the gateway answered 502 Bad Gateway (request id req-1)","type":"upstream_error","param":null,"code":"upstream_error"}}` + "\n"},
		{"the model server's JSON error", 503, "application/json", []string{`{"error":{"message":"overloaded","type":"server_error"}}`}, ""},
		{"a plain-text 200", 200, "text/plain", []string{"hello"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := f.open(t)
			e.planned(chatGeneral)
			hm := e.send(responseHeaders(tt.status, tt.contentType)).GetResponseHeaders().GetResponse().GetHeaderMutation()
			var got strings.Builder
			for i, c := range tt.chunks {
				got.WriteString(sent(t, e.send(responseBody(c, i == len(tt.chunks)-1)), c))
			}
			e.close()
			want, ctype := tt.want, "application/json"
			if want == "" {
				want, ctype = strings.Join(tt.chunks, ""), ""
			}
			if got.String() != want {
				t.Errorf("the client got %q\nwant %q", got.String(), want)
			}
			if h := setHeaders(hm.GetSetHeaders()); h["content-type"] != ctype {
				t.Errorf("content-type set to %q, want %q", h["content-type"], ctype)
			}
			if tt.want != "" && !slices.Contains(hm.GetRemoveHeaders(), "content-length") {
				t.Errorf("content-length kept for a body replaced: removed %v", hm.GetRemoveHeaders())
			}
		})
	}
}
