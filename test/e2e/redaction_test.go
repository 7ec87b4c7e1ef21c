package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestEchoedKeyIsRedacted runs the binary in front of a backend that echoes the
// Authorization header it received into a 401 and into a mid-stream error event. With the
// upstream's detail exposed to clients the echo is relayed, redacted; the log has the cause,
// redacted; the key itself appears nowhere.
func TestEchoedKeyIsRedacted(t *testing.T) {
	t.Parallel()
	const key = "sk-echoed-SECRET-5d2f"
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		if strings.Contains(r.URL.Path, "chat") && r.Header.Get("Accept") == "text/event-stream" {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n")
			fmt.Fprintf(w, "data: {\"error\":{\"message\":\"you sent %s\"}}\n\n", auth)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(401)
		fmt.Fprintf(w, `{"error":{"message":"you sent %s"}}`, auth)
	}))
	t.Cleanup(be.Close)
	cfg := strings.Replace(compatConfig(be.URL, "env.CHAT_KEY"), "routing:\n", "routing:\n  expose_upstream_errors: true\n", 1)
	r := startRouter(t, cfg, "CHAT_KEY="+key)
	var shown strings.Builder
	for _, body := range []string{chatBody, strings.Replace(chatBody, `{`, `{"stream":true,`, 1)} {
		_, out := do(t, "POST", r.Inference+"/v1/chat/completions", body)
		shown.Write(out)
	}
	if !strings.Contains(shown.String(), "you sent Bearer [redacted]") {
		t.Errorf("the exposed upstream text is missing or not redacted:\n%s", shown.String())
	}
	r.Stop()
	if !strings.Contains(r.logs.String(), "you sent Bearer [redacted]") {
		t.Errorf("the log lacks the redacted upstream text:\n%s", r.logs)
	}
	if strings.Contains(shown.String()+r.logs.String(), key) {
		t.Errorf("the key leaked:\n%s\n%s", shown.String(), r.logs)
	}
}
