package router

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"testing"

	"github.com/semantic-router/semantic-router/internal/balancer"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/providertest"
	"github.com/semantic-router/semantic-router/internal/provider/sim"
)

// refusingURL is the URL of a port nothing listens on: connections to it are refused.
func refusingURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return "http://" + addr
}

// TestBalancedSkipsUnreachableEndpoints: a call whose connection is refused goes on to the
// next endpoint at once, whole answers and streams alike, and the refusals eject the
// endpoint.
func TestBalancedSkipsUnreachableEndpoints(t *testing.T) {
	t.Parallel()
	live := newModelBackend(t)
	r, _ := poolRouter(t, false, endpointModel("m", refusingURL(t), live.URL, ""), nil)
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	for i, stream := range []bool{false, true, false, true} {
		res, trail, err := p.Serve(context.Background(), &Request{ID: "b", Header: http.Header{}, Body: newBody(chatBody("m", "hi", stream))})
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if res.Stream != nil {
			drain(t, res.Stream)
		}
		res.Close()
		if trail.Route.FallbackFrom != "" {
			t.Errorf("request %d fell back: %+v", i, trail.Route)
		}
	}
	if n := live.completions.Load(); n != 4 {
		t.Errorf("the live endpoint served %d, want 4", n)
	}
	st := endpointsOf(r, "m")
	if !st[0].Ejected || st[1].ConsecutiveFailures != 0 || st[1].InFlight != 0 || st[0].InFlight != 0 {
		t.Errorf("endpoints = %+v, want the refusing one ejected, the live one healthy, nothing in flight", st)
	}
}

// TestBalancedStopsAtAnAnswer: a failure that came from an endpoint's answer (a 500) is
// not tried on another endpoint: retries and fallbacks decide about those.
func TestBalancedStopsAtAnAnswer(t *testing.T) {
	t.Parallel()
	failing, live := newUpstream(t), newModelBackend(t)
	failing.failAlways(http.StatusInternalServerError)
	r, _ := poolRouter(t, false, endpointModel("m", failing.URL, live.URL, ""), nil)
	_, _, err := serve(r, chat("m", "hi"))
	if e := apiErr(t, err); e.Status != http.StatusBadGateway || e.Message != `upstream model server for model "m" answered 500 Internal Server Error (request id test)` {
		t.Errorf("%d %q", e.Status, e.Message)
	}
	if failing.calls.Load() != 1 || live.completions.Load() != 0 {
		t.Errorf("calls: failing %d, live %d; want 1 and 0", failing.calls.Load(), live.completions.Load())
	}
	if st := endpointsOf(r, "m"); st[0].ConsecutiveFailures != 1 {
		t.Errorf("endpoints = %+v, want one failure on the failing endpoint", st)
	}
}

// TestBalancedStreamOutcomes: a stream reports its endpoint's health when it is closed: a
// whole stream succeeds, one cut short or carrying an event that is not JSON fails, and
// one the client abandoned tells nothing.
func TestBalancedStreamOutcomes(t *testing.T) {
	t.Parallel()
	script := providertest.NewScript()
	f := providertest.NewOpenAIFake(t, script, "sk-fake")
	r := buildRouter(t, "models:\n"+
		"  - model_name: m\n    provider:\n      type: openai_compatible\n      base_url: "+f.Server.URL+"/v1\n      api_key: env.FAKE_KEY\n"+
		"      outlier_detection: {consecutive_failures: 10}\n", fakeEnv, Options{})
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	for _, tt := range []struct {
		name     string
		reply    providertest.Reply
		read     bool // read to the end (or the error)
		failures int
	}{
		{"an event that is not JSON", providertest.Reply{Text: "one two", Misbehave: providertest.StreamGarbage}, true, 1},
		{"a stream cut short", providertest.Reply{Text: "one two", Misbehave: providertest.StreamCut}, true, 2},
		{"a stream the client abandoned", providertest.Reply{Text: "one two three"}, false, 2},
		{"a whole stream", providertest.Reply{Text: "one two"}, true, 0},
	} {
		script.SetReply(tt.reply)
		res, _, err := p.Serve(context.Background(), &Request{ID: "s", Header: http.Header{}, Body: newBody(chatBody("m", "hi", true))})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for tt.read {
			if _, err := res.Stream.Next(); err != nil {
				break
			}
		}
		res.Close()
		if st := endpointsOf(r, "m"); st[0].ConsecutiveFailures != tt.failures || st[0].InFlight != 0 {
			t.Errorf("%s: endpoint %+v, want %d consecutive failures and nothing in flight", tt.name, st[0], tt.failures)
		}
	}
}

