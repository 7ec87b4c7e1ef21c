package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// blockingBackend streams one event and then holds the stream until release is closed.
func blockingBackend(t *testing.T) (url string, release chan struct{}) {
	t.Helper()
	release = make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"a"}}]}`+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	return srv.URL, release
}

// TestAdmissionBeforeTheBody: the client key, its rate limit and the in-flight slot are
// settled from the headers. A client refused by them gets its answer without sending its
// body, and the server closes the connection instead of waiting for the body.
func TestAdmissionBeforeTheBody(t *testing.T) {
	t.Parallel()
	backend, release := blockingBackend(t)
	f := newFixture(t, fmt.Sprintf(`
admission:
  api_keys: [{name: app, key: env.K, requests_per_minute: 100}]
  max_in_flight: 1
models:
  - model_name: slow
    provider: {type: openai_compatible, base_url: %s/v1}
`, backend), map[string]string{"K": teamKey})
	inference, _ := f.real(t)
	// The slot is held by a stream that does not end until released.
	holder, holderBR := dial(t, inference, fmt.Sprintf("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n%s",
		teamKey, len(chat("slow", true)), chat("slow", true)))
	waitFor(t, "the first stream holds the slot", func() bool { return testutil.ToFloat64(f.metrics.InFlight.WithLabelValues("slow")) == 1 })

	// 10 of 200 bytes, and then nothing.
	head := "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n"
	for _, tt := range []struct {
		name, auth string
		status     int
		body       string
	}{
		{"over max_in_flight", "Authorization: Bearer " + teamKey + "\r\n", 503,
			`{"error":{"message":"the router is serving its maximum of 1 requests (admission.max_in_flight) and every in-flight slot and queue place is taken; retry shortly","type":"server_error","param":null,"code":"overloaded"}}`},
		{"no key", "", 401,
			`{"error":{"message":"missing API key: send it as Authorization: Bearer \u003ckey\u003e","type":"authentication_error","param":null,"code":"invalid_api_key"}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, br := dial(t, inference, head+tt.auth+"\r\n{\"model\":")
			r := readReply(t, c, br)
			if r.status != tt.status || strings.TrimSpace(r.body) != tt.body || !r.close {
				t.Errorf("got %d close=%v %s\nwant %d, Connection: close, %s", r.status, r.close, r.body, tt.status, tt.body)
			}
			waitClosed(t, c, br)
		})
	}

	close(release)
	if r := readReply(t, holder, holderBR); r.status != 200 || !strings.Contains(r.body, "data: [DONE]") {
		t.Errorf("the stream holding the slot: %d %s", r.status, r.body)
	}
	// The slot is free again: a whole request is served.
	waitFor(t, "the slot is freed", func() bool { return testutil.ToFloat64(f.metrics.InFlight.WithLabelValues("slow")) == 0 })
	if r := do(t, "POST", f.inference+"/v1/chat/completions", "Bearer "+teamKey, chat("slow", true)); r.status != 200 {
		t.Errorf("after the slot freed: %d %s", r.status, r.body)
	}
}

