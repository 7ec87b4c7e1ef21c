package logbuf

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// sink records each write it receives.
type sink struct {
	mu     sync.Mutex
	writes []string
	err    error
}

func (s *sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes = append(s.writes, string(p))
	return len(p), s.err
}

func (s *sink) text() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.writes, ""), len(s.writes)
}

// TestLinesAreBatchedWholeAndInOrder: lines written from many goroutines reach the
// destination whole, each goroutine's in order, in fewer writes than lines.
func TestLinesAreBatchedWholeAndInOrder(t *testing.T) {
	t.Parallel()
	var s sink
	w := New(&s, time.Hour)
	const writers, lines = 8, 500
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range lines {
				fmt.Fprintf(w, "g%d line %d %s\n", g, i, strings.Repeat("x", 1+i%97))
			}
		})
	}
	wg.Wait()
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	text, n := s.text()
	if n >= writers*lines/10 {
		t.Errorf("%d writes for %d lines", n, writers*lines)
	}
	next := make([]int, writers)
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		var g, i int
		var pad string
		if _, err := fmt.Sscanf(line, "g%d line %d %s", &g, &i, &pad); err != nil {
			t.Fatalf("torn line %q: %v", line, err)
		}
		if i != next[g] || len(pad) != 1+i%97 {
			t.Fatalf("writer %d: line %d (padding %d) where %d was next", g, i, len(pad), next[g])
		}
		next[g]++
	}
	for g, n := range next {
		if n != lines {
			t.Errorf("writer %d: %d lines arrived, want %d", g, n, lines)
		}
	}
}

// TestALineWaitsAtMostDelay: a single line is written without a Flush.
func TestALineWaitsAtMostDelay(t *testing.T) {
	t.Parallel()
	var s sink
	w := New(&s, 10*time.Millisecond)
	fmt.Fprintln(w, "alone")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if text, _ := s.text(); text == "alone\n" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the line was never written")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestWarningsAreWrittenAtOnce: after a warning is logged, it and every info line before it
// are at the destination; an info line alone waits.
func TestWarningsAreWrittenAtOnce(t *testing.T) {
	t.Parallel()
	var s sink
	w := New(&s, time.Hour)
	log := slog.New(Handler(slog.NewTextHandler(w, nil), w, slog.LevelWarn)).With("component", "test")
	log.Info("first")
	if text, _ := s.text(); text != "" {
		t.Fatalf("an info line was written at once: %q", text)
	}
	log.WithGroup("g").Warn("second", "k", "v")
	text, n := s.text()
	if n != 1 || !strings.Contains(text, "msg=first component=test") || !strings.Contains(text, "msg=second component=test g.k=v") {
		t.Errorf("after the warning: %d writes %q", n, text)
	}
}

// TestFlushReportsAFailedWrite: the destination's error comes back from Flush, and later
// lines are still attempted.
func TestFlushReportsAFailedWrite(t *testing.T) {
	t.Parallel()
	s := sink{err: errors.New("disk full")}
	w := New(&s, time.Hour)
	fmt.Fprintln(w, "a")
	if err := w.Flush(); err == nil || err.Error() != "disk full" {
		t.Fatalf("Flush = %v, want disk full", err)
	}
	fmt.Fprintln(w, "b")
	_ = w.Flush()
	if text, _ := s.text(); !bytes.Equal([]byte(text), []byte("a\nb\n")) {
		t.Errorf("destination got %q", text)
	}
}