func TestOutcome(t *testing.T) {
	t.Parallel()
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	timedOut := func(cause error) context.Context {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(cause)
		return ctx
	}
	upstream := &provider.Error{Kind: provider.KindUpstream}
	for _, tt := range []struct {
		name string
		ctx  context.Context
		err  error
		want balancer.Outcome
	}{
		{"an answer", context.Background(), nil, balancer.Success},
		{"the client went away", canceled, upstream, balancer.Neutral},
		{"first_token_timeout", timedOut(errFirstTokenTimeout), upstream, balancer.Failure},
		{"stream_idle_timeout", timedOut(fmt.Errorf("cut: %w", errStreamIdleTimeout)), upstream, balancer.Failure},
		{"not a provider error", context.Background(), errors.New("boom"), balancer.Neutral},
		{"the model's output failed", context.Background(), &provider.Error{Kind: provider.KindUpstream,
			Err: &provider.ModelOutputError{What: "a malformed function call", Reason: "MALFORMED_FUNCTION_CALL"}}, balancer.Neutral},
	} {
		if got := outcome(tt.ctx, tt.err); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	for kind, want := range map[provider.Kind]balancer.Outcome{
		provider.KindConnect: balancer.Failure, provider.KindTLS: balancer.Failure, provider.KindTimeout: balancer.Failure,
		provider.KindUpstream: balancer.Failure, provider.KindProtocol: balancer.Failure,
		provider.KindAuth: balancer.Neutral, provider.KindNotFound: balancer.Neutral, provider.KindBadRequest: balancer.Neutral,
		provider.KindRateLimited: balancer.Neutral, provider.KindCanceled: balancer.Neutral, provider.KindInternal: balancer.Neutral,
	} {
		if got := outcome(context.Background(), fmt.Errorf("wrapped: %w", &provider.Error{Kind: kind})); got != want {
			t.Errorf("%s: %v, want %v", kind, got, want)
		}
	}
}

// TestBlamedStreamFails: a stream whose events the router refused (blame) counts as a
// failure of its endpoint even when it ends cleanly; one read to its end succeeds.
func TestBlamedStreamFails(t *testing.T) {
	t.Parallel()
	r, _ := poolRouter(t, true, endpointModel("m", "http://a.internal", "http://b.internal", ""), nil)
	pool := r.models["m"].pool
	sm := sim.New(sim.Options{Model: "m"})
	for _, tt := range []struct {
		blamed   bool
		failures int
	}{{true, 1}, {false, 0}} {
		i, err := pool.pick()
		if err != nil {
			t.Fatal(err)
		}
		if i != 0 {
			pool.Done(i, balancer.Success)
			if i, err = pool.pick(); err != nil || i != 0 {
				t.Fatalf("pick: %d, %v", i, err)
			}
		}
		s, err := sm.ChatCompletionStream(context.Background(), chat("m", "hi"))
		if err != nil {
			t.Fatal(err)
		}
		bs := &balancedStream{Stream: s, pool: pool, i: i, ctx: context.Background()}
		if tt.blamed {
			blame(bs)
		}
		for {
			if _, err := bs.Next(); err != nil {
				break
			}
		}
		_ = bs.Close()
		_ = bs.Close() // reported once
		if st := endpointsOf(r, "m"); st[0].ConsecutiveFailures != tt.failures || st[0].InFlight != 0 {
			t.Errorf("blamed %v: endpoint %+v, want %d failures, nothing in flight", tt.blamed, st[0], tt.failures)
		}
	}
}