// TestEveryAnswerIsAnEnvelope: what a client can send to the listeners that is not a
// request they serve gets an OpenAI error envelope, never a redirect or a plain-text page.
func TestEveryAnswerIsAnEnvelope(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "server: {max_header_bytes: 4096}\n"+simModels, nil)
	inference, management := f.real(t)
	big := strings.Repeat("a", 6000)
	for _, tt := range []struct {
		name, addr, request string
		status              int
		allow, message      string
	}{
		{"dot segments", inference, "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 404, "",
			"unknown path GET /../../etc/passwd; this listener serves POST /v1/chat/completions, GET /v1/models and GET /v1/models/{model}"},
		{"double slash", inference, "GET //v1/models HTTP/1.1\r\nHost: x\r\n\r\n", 404, "",
			"unknown path GET //v1/models; this listener serves POST /v1/chat/completions, GET /v1/models and GET /v1/models/{model}"},
		{"dot segment inside", inference, "POST /v1/x/../chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 404, "",
			"unknown path POST /v1/x/../chat/completions; this listener serves POST /v1/chat/completions, GET /v1/models and GET /v1/models/{model}"},
		{"trailing slash", inference, "GET /v1/models/ HTTP/1.1\r\nHost: x\r\n\r\n", 404, "",
			"unknown path GET /v1/models/; this listener serves POST /v1/chat/completions, GET /v1/models and GET /v1/models/{model}"},
		{"CONNECT", inference, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 405, "GET, HEAD, POST",
			"method CONNECT is not allowed; this server is not a proxy"},
		{"OPTIONS *", inference, "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", 404, "",
			"unknown path OPTIONS *; this listener serves POST /v1/chat/completions, GET /v1/models and GET /v1/models/{model}"},
		{"wrong method", inference, "DELETE /v1/models HTTP/1.1\r\nHost: x\r\n\r\n", 405, "GET, HEAD",
			"method DELETE is not allowed on /v1/models; use GET"},
		{"headers too large", inference, "GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: " + big + "\r\n\r\n", 431, "",
			"the request line and headers are 6043 bytes, more than 4096 (server.max_header_bytes)"},
		{"management wrong method", management, "DELETE /api/v1/config HTTP/1.1\r\nHost: x\r\n\r\n", 405, "GET, HEAD",
			"method DELETE is not allowed on /api/v1/config; use GET"},
		{"management GET on a POST path", management, "GET /api/v1/config/reload HTTP/1.1\r\nHost: x\r\n\r\n", 405, "POST",
			"method GET is not allowed on /api/v1/config/reload; use POST"},
		{"management dot segments", management, "GET /api/v1/../../health HTTP/1.1\r\nHost: x\r\n\r\n", 404, "",
			"unknown path /api/v1/../../health; the management API serves /health, /ready, /api/v1/models, /api/v1/config, /api/v1/cache, POST /api/v1/classify, POST /api/v1/config/reload, POST /api/v1/cache/flush"},
		{"management headers too large", management, "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + big + "\r\n\r\n", 431, "",
			"the request line and headers are 6040 bytes, more than 4096 (server.max_header_bytes)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, br := dial(t, tt.addr, tt.request)
			r := readReply(t, c, br)
			var env struct {
				Error struct{ Message, Type string } `json:"error"`
			}
			if err := json.Unmarshal([]byte(r.body), &env); err != nil || r.header.Get("Content-Type") != "application/json" {
				t.Fatalf("not an envelope: %d %v %q", r.status, r.header, r.body)
			}
			if r.status != tt.status || env.Error.Message != tt.message || r.header.Get("Allow") != tt.allow || r.header.Get("Location") != "" {
				t.Errorf("got %d Allow %q Location %q %q\nwant %d Allow %q %q", r.status, r.header.Get("Allow"), r.header.Get("Location"),
					env.Error.Message, tt.status, tt.allow, tt.message)
			}
		})
	}
	// HEAD is GET without the body.
	if r := do(t, "HEAD", "http://"+management+"/health", "", ""); r.status != 200 {
		t.Errorf("HEAD /health: %d", r.status)
	}
}

