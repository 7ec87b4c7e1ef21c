// Package oop is the out-of-process benchmark behind `make bench`: it builds the router, a
// bare reverse proxy, a mock OpenAI backend and the load generators as binaries, starts each
// server as its own process on loopback, drives them from separate load-generator processes in
// interleaved rounds, samples the servers' memory, goroutines and sockets, and reports medians
// and ratios against the bare proxy as Markdown.
package oop

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process is one server started by the benchmark. Its stderr is read for the JSON log lines
// {"msg":"listening","server":NAME,"address":HOST:PORT} and {"msg":"ready"}, which the
// router, the bare proxy and the mock backend all print.
type Process struct {
	Name  string
	cmd   *exec.Cmd
	logs  *tail
	ready chan struct{}
	done  chan struct{}
	err   error // the exit status, set before done is closed

	mu    sync.Mutex
	addrs map[string]string
}

// Addr returns the address the process listens on for server name ("inference", "metrics",
// "extproc", "backend"), or "" if it announced none.
func (p *Process) Addr(server string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.addrs[server]
}

// Pid is the process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Logs returns the last lines the process wrote to stderr.
func (p *Process) Logs() string { return p.logs.String() }

// procs is every process started and not yet stopped, so that they can all be ended on the
// way out, also after an interrupt.
type procs struct {
	mu   sync.Mutex
	list []*Process
}

// start runs bin with args and waits, up to wait, until it logs that it is ready. The process
// gets its own process group and is killed if the benchmark dies.
func (ps *procs) start(ctx context.Context, name string, wait time.Duration, bin string, args ...string) (*Process, error) {
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	p := &Process{Name: name, cmd: cmd, logs: newTail(200), ready: make(chan struct{}), done: make(chan struct{}), addrs: map[string]string{}}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	ps.mu.Lock()
	ps.list = append(ps.list, p)
	ps.mu.Unlock()
	go func() {
		p.readLogs(stderr)
		p.err = cmd.Wait()
		close(p.done)
	}()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-p.ready:
		return p, nil
	case <-p.done:
		return nil, fmt.Errorf("%s exited before it was ready (%w):\n%s", name, p.err, p.Logs())
	case <-t.C:
		return nil, fmt.Errorf("%s not ready after %s:\n%s", name, wait, p.Logs())
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *Process) readLogs(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	readyOnce := sync.Once{}
	for sc.Scan() {
		line := sc.Text()
		p.logs.add(line)
		var l struct {
			Msg     string `json:"msg"`
			Server  string `json:"server"`
			Address string `json:"address"`
		}
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &l) != nil {
			continue
		}
		switch l.Msg {
		case "listening":
			p.mu.Lock()
			p.addrs[l.Server] = l.Address
			p.mu.Unlock()
		case "ready":
			readyOnce.Do(func() { close(p.ready) })
		}
	}
	_, _ = io.Copy(io.Discard, r)
}

// stop ends p: SIGTERM, then SIGKILL after grace.
func (ps *procs) stop(p *Process, grace time.Duration) {
	ps.mu.Lock()
	for i, q := range ps.list {
		if q == p {
			ps.list = append(ps.list[:i], ps.list[i+1:]...)
			break
		}
	}
	ps.mu.Unlock()
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// stopAll ends every process still running, concurrently.
func (ps *procs) stopAll() {
	ps.mu.Lock()
	list := append([]*Process(nil), ps.list...)
	ps.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range list {
		wg.Go(func() { ps.stop(p, 5*time.Second) })
	}
	wg.Wait()
}

// runTool runs a short-lived program (a load generator) to its end and returns its stdout.
// It is killed when ctx ends.
func runTool(ctx context.Context, bin string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("%s %s: %w: %s", bin, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return nil, err
	}
	return out, nil
}

// tail keeps the last n lines written to it.
type tail struct {
	mu    sync.Mutex
	lines []string
	n     int
}

func newTail(n int) *tail { return &tail{n: n} }

func (t *tail) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lines) == t.n {
		t.lines = t.lines[1:]
	}
	t.lines = append(t.lines, line)
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(t.lines, "\n")
}

// ModuleRoot walks up from the working directory to the directory holding go.mod.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
