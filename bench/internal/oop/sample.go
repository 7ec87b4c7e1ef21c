package oop

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Sample is the state of a server process at one moment.
type Sample struct {
	RSSKB      int64 // VmRSS
	PeakRSSKB  int64 // VmHWM: the highest RSS since the process started
	Sockets    int   // open file descriptors that are sockets (listeners and connections)
	Goroutines int   // go_goroutines from its Prometheus endpoint
}

// sample reads /proc/<pid>/status and /proc/<pid>/fd, and go_goroutines from metricsURL.
func sample(ctx context.Context, pid int, metricsURL string) (Sample, error) {
	var s Sample
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, err
	}
	for line := range strings.Lines(string(status)) {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		kb := func() int64 {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
		switch k {
		case "VmRSS":
			s.RSSKB = kb()
		case "VmHWM":
			s.PeakRSSKB = kb()
		}
	}
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	fds, err := os.ReadDir(dir)
	if err != nil {
		return s, err
	}
	for _, fd := range fds {
		if target, err := os.Readlink(dir + "/" + fd.Name()); err == nil && strings.HasPrefix(target, "socket:") {
			s.Sockets++
		}
	}
	if s.Goroutines, err = goroutines(ctx, metricsURL); err != nil {
		return s, err
	}
	return s, nil
}

var metricsClient = &http.Client{Timeout: 10 * time.Second}

// goroutines scrapes go_goroutines from a Prometheus text endpoint.
func goroutines(ctx context.Context, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := metricsClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("metrics: %w", err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_goroutines "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			_, _ = io.Copy(io.Discard, resp.Body)
			return int(f), err
		}
	}
	return 0, fmt.Errorf("metrics: no go_goroutines at %s", url)
}

// settled samples until two samples a second apart agree on sockets and goroutines (the
// process has finished closing what it closes by itself), or until wait has passed, and
// returns the last sample.
func settled(ctx context.Context, pid int, metricsURL string, wait time.Duration) (Sample, error) {
	deadline := time.Now().Add(wait)
	prev, err := sample(ctx, pid, metricsURL)
	if err != nil {
		return prev, err
	}
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return prev, ctx.Err()
		case <-time.After(time.Second):
		}
		s, err := sample(ctx, pid, metricsURL)
		if err != nil {
			return s, err
		}
		if s.Sockets == prev.Sockets && s.Goroutines == prev.Goroutines {
			return s, nil
		}
		prev = s
	}
	return prev, nil
}

// userHZ is the unit of the times in /proc/<pid>/stat: USER_HZ, 100 on every Linux
// architecture's user-space ABI.
const userHZ = 100

// cpuTime returns the user and system CPU time pid has used, from /proc/<pid>/stat.
func cpuTime(pid int) (time.Duration, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseCPUTime(string(stat))
}

// parseCPUTime reads utime and stime (fields 14 and 15) of a /proc/<pid>/stat line. The
// command name, field 2, is in parentheses and may hold spaces and parentheses itself, so
// fields are counted from its last ")".
func parseCPUTime(stat string) (time.Duration, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("stat %q: no command name", stat)
	}
	f := strings.Fields(stat[i+1:]) // f[0] is field 3, the state
	if len(f) < 13 {
		return 0, fmt.Errorf("stat %q: %d fields after the command name, want at least 13", stat, len(f))
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("stat: utime or stime %q: %w", s, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}

// syscalls returns how many system calls that read and that wrote pid has made, from
// /proc/<pid>/io.
func syscalls(pid int) (reads, writes int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return 0, 0, err
	}
	return parseIO(string(b))
}

// parseIO reads the syscr and syscw lines of a /proc/<pid>/io file.
func parseIO(s string) (reads, writes int64, err error) {
	found := 0
	for line := range strings.Lines(s) {
		name, value, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if !ok || name != "syscr" && name != "syscw" {
			continue
		}
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("io: %s %q: %w", name, value, err)
		}
		if name == "syscr" {
			reads = n
		} else {
			writes = n
		}
		found++
	}
	if found != 2 {
		return 0, 0, fmt.Errorf("io %q: no syscr and syscw lines", s)
	}
	return reads, writes, nil
}
