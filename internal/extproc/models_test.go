package extproc

import (
	"encoding/json"
	"slices"
	"testing"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// TestProcessorListsTheModels: GET /v1/models is answered by the processor as by the HTTP
// listener, with the router's names (the virtual model first; a key's own models), not a
// model server's ids; a wrong key gets 401.
func TestProcessorListsTheModels(t *testing.T) {
	t.Parallel()
	open := newFixture(t, testConfig, map[string]string{"QWEN_KEY": backendKey})
	keyed := newFixture(t, keyed, map[string]string{"TEAM_A_KEY": teamKey})
	tests := []struct {
		name   string
		f      *fixture
		auth   string
		status int
		ids    []string
		body   string // the error's, exactly
	}{
		{"open listener", open, "", 200, []string{"auto", "general", "reasoning"}, ""},
		{"a key limited to a model", keyed, "Bearer " + teamKey, 200, []string{"general"}, ""},
		{"a wrong key", keyed, "Bearer sk-wrong-key-1", 401, nil,
			`{"error":{"message":"the API key is not valid","type":"authentication_error","param":null,"code":"invalid_api_key"}}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			hs := []*corev3.HeaderValue{hv(":method", "GET"), hv(":path", "/v1/models"), hv("x-request-id", "req-models")}
			if tt.auth != "" {
				hs = append(hs, hv("authorization", tt.auth))
			}
			e := tt.f.open(t)
			imm := e.send(&extprocv3.ProcessingRequest{Request: &extprocv3.ProcessingRequest_RequestHeaders{
				RequestHeaders: &extprocv3.HttpHeaders{Headers: &corev3.HeaderMap{Headers: hs}, EndOfStream: true}}}).GetImmediateResponse()
			if imm == nil || int(imm.GetStatus().GetCode()) != tt.status {
				t.Fatalf("got %v, want an immediate %d", imm, tt.status)
			}
			if h := setHeaders(imm.GetHeaders().GetSetHeaders()); h["content-type"] != "application/json" || h["x-request-id"] != "req-models" {
				t.Errorf("headers %v", h)
			}
			if tt.status != 200 {
				if string(imm.GetBody()) != tt.body {
					t.Errorf("body %s, want %s", imm.GetBody(), tt.body)
				}
				return
			}
			var list openai.ModelList
			if err := json.Unmarshal(imm.GetBody(), &list); err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, m := range list.Data {
				ids = append(ids, m.ID)
				if m.Object != "model" || m.OwnedBy != "semantic-router" || m.Created == 0 {
					t.Errorf("model %+v", m)
				}
			}
			if list.Object != "list" || !slices.Equal(ids, tt.ids) {
				t.Errorf("listed %s %v, want list %v", list.Object, ids, tt.ids)
			}
		})
	}
}
