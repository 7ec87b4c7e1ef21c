// Command tracephases splits the time an HTTP gateway spends on each request into phases,
// from an execution trace of the gateway taken while it serves one request at a time (Go's
// /debug/pprof/trace, which the router's management port serves with management.profiling
// on; see "Profiling" in README.md):
//
//	curl -H "Authorization: Bearer $ADMIN" 'http://127.0.0.1:8080/debug/pprof/trace?seconds=2' > r.trace
//	go run ./bench/cmd/tracephases r.trace
//
// The phases are bounded by the gateway's system calls, told apart by the net/http code that
// makes them (client connection, upstream connection), so the same cut applies to the router
// and to the bare reverse proxy of the benchmark:
//
//	request   the request's last read from the client   → the first write upstream
//	upstream  the first write upstream                  → the last read upstream before the answer
//	answer    that last read upstream                   → the first write of the answer to the client
//	after     the end of that write                     → the next read from the client
//
// "after" is what the connection's goroutine does once the answer is out (log line,
// metrics): at concurrency 1 the next request waits for it. For a stream the answer is the
// first event. The trace must hold sequential traffic: with several requests in flight on one
// connection's goroutines at once, the phases interleave and the cut means nothing.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/exp/trace"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "tracephases:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: tracephases TRACE_FILE... (execution traces from /debug/pprof/trace)")
	}
	for _, path := range args {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		ph, err := Read(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		fmt.Fprintf(out, "%s: %d requests\n", path, ph.Requests())
		fmt.Fprintf(out, "%-9s %10s %10s %10s\n", "phase", "p25", "p50", "p75")
		for _, p := range ph.Summary() {
			fmt.Fprintf(out, "%-9s %10s %10s %10s\n", p.Name, us(p.P25), us(p.P50), us(p.P75))
		}
	}
	return nil
}

func us(d time.Duration) string { return fmt.Sprintf("%.1fµs", float64(d)/float64(time.Microsecond)) }

// side is what a system call of the gateway is for.
type side uint8

const (
	none side = iota
	clientRead
	clientWrite
	upstreamRead
	upstreamWrite
)

// classify tells a read or write system call's purpose from the frames above it.
func classify(st trace.Stack) side {
	var read, write, conn, persist, writeLoop bool
	for f := range st.Frames() {
		switch fn := f.Func; {
		case fn == "syscall.read":
			read = true
		case fn == "syscall.write":
			write = true
		case strings.HasPrefix(fn, "net/http.(*connReader)"), fn == "net/http.checkConnErrorWriter.Write":
			conn = true
		case fn == "net/http.(*persistConn).writeLoop", fn == "net/http.persistConnWriter.Write":
			writeLoop = true
		case strings.HasPrefix(fn, "net/http.(*persistConn)"):
			persist = true
		}
	}
	switch {
	case write && writeLoop:
		return upstreamWrite
	case read && persist:
		return upstreamRead
	case read && conn:
		return clientRead
	case write && conn:
		return clientWrite
	}
	return none
}

// call is one end of a classified system call.
type call struct {
	at   trace.Time
	side side
	exit bool
}

// Phases are the durations of each phase, request by request.
type Phases struct {
	Request, Upstream, Answer, After []time.Duration
}

// Requests is how many requests had all of their first three phases in the trace.
func (p *Phases) Requests() int { return len(p.Request) }

// Quantiles of one phase.
type Quantiles struct {
	Name          string
	P25, P50, P75 time.Duration
}

// Summary gives each phase's quartiles, in the order a request goes through them.
func (p *Phases) Summary() []Quantiles {
	var out []Quantiles
	for _, ph := range []struct {
		name string
		d    []time.Duration
	}{{"request", p.Request}, {"upstream", p.Upstream}, {"answer", p.Answer}, {"after", p.After}} {
		d := slices.Sorted(slices.Values(ph.d))
		q := Quantiles{Name: ph.name}
		if len(d) > 0 {
			q.P25, q.P50, q.P75 = d[len(d)/4], d[len(d)/2], d[3*len(d)/4]
		}
		out = append(out, q)
	}
	return out
}

// Read reads an execution trace and cuts it into phases.
func Read(r io.Reader) (*Phases, error) {
	tr, err := trace.NewReader(r)
	if err != nil {
		return nil, err
	}
	var calls []call
	inSyscall := map[trace.GoID]side{}
	for {
		ev, err := tr.ReadEvent()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if ev.Kind() != trace.EventStateTransition {
			continue
		}
		st := ev.StateTransition()
		if st.Resource.Kind != trace.ResourceGoroutine {
			continue
		}
		g := st.Resource.Goroutine()
		from, to := st.Goroutine()
		switch {
		case to == trace.GoSyscall:
			s := classify(st.Stack)
			inSyscall[g] = s
			if s != none {
				calls = append(calls, call{at: ev.Time(), side: s})
			}
		case from == trace.GoSyscall:
			if s := inSyscall[g]; s != none {
				calls = append(calls, call{at: ev.Time(), side: s, exit: true})
			}
			delete(inSyscall, g)
		}
	}
	return cut(calls), nil
}

// cut walks the system calls in time order. A request starts at the last client read that
// returns before the first upstream write; its answer is the first client write after an
// upstream read; "after" runs from that write's return to the next client read.
func cut(calls []call) *Phases {
	var (
		p                    Phases
		read, sent, received trace.Time
		state                int // 0: reading the request, 1: sent upstream
		answered             trace.Time
	)
	for _, c := range calls {
		switch {
		case c.side == clientRead && !c.exit && answered != 0:
			p.After = append(p.After, c.at.Sub(answered))
			answered = 0
		case c.side == clientRead && c.exit && state == 0:
			read = c.at
		case c.side == upstreamWrite && !c.exit && state == 0 && read != 0:
			sent, state = c.at, 1
		case c.side == upstreamRead && c.exit && state == 1:
			received = c.at
		case c.side == clientWrite && !c.exit:
			if state == 1 && received != 0 {
				p.Request = append(p.Request, sent.Sub(read))
				p.Upstream = append(p.Upstream, received.Sub(sent))
				p.Answer = append(p.Answer, c.at.Sub(received))
			}
			state, read, received = 0, 0, 0
		case c.side == clientWrite && c.exit && state == 0 && answered == 0:
			answered = c.at
		}
	}
	return &p
}
