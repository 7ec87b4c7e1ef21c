package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/semantic-router/semantic-router/internal/provider/sim"
)

// h2cClient speaks only HTTP/2 without TLS, with prior knowledge, as Envoy or a mesh sidecar
// set up for HTTP/2 to its upstreams does, and counts the connections it opens.
type h2cClient struct {
	*http.Client
	dials atomic.Int32
}

func newH2CClient() *h2cClient {
	c := &h2cClient{}
	p := new(http.Protocols)
	p.SetUnencryptedHTTP2(true)
	var d net.Dialer
	c.Client = &http.Client{Transport: &http.Transport{Protocols: p, DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c.dials.Add(1)
		return d.DialContext(ctx, network, addr)
	}}}
	return c
}

func TestHTTP2WithoutTLS(t *testing.T) {
	t.Parallel()
	be := newBackend(t, "", sim.Options{Model: "upstream/chat-8b", TokenLatency: 5 * time.Millisecond})
	r := startRouter(t, compatConfig(be.URL, ""))
	hc := newH2CClient()
	client := openai.NewClient(option.WithBaseURL(r.Inference+"/v1/"), option.WithAPIKey("client-key"),
		option.WithMaxRetries(0), option.WithHTTPClient(hc.Client))
	ctx := context.Background()

	var httpResp *http.Response
	resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    "chat",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("ping")},
	}, option.WithResponseInto(&httpResp))
	if err != nil {
		t.Fatal(err)
	}
	if httpResp.ProtoMajor != 2 {
		t.Errorf("answered over %s, want HTTP/2.0", httpResp.Proto)
	}
	if got := resp.Choices[0].Message.Content; !strings.Contains(got, "ping") {
		t.Errorf("content = %q, want the echo of the prompt", got)
	}

	// Streams share the connection: twenty at once, each complete.
	streamConcurrently(t, client, 20)

	// Errors keep the envelope, and an answer given before the body was read resets that
	// request's stream alone: the connection goes on.
	var apiErr *openai.Error
	_, err = client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model: "no-such-model", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")},
	})
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusNotFound || apiErr.Code != "model_not_found" {
		t.Errorf("unknown model: %v, want a 404 model_not_found error", err)
	}
	unread, err := hc.Post(r.Inference+"/v1/no-such-path", "application/json", strings.NewReader(strings.Repeat("x", 1<<20)))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(unread.Body)
	unread.Body.Close()
	if unread.StatusCode != http.StatusNotFound || unread.Header.Get("Connection") != "" {
		t.Errorf("unknown path: %d, Connection %q (%s); want 404 and no Connection header", unread.StatusCode, unread.Header.Get("Connection"), body)
	}
	if _, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model: "chat", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("again")},
	}); err != nil {
		t.Fatal(err)
	}
	if n := hc.dials.Load(); n != 1 {
		t.Errorf("the client opened %d connections, want 1: every request shares one", n)
	}

	// HTTP/2 without TLS is the inference listener's alone.
	if resp, err := hc.Get(r.API + "/health"); err == nil {
		resp.Body.Close()
		t.Errorf("the management API answered HTTP/2 without TLS (%s), want HTTP/1.1 only", resp.Proto)
	}
}

func TestH2COff(t *testing.T) {
	t.Parallel()
	be := newBackend(t, "", sim.Options{Model: "upstream/chat-8b"})
	r := startRouter(t, compatConfig(be.URL, "")+"server:\n  h2c: false\n")
	if resp, err := newH2CClient().Get(r.Inference + "/v1/models"); err == nil {
		resp.Body.Close()
		t.Fatalf("h2c: false, and the inference listener answered over %s", resp.Proto)
	}
	resp, body := do(t, http.MethodGet, r.Inference+"/v1/models", "")
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 1 {
		t.Errorf("HTTP/1.1 with h2c off: %s %d %s", resp.Proto, resp.StatusCode, body)
	}
}

// TestUpstreamH2C: provider.h2c has the router speak HTTP/2 without TLS to the model server,
// and the streams in flight share its connection.
func TestUpstreamH2C(t *testing.T) {
	t.Parallel()
	var conns atomic.Int32
	var protos sync.Map
	h := sim.Handler(sim.Options{Model: "upstream/chat-8b", TokenLatency: 5 * time.Millisecond})
	be := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		protos.Store(r.Proto, true)
		h.ServeHTTP(w, r)
	}))
	be.Config.Protocols = new(http.Protocols)
	be.Config.Protocols.SetHTTP1(true)
	be.Config.Protocols.SetUnencryptedHTTP2(true)
	be.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	be.Start()
	t.Cleanup(be.Close)
	cfg := strings.Replace(compatConfig(be.URL, ""), "model: upstream/chat-8b", "model: upstream/chat-8b\n      h2c: true", 1)
	r := startRouter(t, cfg)
	client := sdk(r)
	ctx := context.Background()

	if _, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model: "chat", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("ping")},
	}); err != nil {
		t.Fatal(err)
	}
	streamConcurrently(t, client, 20)
	var seen []string
	protos.Range(func(k, _ any) bool { seen = append(seen, k.(string)); return true })
	if len(seen) != 1 || seen[0] != "HTTP/2.0" {
		t.Errorf("the model server was spoken to over %v, want HTTP/2.0 only", seen)
	}
	// The first request opened the connection; the streams shared it.
	if n := conns.Load(); n != 1 {
		t.Errorf("the router opened %d connections to the model server, want 1", n)
	}
}

// streamConcurrently opens n streams to the model "chat" of compatConfig at once, and checks
// that each is complete.
func streamConcurrently(t *testing.T, client openai.Client, n int) {
	t.Helper()
	var wg sync.WaitGroup
	texts := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			s := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
				Model:    "chat",
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(fmt.Sprintf("stream %d", i))},
			})
			var b strings.Builder
			for s.Next() {
				if c := s.Current(); len(c.Choices) > 0 {
					b.WriteString(c.Choices[0].Delta.Content)
				}
			}
			texts[i], errs[i] = b.String(), s.Err()
		})
	}
	wg.Wait()
	for i := range n {
		if want := fmt.Sprintf("This is upstream/chat-8b answering: stream %d", i); errs[i] != nil || texts[i] != want {
			t.Errorf("stream %d: text %q, error %v; want %q", i, texts[i], errs[i], want)
		}
	}
}
