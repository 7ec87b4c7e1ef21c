package extproc

import "testing"

// TestProcessorChecksEverySpellingOfTheChatPath: a chat completion the model server would
// serve is planned (checked and routed) however the client spells its path; Envoy forwards
// the path as it came unless it normalizes paths.
func TestProcessorChecksEverySpellingOfTheChatPath(t *testing.T) {
	t.Parallel()
	f := defaultFixture(t)
	tests := []struct {
		path    string
		planned bool
	}{
		{"/v1/chat/completions", true},
		{"/v1/chat/completions?api-version=1", true},
		{"/v1/chat/%63ompletions", true},
		{"/v1/chat%2Fcompletions", true},
		{"//v1/chat/completions", true},
		{"/v1//chat/completions", true},
		{"/v1/./chat/completions", true},
		{"/v1/x/../chat/completions", true},
		{"/v1/chat/completions/", true},
		{"/v1/completions", false},
		{"/v1/chat/completions.json", false},
		{"/V1/chat/completions", false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			e := f.open(t)
			if hr := e.send(requestHeaders(tt.path)); hr.GetImmediateResponse() != nil {
				t.Fatalf("refused at the headers: %v", hr)
			}
			resp := e.send(requestBody(chatGeneral)).GetRequestBody().GetResponse()
			if planned := resp.GetBodyMutation() != nil; planned != tt.planned {
				t.Errorf("planned %v, want %v: %v", planned, tt.planned, resp)
			}
		})
	}
}

func TestServedPath(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"": "", "/": "/", "/v1/chat/completions?x=/..": "/v1/chat/completions", "v1/models": "/v1/models",
		"/v1/%zz": "/v1/%zz", "/a/b/../../..": "/",
	} {
		if got := servedPath(raw); got != want {
			t.Errorf("servedPath(%q) = %q, want %q", raw, got, want)
		}
	}
}
