package server

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// TestAccessLineNamesTheDecision: the access log line of a routed request names the decision
// that routed it, and that of a blocked request the decision that refused it.
func TestAccessLineNamesTheDecision(t *testing.T) {
	t.Parallel()
	f := newFixture(t, simModels+`
signals:
  keywords:
    - {name: secret_project, keywords: [bluebird]}
    - {name: billing, keywords: [invoice]}
decisions:
  - name: no_bluebird
    rules: {signal: secret_project}
    block: {status: 403, message: "not here"}
  - name: billing
    rules: {signal: billing}
    models: [{model: general}]
`, nil)
	for _, tt := range []struct {
		name, prompt string
		want         map[string]any
	}{
		{"a blocked request", "tell me about bluebird",
			map[string]any{"level": "INFO", "msg": "request", "request_id": "blocked-1", "status": 403.0, "model": "auto", "selected_model": "", "decision": "no_bluebird"}},
		{"a routed request", "where is my invoice",
			map[string]any{"level": "INFO", "msg": "request", "request_id": "routed-1", "status": 200.0, "model": "auto", "selected_model": "general", "decision": "billing"}},
		{"a request for a model", "",
			map[string]any{"level": "INFO", "msg": "request", "request_id": "direct-1", "status": 200.0, "model": "general", "selected_model": "general", "decision": nil}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			model := "auto"
			if tt.prompt == "" {
				model, tt.prompt = "general", "hi"
			}
			req, err := http.NewRequest("POST", f.inference+"/v1/chat/completions",
				strings.NewReader(`{"model":"`+model+`","messages":[{"role":"user","content":"`+tt.prompt+`"}]}`))
			if err != nil {
				t.Fatal(err)
			}
			id := tt.want["request_id"].(string)
			req.Header.Set(HeaderRequestID, id)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if got := accessLine(t, f, id, tt.want); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("access line %v, want %v", got, tt.want)
			}
		})
	}
}

// TestAccessLineClipsWhatTheClientWrote: a path or method as long as the header limit allows
// is clipped in the access line, as in the error message, to 256 bytes and an ellipsis.
func TestAccessLineClipsWhatTheClientWrote(t *testing.T) {
	t.Parallel()
	f := newFixture(t, simModels, nil)
	long := strings.Repeat("a", 20000)
	for _, tt := range []struct {
		name, method, path string
		want               map[string]any
	}{
		{"a long path", "GET", "/" + long, map[string]any{"status": 404.0, "method": "GET", "path": "/" + long[:255] + "…"}},
		{"a long method", "X" + long, "/v1/models", map[string]any{"status": 405.0, "method": "X" + long[:255] + "…", "path": "/v1/models"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			id := strings.ReplaceAll(tt.name, " ", "-")
			req, err := http.NewRequest(tt.method, f.inference+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set(HeaderRequestID, id)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if got := accessLine(t, f, id, tt.want); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("access line %v, want %v", got, tt.want)
			}
		})
	}
}

// accessLine waits for the access line of request id and returns its fields named in want.
func accessLine(t *testing.T, f *fixture, id string, want map[string]any) map[string]any {
	t.Helper()
	var line map[string]any
	waitFor(t, "the access line of "+id, func() bool {
		for _, l := range strings.Split(f.logs.String(), "\n") {
			if strings.Contains(l, `"msg":"request","request_id":"`+id+`"`) {
				return json.Unmarshal([]byte(l), &line) == nil
			}
		}
		return false
	})
	got := map[string]any{}
	for k := range want {
		got[k] = line[k]
	}
	return got
}
