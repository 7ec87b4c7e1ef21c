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
//
// Beside each phase's times it counts, per request, what the process asked of the Go
// scheduler during the phase: processors set running (on an otherwise idle machine, a thread
// woken from sleep, which costs the waker a system call and the request the time the thread
// takes to start), goroutines started and goroutines woken. Two gateways can do the same
// hand-offs and still differ in which phase, before or after the upstream write, they fall.
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
		fmt.Fprintf(out, "%-9s %10s %10s %10s   %s\n", "phase", "p25", "p50", "p75",
			"per request: processors started, goroutines started, goroutines woken")
		for _, p := range ph.Summary() {
			fmt.Fprintf(out, "%-9s %10s %10s %10s   %.2f %.2f %.2f\n", p.Name, us(p.P25), us(p.P50), us(p.P75),
				p.PerRequest.ProcsStarted, p.PerRequest.GoroutinesStarted, p.PerRequest.GoroutinesWoken)
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

// handoff is a scheduling event of the process.
type handoff uint8

const (
	procStarted handoff = iota // a processor went from idle to running
	goStarted                  // a goroutine was created
	goWoken                    // a waiting goroutine became runnable
)

// mark is when a handoff happened.
type mark struct {
	at   trace.Time
	kind handoff
}

// Handoffs counts the scheduling events of a phase, summed over its requests.
type Handoffs struct {
	ProcsStarted, GoroutinesStarted, GoroutinesWoken int
}

// Phases are the durations of each phase, request by request, and the scheduling events
// that fell within them.
type Phases struct {
	Request, Upstream, Answer, After                                 []time.Duration
	RequestHandoffs, UpstreamHandoffs, AnswerHandoffs, AfterHandoffs Handoffs
}

// Requests is how many requests had all of their first three phases in the trace.
func (p *Phases) Requests() int { return len(p.Request) }

// Quantiles of one phase, and its scheduling events per request.
type Quantiles struct {
	Name          string
	P25, P50, P75 time.Duration
	PerRequest    struct{ ProcsStarted, GoroutinesStarted, GoroutinesWoken float64 }
}

// Summary gives each phase's quartiles, in the order a request goes through them.
func (p *Phases) Summary() []Quantiles {
	var out []Quantiles
	for _, ph := range []struct {
		name string
		d    []time.Duration
		h    Handoffs
	}{
		{"request", p.Request, p.RequestHandoffs},
		{"upstream", p.Upstream, p.UpstreamHandoffs},
		{"answer", p.Answer, p.AnswerHandoffs},
		{"after", p.After, p.AfterHandoffs},
	} {
		d := slices.Sorted(slices.Values(ph.d))
		q := Quantiles{Name: ph.name}
		if n := float64(len(d)); n > 0 {
			q.P25, q.P50, q.P75 = d[len(d)/4], d[len(d)/2], d[3*len(d)/4]
			q.PerRequest.ProcsStarted = float64(ph.h.ProcsStarted) / n
			q.PerRequest.GoroutinesStarted = float64(ph.h.GoroutinesStarted) / n
			q.PerRequest.GoroutinesWoken = float64(ph.h.GoroutinesWoken) / n
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
	var (
		calls []call
		marks []mark
	)
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
		if st.Resource.Kind == trace.ResourceProc {
			if from, to := st.Proc(); from == trace.ProcIdle && to == trace.ProcRunning {
				marks = append(marks, mark{ev.Time(), procStarted})
			}
			continue
		}
		if st.Resource.Kind != trace.ResourceGoroutine {
			continue
		}
		g := st.Resource.Goroutine()
		from, to := st.Goroutine()
		switch {
		case from == trace.GoNotExist && to == trace.GoRunnable:
			marks = append(marks, mark{ev.Time(), goStarted})
		case from == trace.GoWaiting && to == trace.GoRunnable:
			marks = append(marks, mark{ev.Time(), goWoken})
		}
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
	return cut(calls, marks), nil
}

// cut walks the system calls in time order. A request starts at the last client read that
// returns before the first upstream write; its answer is the first client write after an
// upstream read; "after" runs from that write's return to the next client read. Each
// phase's handoffs are the marks within it.
func cut(calls []call, marks []mark) *Phases {
	slices.SortStableFunc(marks, func(a, b mark) int { return int(a.at - b.at) })
	// in adds the marks in [from, to) to h.
	in := func(h *Handoffs, from, to trace.Time) {
		i, _ := slices.BinarySearchFunc(marks, from, func(m mark, t trace.Time) int { return int(m.at - t) })
		for ; i < len(marks) && marks[i].at < to; i++ {
			switch marks[i].kind {
			case procStarted:
				h.ProcsStarted++
			case goStarted:
				h.GoroutinesStarted++
			case goWoken:
				h.GoroutinesWoken++
			}
		}
	}
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
			in(&p.AfterHandoffs, answered, c.at)
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
				in(&p.RequestHandoffs, read, sent)
				in(&p.UpstreamHandoffs, sent, received)
				in(&p.AnswerHandoffs, received, c.at)
			}
			state, read, received = 0, 0, 0
		case c.side == clientWrite && c.exit && state == 0 && answered == 0:
			answered = c.at
		}
	}
	return &p
}