// TestModelsListsWhatTheKeyMayUse: GET /v1/models shows a key only the models it may use,
// GET /v1/models/{model} finds only those, and a rotated client key is counted in semantic_router_credential_rotations_total.
func TestModelsListsWhatTheKeyMayUse(t *testing.T) {
	t.Parallel()
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(keyFile, []byte(otherKey), 0o600); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, fmt.Sprintf(`
admission:
  api_keys:
    - {name: team-a, key: env.TEAM_A_KEY, models: [general, auto]}
    - {name: other, key: "file:%s"}
%s`, keyFile, simModels), map[string]string{"TEAM_A_KEY": teamKey})
	ids := func(token string) []string {
		t.Helper()
		r := do(t, "GET", f.inference+"/v1/models", "Bearer "+token, "")
		var list struct {
			Data []struct{ ID string } `json:"data"`
		}
		if err := json.Unmarshal([]byte(r.body), &list); err != nil || r.status != 200 {
			t.Fatalf("GET /v1/models: %d %s", r.status, r.body)
		}
		var out []string
		for _, m := range list.Data {
			out = append(out, m.ID)
		}
		return out
	}
	if got, want := ids(teamKey), []string{"auto", "general"}; !slices.Equal(got, want) {
		t.Errorf("a key limited to some models sees %v, want %v", got, want)
	}
	if got, want := ids(otherKey), []string{"auto", "general", "reasoning"}; !slices.Equal(got, want) {
		t.Errorf("a key without a models list sees %v, want %v", got, want)
	}

	// GET /v1/models/{model} finds what the list shows the key, and nothing else.
	const notFound = `{"error":{"message":"the model \"%s\" does not exist; GET /v1/models lists the models you can use, or send \"auto\" to let the router choose","type":"not_found_error","param":"model","code":"model_not_found"}}` + "\n"
	for _, tt := range []struct {
		name, method, path, token string
		status                    int
		body                      string // exact; the model object's created is left out
	}{
		{"a model the key may use", "GET", "/v1/models/general", teamKey, 200, `{"id":"general","object":"model","owned_by":"semantic-router"}`},
		{"the virtual model", "GET", "/v1/models/auto", teamKey, 200, `{"id":"auto","object":"model","owned_by":"semantic-router"}`},
		{"a model outside the key's list", "GET", "/v1/models/reasoning", teamKey, 404, fmt.Sprintf(notFound, "reasoning")},
		{"the same model for another key", "GET", "/v1/models/reasoning", otherKey, 200, `{"id":"reasoning","object":"model","owned_by":"semantic-router"}`},
		{"an unknown model", "GET", "/v1/models/gpt-9", otherKey, 404, fmt.Sprintf(notFound, "gpt-9")},
		{"a name with a slash", "GET", "/v1/models/Qwen/Qwen3-8B", otherKey, 404, fmt.Sprintf(notFound, "Qwen/Qwen3-8B")},
		{"no key", "GET", "/v1/models/general", "", 401, ""},
		{"wrong method", "DELETE", "/v1/models/general", teamKey, 405,
			`{"error":{"message":"method DELETE is not allowed on /v1/models/general; use GET","type":"invalid_request_error","param":null,"code":null}}` + "\n"},
	} {
		auth := ""
		if tt.token != "" {
			auth = "Bearer " + tt.token
		}
		r := do(t, tt.method, f.inference+tt.path, auth, "")
		got := r.body
		if r.status == 200 {
			var m map[string]any
			if err := json.Unmarshal([]byte(r.body), &m); err != nil || m["created"] == nil {
				t.Errorf("%s: not a model object: %s", tt.name, r.body)
			}
			delete(m, "created")
			b, _ := json.Marshal(m)
			got = string(b)
		}
		if r.status != tt.status || tt.body != "" && got != tt.body {
			t.Errorf("%s: %s %s answered %d %s\nwant %d %s", tt.name, tt.method, tt.path, r.status, got, tt.status, tt.body)
		}
		if tt.status == 405 && r.header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: Allow %q", tt.name, r.header.Get("Allow"))
		}
	}

	rotations := f.metrics.CredentialRotations.WithLabelValues("file:" + keyFile)
	if err := os.WriteFile(keyFile+".new", []byte(rotated), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(keyFile+".new", keyFile); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the rotation is counted", func() bool { return testutil.ToFloat64(rotations) == 1 })
	if r := do(t, "GET", f.inference+"/v1/models", "Bearer "+rotated, ""); r.status != 200 {
		t.Errorf("the rotated key: %d %s", r.status, r.body)
	}
}
