package stackgrow

import (
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
)

// stackPerGoroutine is the stack, in bytes, each of n new goroutines holds once it has run
// grow, from the runtime's count of stack memory in use. The collector is off meanwhile: it
// would shrink the stacks of goroutines that wait with little of their stack in use.
func stackPerGoroutine(t *testing.T, grow func()) uint64 {
	t.Helper()
	// Two collections give the stacks of goroutines that have ended back to the heap: a
	// stack they left in the runtime's pools would be reused here without being counted.
	runtime.GC()
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	const n = 512
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var ready, done sync.WaitGroup
	release := make(chan struct{})
	ready.Add(n)
	for range n {
		done.Go(func() {
			grow()
			ready.Done()
			<-release
		})
	}
	ready.Wait()
	runtime.ReadMemStats(&after)
	close(release)
	done.Wait()
	return (after.StackInuse - before.StackInuse) / n
}

func TestGrowsTheStackToItsSize(t *testing.T) {
	tests := []struct {
		name string
		grow func()
		want uint64
	}{
		{"To8KiB", To8KiB, 8 << 10},
		{"To16KiB", To16KiB, 16 << 10},
		{"To8KiB twice", func() { To8KiB(); To8KiB() }, 8 << 10},
		{"To16KiB after To8KiB", func() { To8KiB(); To16KiB() }, 16 << 10},
		{"To8KiB after To16KiB", func() { To16KiB(); To8KiB() }, 16 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Grown to the size and no further: half or twice as much is another size. The
			// count is of whole spans of stack memory, some of which hold stacks counted
			// before, so it comes out up to a sixth short: it is read to the nearest size.
			if got := stackPerGoroutine(t, tt.grow); got < tt.want*3/4 || got >= tt.want*3/2 {
				t.Errorf("each goroutine holds %d bytes of stack, want about %d", got, tt.want)
			}
		})
	}
}

// A goroutine that does not call them starts below 8 KiB: what the test above measures is
// their growth.
func TestNewGoroutinesStartSmaller(t *testing.T) {
	if got := stackPerGoroutine(t, func() {}); got >= 8<<10 {
		t.Errorf("a new goroutine holds %d bytes of stack, want less than 8192", got)
	}
}

// BenchmarkTo8KiBGrown is the cost of a call on a stack that is large enough already: a
// connection's goroutine after its first request.
func BenchmarkTo8KiBGrown(b *testing.B) {
	To16KiB()
	for b.Loop() {
		To8KiB()
	}
}
