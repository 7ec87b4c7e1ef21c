package logtest

import (
	"strings"
	"sync"
	"testing"
)

func TestBufferKeepsConcurrentWritesWhole(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				_, _ = b.Write([]byte("a line\n"))
			}
		})
	}
	wg.Wait()
	if got := strings.Count(b.String(), "a line\n"); got != 800 {
		t.Errorf("String holds %d whole lines, want 800", got)
	}
	c := b.Bytes()
	c[0] = 'X'
	if b.String()[0] != 'a' {
		t.Error("Bytes returned the buffer's own memory, not a copy")
	}
}
