package oop

import (
	"context"
	"fmt"

	"github.com/semantic-router/semantic-router/bench/internal/measure"
)

// The paced-streams run. The backend writes each content event of a stream a while after
// the one before, as a model decoding tokens does, so that each event reaches the gateway on
// its own and costs it a read, a write and a wake-up: relaying such events is most of what a
// gateway in front of models does. The run reports the CPU time a server process spends per
// event it relays.
const (
	kindPaced = "paced"
	// routerCredential is config (a) holding a model API key, so that it reads every
	// streamed event for the key (bench/configs/plain-credential.yaml).
	routerCredential = "router-credential"
	// pacedTokens is the content events of a paced stream.
	pacedTokens = 50
	// pacedEvents is what the client receives of a paced stream: the role event, the
	// content events, the finish event and [DONE].
	pacedEvents = pacedTokens + 3
)

// paced starts a backend that paces its streams, the bare proxy and two routers (config (a),
// and the same holding a credential) in front of it, and measures each in turn, in an order
// rotated every round, for min(Rounds, 3) rounds.
func (r *runner) paced(ctx context.Context, rep *Report) error {
	if r.o.PacedStreams == 0 {
		return nil
	}
	_, backendURL, err := r.startBackend(ctx, "pacing mock backend", "-tokens", itoa(pacedTokens), "-token-interval", r.o.PacedInterval.String())
	if err != nil {
		return err
	}
	px, err := r.startProxy(ctx, "bare proxy (paced streams)", backendURL)
	if err != nil {
		return err
	}
	urls := map[string]string{proxy: "http://" + px.Addr("inference")}
	pids := map[string]int{proxy: px.Pid()}
	for _, rt := range []struct{ target, config string }{{routerPlain, "plain"}, {routerCredential, "plain-credential"}} {
		p, err := r.startRouter(ctx, rt.target+" (paced streams)", rt.config, backendURL, "standalone")
		if err != nil {
			return err
		}
		urls[rt.target], pids[rt.target] = "http://"+p.Addr("inference"), p.Pid()
	}
	targets := []string{proxy, routerPlain, routerCredential}
	rounds := min(r.o.Rounds, 3)
	for round := range rounds {
		r.say("paced streams, round %d of %d", round+1, rounds)
		for i := range targets {
			s := step{key{kindPaced, targets[(round+i)%len(targets)], "short"}, "short-stream"}
			res, err := r.measureCPU(ctx, s, urls, nil, pids[s.target])
			if err != nil {
				return fmt.Errorf("paced streams, round %d, %s: %w", round+1, s.target, err)
			}
			rep.Results[s.key] = append(rep.Results[s.key], res)
		}
	}
	r.ps.stopAll()
	return nil
}

// perEvent turns a per-stream figure of a paced run into one per event relayed.
func perEvent(f func(measure.Result) float64) func(measure.Result) float64 {
	return func(r measure.Result) float64 { return f(r) / pacedEvents }
}
