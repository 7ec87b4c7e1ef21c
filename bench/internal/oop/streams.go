package oop

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/semantic-router/semantic-router/bench/internal/measure"
)

// StreamRun is the streams run of one server process.
type StreamRun struct {
	Target string
	// H2C says the load generator spoke HTTP/2 without TLS, many streams a connection, as
	// a proxy in front set up for HTTP/2 upstreams does; otherwise HTTP/1.1, a connection
	// a stream. UpstreamH2C says the server spoke it to the backend too (the router with
	// provider.h2c, the proxy with -upstream-h2c).
	H2C, UpstreamH2C bool
	// Conversation says each stream's request was an agent's conversation (about 85 KB),
	// not the 7-word question.
	Conversation          bool
	Streams, Held, Failed int
	Complete              int
	FirstError            string
	Before, During, After Sample
	// Idle is sampled once the upstream idle timeout has passed after the release (zero
	// when the run does not wait for it).
	Idle     Sample
	released time.Time
}

// streams starts a mock backend that holds streams, then a fresh router (config (a)) and a
// fresh bare proxy in front of it, and for each in turn opens o.Streams streams at once,
// samples the server while all are held, releases them, and samples it again once it has
// settled. It then does the same, without the idle wait, through fresh processes with
// clients that speak HTTP/2 without TLS (the bare proxy serves it with -h2c), once more
// with HTTP/2 without TLS to the backend as well, and once more over HTTP/1.1 with
// o.ConversationStreams streams whose requests are an agent's conversation.
func (r *runner) streams(ctx context.Context, rep *Report) error {
	// The last streams run speaks HTTP/2 without TLS to the backend.
	_, backendURL, err := r.startBackend(ctx, "holding mock backend", "-hold", "-h2c")
	if err != nil {
		return err
	}
	short := streamLoad{body: "short-stream", n: r.o.Streams}
	for _, h := range []hops{{}, {clients: true}, {clients: true, upstream: true}} {
		if err := r.streamsOver(ctx, rep, backendURL, h, short); err != nil {
			return err
		}
	}
	if r.o.ConversationStreams > 0 {
		return r.streamsOver(ctx, rep, backendURL, hops{}, streamLoad{body: "conversation-stream", n: r.o.ConversationStreams, conversation: true})
	}
	return nil
}

// hops says which connections of a streams run speak HTTP/2 without TLS: the clients' to
// the server, the server's to the backend.
type hops struct{ clients, upstream bool }

// streamLoad is what a streams run sends: n streams of the request in body.
type streamLoad struct {
	body         string
	n            int
	conversation bool
}

// streamsOver is one pair of streams runs, the router's and the proxy's.
func (r *runner) streamsOver(ctx context.Context, rep *Report, backendURL string, h hops, load streamLoad) error {
	over, cfg, proxyArgs := "", "plain", []string(nil)
	if h.clients {
		over, proxyArgs = ", h2c clients", []string{"-h2c"}
	}
	if h.upstream {
		over, cfg, proxyArgs = over+" and upstream", "plain-h2c", append(proxyArgs, "-upstream-h2c")
	}
	if load.conversation {
		over = " of conversations"
	}
	rt, err := r.startRouter(ctx, "router (streams"+over+")", cfg, backendURL, "standalone")
	if err != nil {
		return err
	}
	px, err := r.startProxy(ctx, "bare proxy (streams"+over+")", backendURL, proxyArgs...)
	if err != nil {
		return err
	}
	first := len(rep.Streams) // the router's run; the proxy's follows
	for _, t := range []struct {
		target string
		p      *Process
	}{{routerPlain, rt}, {proxy, px}} {
		r.say("%d concurrent streams through %s", load.n, t.p.Name)
		run, err := r.streamRun(ctx, t.p, backendURL, h.clients, load)
		if err != nil {
			return fmt.Errorf("streams through %s: %w", t.p.Name, err)
		}
		run.Target, run.H2C, run.UpstreamH2C, run.Conversation = t.target, h.clients, h.upstream, load.conversation
		rep.Streams = append(rep.Streams, run)
	}
	// The idle samples wait for the upstream pool's idle timeout; the router's wait runs
	// while the proxy is measured. The HTTP/1.1 runs show it; the h2c runs do not wait again.
	for i, t := range []*Process{rt, px} {
		if r.o.IdleWait > 0 && !h.clients && !load.conversation {
			run := &rep.Streams[first+i]
			r.say("waiting for the upstream idle timeout after the streams through %s", t.Name)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Until(run.released.Add(r.o.IdleWait))):
			}
			if run.Idle, err = sample(ctx, t.Pid(), "http://"+t.Addr("metrics")+"/metrics"); err != nil {
				return err
			}
		}
		r.ps.stop(t, 5*time.Second)
	}
	return nil
}

func (r *runner) streamRun(ctx context.Context, p *Process, backendURL string, h2c bool, load streamLoad) (StreamRun, error) {
	run := StreamRun{Streams: load.n}
	metrics := "http://" + p.Addr("metrics") + "/metrics"
	var err error
	if run.Before, err = sample(ctx, p.Pid(), metrics); err != nil {
		return run, err
	}
	args := []string{"-mode", "streams", "-url", "http://" + p.Addr("inference"), "-body", r.bodies[load.body], "-n", itoa(load.n)}
	if h2c {
		args = append(args, "-h2c")
	}
	cmd := exec.CommandContext(ctx, r.b.loadgen, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return run, err
	}
	if err := cmd.Start(); err != nil {
		return run, err
	}
	lines := bufio.NewScanner(stdout)
	var last string
	for lines.Scan() {
		last = lines.Text()
		var ev measure.HeldEvent
		if json.Unmarshal([]byte(last), &ev) != nil || ev.Event != "held" {
			continue
		}
		run.Held, run.Failed = ev.Held, ev.Failed
		if run.During, err = sample(ctx, p.Pid(), metrics); err != nil {
			break
		}
		err = release(ctx, backendURL)
		if err != nil {
			break
		}
		run.released = time.Now()
	}
	_, _ = io.Copy(io.Discard, stdout)
	if werr := cmd.Wait(); werr != nil && err == nil {
		err = fmt.Errorf("load generator: %w: %s", werr, strings.TrimSpace(stderr.String()))
	}
	if err != nil {
		return run, err
	}
	var res measure.Result
	if jerr := json.Unmarshal([]byte(last), &res); jerr != nil {
		return run, fmt.Errorf("load generator output %q: %w", last, jerr)
	}
	run.Complete, run.FirstError = res.Requests, res.FirstError
	run.Failed = res.Errors
	if run.After, err = settled(ctx, p.Pid(), metrics, r.o.Settle); err != nil {
		return run, err
	}
	return run, nil
}

// release tells the holding backend to let its held streams finish.
func release(ctx context.Context, backendURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, backendURL+"/release", nil)
	if err != nil {
		return err
	}
	resp, err := metricsClient.Do(req)
	if err != nil {
		return fmt.Errorf("releasing the held streams: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return errors.New("releasing the held streams: status " + resp.Status)
	}
	return nil
}
