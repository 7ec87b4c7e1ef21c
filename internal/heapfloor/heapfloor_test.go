package heapfloor

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	t.Parallel()
	const mb = 1 << 20
	for _, tt := range []struct {
		live, floor uint64
		want        int
	}{
		{0, 16 * mb, 400}, // no collection yet: the runtime's minimum target at the floor
		{1024, 16 * mb, 400},
		{2 * mb, 16 * mb, 400},
		{2 * mb, 64 * mb, 1600},
		{7 * mb, 16 * mb, 128},
		{8 * mb, 16 * mb, 100},
		{20 * mb, 16 * mb, 100},
		{1 * mb, 4 * mb, 100},
	} {
		if got := Percent(tt.live, tt.floor); got != tt.want {
			t.Errorf("Percent(%d, %d) = %d, want %d", tt.live, tt.floor, got, tt.want)
		}
	}
}

func TestUnder(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		limit int64
		want  uint64
	}{
		{0, Default},
		{-1, Default},
		{1 << 30, Default},
		{64 << 20, Default},
		{40 << 20, 10 << 20},
	} {
		if got := Under(tt.limit); got != tt.want {
			t.Errorf("Under(%d) = %d, want %d", tt.limit, got, tt.want)
		}
	}
}

// gogc is the runtime's GOGC now.
func gogc(t *testing.T) uint64 {
	t.Helper()
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// eventually waits until GOGC satisfies ok after a collection: the tuner runs on the
// finalizer goroutine once the collection is done.
func eventually(t *testing.T, what string, ok func(uint64) bool) {
	t.Helper()
	runtime.GC()
	for deadline := time.Now().Add(10 * time.Second); !ok(gogc(t)); {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC %d, want %s", gogc(t), what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestStart: with a floor far above what a test binary keeps live, the tuner raises GOGC at
// once; after each collection it follows what is live, leaving the default once half the
// floor is live and raising it again once that is freed; stopping it gives the default back.
// A GOGC in the environment is the user's, and the tuner does not start. The test changes
// the process's collector, so it does not run in parallel.
func TestStart(t *testing.T) {
	env := func(v string, set bool) func(string) (string, bool) {
		return func(k string) (string, bool) {
			if k == "GOGC" {
				return v, set
			}
			return "", false
		}
	}
	if _, started := Start(Default, env("200", true)); started {
		t.Fatal("started with GOGC set")
	}
	if got := gogc(t); got != 100 {
		t.Fatalf("GOGC %d after a refused start, want 100", got)
	}

	const floor = 64 << 20
	stop, started := Start(floor, env("", false))
	if !started {
		t.Fatal("not started without GOGC")
	}
	raised := func(p uint64) bool { return p > 100 }
	if got := gogc(t); !raised(got) {
		t.Fatalf("GOGC %d after the start, want more than 100", got)
	}
	func() {
		live := make([]byte, floor*5/8) // more than half the floor, kept live
		eventually(t, "100 with more than half the floor live", func(p uint64) bool { return p == 100 })
		runtime.KeepAlive(live)
	}()
	eventually(t, "more than 100 once that is freed", raised)

	stop()
	runtime.GC()
	if got := gogc(t); got != 100 {
		t.Fatalf("GOGC %d after stop, want 100", got)
	}
}
