// Package redistest runs a real redis-server for tests of the cache and of what uses it.
package redistest

import (
	"bufio"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/testtool"
)

// waitLimit bounds every wait of a test on a condition.
const waitLimit = 10 * time.Second

// Server is a redis-server process listening on 127.0.0.1 without persistence.
type Server struct {
	t    testing.TB
	bin  string
	dir  string
	port int
	cmd  *exec.Cmd
}

// Start starts a redis-server on a free port in a temporary directory and stops it when the
// test ends. Without redis-server on PATH the test is skipped, except under CI=true, where it
// fails: CI must install it.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := testtool.Path(t, "redis-server", "apt-get install -y redis-server")
	s := &Server{t: t, bin: bin, dir: t.TempDir(), port: freePort(t)}
	s.Restart()
	t.Cleanup(s.Kill)
	return s
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// Kill stops the server at once (SIGKILL) and waits for the process to end. A stopped server
// is left alone.
func (s *Server) Kill() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill() // the process may have ended; Wait tells
	_ = s.cmd.Wait()         // a killed process exits with an error by design
	s.cmd = nil
}

// Restart starts the server (again) on the same port, empty, and waits until it answers PING.
func (s *Server) Restart() {
	s.t.Helper()
	s.Kill()
	//nolint:gosec // G204: the binary is redis-server from PATH and the arguments are ours
	cmd := exec.Command(s.bin, "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir)
	cmd.Dir = s.dir
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("starting redis-server: %v", err)
	}
	s.cmd = cmd
	WaitFor(s.t, "redis-server to answer PING on "+s.Addr(), s.ping)
}

func (s *Server) ping() bool {
	conn, err := net.DialTimeout("tcp", s.Addr(), time.Second)
	if err != nil {
		return false
	}
	defer func() { _ = conn.Close() }() // the answer is already read
	if err := conn.SetDeadline(time.Now().Add(time.Second)); err != nil {
		return false
	}
	if _, err := conn.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	return err == nil && strings.TrimSpace(line) == "+PONG"
}

// WaitFor polls cond until it holds, failing the test after ten seconds.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, waitLimit)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("finding a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
