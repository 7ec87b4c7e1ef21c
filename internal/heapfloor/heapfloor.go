// Package heapfloor keeps the garbage collector's heap target from falling below a floor.
//
// Go starts a collection when the heap has grown by GOGC percent (100 by default) of what was
// live after the last one, and never below 4 MB. A router keeps little live memory (about 2
// MB without signals) and allocates about 11 KB per request, so under load it collected
// every 20 ms or so, and the collections' fixed costs took about 5% of its CPU. With a floor
// the heap may grow to that size between collections instead: a few megabytes more under
// load, and far fewer collections. Once what is live reaches half the floor, GOGC is left at
// its default and the floor no longer matters: a router holding thousands of streams
// collects as it would without it.
package heapfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Default is the floor the router uses.
const Default = 16 << 20

// Under is the floor for a process with the soft memory limit limit (0 or less: none):
// Default, or a quarter of the limit if that is less, so that the floor never brings the heap
// near the limit.
func Under(limit int64) uint64 {
	if limit <= 0 {
		return Default
	}
	return min(Default, uint64(limit)/4)
}

// runtimeMinimum is the Go runtime's smallest heap target at GOGC=100; it scales with GOGC.
const runtimeMinimum = 4 << 20

// maxPercent bounds the GOGC the floor sets (a floor of 400 MB).
const maxPercent = 10000

// Percent is the GOGC that puts the next collection at floor bytes of heap when live bytes
// are live (0: no collection yet), and never below the default of 100. The runtime's own
// minimum target grows with GOGC, so the percent is also bounded to keep that at the floor.
func Percent(live, floor uint64) int {
	if live*2 >= floor {
		return 100
	}
	p := min(floor/runtimeMinimum*100, maxPercent)
	if live > 0 {
		p = min(p, (floor-live)*100/live)
	}
	return max(100, int(p))

}

// Start keeps the heap target at least floor bytes until the returned function is called,
// unless GOGC is set (lookupEnv), which it leaves to the user. After each collection it reads
// what is live and sets GOGC to Percent of it. It reports whether it started.
func Start(floor uint64, lookupEnv func(string) (string, bool)) (stop func(), started bool) {
	if v, ok := lookupEnv("GOGC"); ok && v != "" {
		return func() {}, false
	}
	t := &tuner{floor: floor, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}, percent: 100}
	if !t.tune() {
		return func() {}, false
	}
	t.arm()
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.stopped = true
		debug.SetGCPercent(100)
	}, true
}

// tuner runs after every collection: a finalizer on an object nothing references runs once
// the collection that found it unreachable is done, and each run sets the next one.
type tuner struct {
	floor   uint64
	mu      sync.Mutex
	sample  []metrics.Sample
	percent int // the GOGC set last
	stopped bool
}

// sentinel is the object whose finalizer marks the end of a collection.
type sentinel struct{ t *tuner }

func (t *tuner) arm() {
	runtime.SetFinalizer(&sentinel{t: t}, func(s *sentinel) {
		if s.t.tune() {
			s.t.arm()
		}
	})
}

// tune sets GOGC for what the last collection left live, when it moved by more than a tenth,
// and reports whether the tuner still runs.
func (t *tuner) tune() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return false
	}
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() != metrics.KindUint64 {
		return false // a runtime without the metric: leave GOGC alone
	}
	p := Percent(t.sample[0].Value.Uint64(), t.floor)
	if d := p - t.percent; d*10 > t.percent || -d*10 > t.percent {
		t.percent = p
		debug.SetGCPercent(p)
	}
	return true
}
