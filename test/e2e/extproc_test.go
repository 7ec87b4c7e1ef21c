package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// TestExtprocMode runs the binary as Envoy's external processor, as the operator does for a
// SemanticRouter with spec.gateway.existingRef, and routes one request the way Envoy's
// ext_proc filter presents it. No model credentials are needed: Envoy calls the model, and
// without a key the router can read, the client's Authorization is removed.
func TestExtprocMode(t *testing.T) {
	t.Parallel()
	r := startRouterWith(t, `
models:
  - model_name: general
    provider: {type: openai_compatible, base_url: http://127.0.0.1:8000/v1, model: llama-8b, api_key: env.NOT_NEEDED_IN_EXTPROC}
`, []string{"-gateway", "extproc"})
	if r.GRPC == "" {
		t.Fatalf("no extproc listener:\n%s", r.logs)
	}
	s := processStream(t, r)
	send := func(req *extprocv3.ProcessingRequest) *extprocv3.ProcessingResponse {
		t.Helper()
		if err := s.Send(req); err != nil {
			t.Fatal(err)
		}
		resp, err := s.Recv()
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	send(&extprocv3.ProcessingRequest{Request: &extprocv3.ProcessingRequest_RequestHeaders{RequestHeaders: &extprocv3.HttpHeaders{
		Headers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{{Key: ":path", RawValue: []byte("/v1/chat/completions")}}}}}})
	resp := send(&extprocv3.ProcessingRequest{Request: &extprocv3.ProcessingRequest_RequestBody{RequestBody: &extprocv3.HttpBody{
		Body: []byte(`{"model":"auto","messages":[{"role":"user","content":"hi"}]}`), EndOfStream: true}}})
	var body map[string]any
	if err := json.Unmarshal(resp.GetRequestBody().GetResponse().GetBodyMutation().GetBody(), &body); err != nil || body["model"] != "llama-8b" {
		t.Errorf("rewritten body %v (%v)", body, err)
	}
	got := map[string]string{}
	for _, h := range resp.GetRequestBody().GetResponse().GetHeaderMutation().GetSetHeaders() {
		got[h.GetHeader().GetKey()] = string(h.GetHeader().GetRawValue())
	}
	if got["x-vsr-selected-model"] != "general" || got["x-vsr-destination-endpoint"] != "127.0.0.1:8000" {
		t.Errorf("headers %v", got)
	}
	if rm := resp.GetRequestBody().GetResponse().GetHeaderMutation().GetRemoveHeaders(); !slices.Equal(rm, []string{"accept-encoding", "authorization"}) {
		t.Errorf("removed headers %v, want [accept-encoding authorization]", rm)
	}
	_ = s.CloseSend()
	if resp, _ := do(t, "GET", r.API+"/ready", ""); resp.StatusCode != 200 {
		t.Errorf("/ready = %d in extproc mode", resp.StatusCode)
	}
}

// TestExtprocShutdownCutsWithTheCause: an exchange still running when the external
// processor's drain deadline passes is cut, and the router says so, at warn level, for the
// exchange and for the server; the probes answer until the processor has stopped.
func TestExtprocShutdownCutsWithTheCause(t *testing.T) {
	t.Parallel()
	r := startRouterWith(t, `
server: {shutdown_timeout: 1s}
models:
  - model_name: general
    provider: {type: openai_compatible, base_url: http://127.0.0.1:8000/v1, model: llama-8b}
`, []string{"-gateway", "extproc"})
	s := processStream(t, r)
	for _, req := range []*extprocv3.ProcessingRequest{
		{Request: &extprocv3.ProcessingRequest_RequestHeaders{RequestHeaders: &extprocv3.HttpHeaders{Headers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{
			{Key: ":method", RawValue: []byte("POST")}, {Key: ":path", RawValue: []byte("/v1/chat/completions")}, {Key: "x-request-id", RawValue: []byte("held-1")}}}}}},
		{Request: &extprocv3.ProcessingRequest_RequestBody{RequestBody: &extprocv3.HttpBody{
			Body: []byte(`{"model":"auto","stream":true,"messages":[{"role":"user","content":"hi"}]}`), EndOfStream: true}}},
		{Request: &extprocv3.ProcessingRequest_ResponseHeaders{ResponseHeaders: &extprocv3.HttpHeaders{Headers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{
			{Key: ":status", RawValue: []byte("200")}, {Key: "content-type", RawValue: []byte("text/event-stream")}}}}}},
	} {
		if err := s.Send(req); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Recv(); err != nil {
			t.Fatal(err)
		}
	}
	// The answer's body never comes: the exchange is held past the drain deadline.
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if resp, _ := do(t, "GET", r.API+"/health", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("/health during the processor's drain: %d, want 200", resp.StatusCode)
	}
	<-r.exited
	logs := r.logs.String()
	cut := strings.Index(logs, `"msg":"the drain deadline passed: the exchanges still running were cut","server":"extproc","drain":"1s"`)
	stopped := strings.Index(logs, `"msg":"stopped"`)
	if cut < 0 || stopped < cut {
		t.Errorf("the cut is not logged before the router stops:\n%s", logs)
	}
	if !strings.Contains(logs, `"level":"WARN","msg":"request","request_id":"held-1"`) ||
		!strings.Contains(logs, `"error":"ended before its answer did: the router is shutting down"`) {
		t.Errorf("the cut exchange is not logged as ended by the shutdown:\n%s", logs)
	}
}

// processStream opens one exchange with the router's external processor, as Envoy's filter
// does for one HTTP request; the connection closes when the test ends.
func processStream(t *testing.T, r *router) extprocv3.ExternalProcessor_ProcessClient {
	t.Helper()
	conn, err := grpc.NewClient(r.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	s, err := extprocv3.NewExternalProcessorClient(conn).Process(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s
}
