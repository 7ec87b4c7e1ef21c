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

// gogc is the runtime's GOGC now.
func gogc(t *testing.T) uint64 {
	t.Helper()
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestStart: with a floor far above what a test binary keeps live, the tuner raises GOGC at
// once and keeps it raised after collections; stopping it gives the default back. A GOGC in
// the environment is the user's, and the tuner does not start. The tests change the
// process's collector, so they do not run in parallel.
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

	stop, started := Start(256<<20, env("", false))
	if !started {
		t.Fatal("not started without GOGC")
	}
	if got := gogc(t); got <= 100 {
		t.Fatalf("GOGC %d after the start, want more than 100", got)
	}
	// The finalizer re-arms itself: after collections the floor still holds.
	for range 3 {
		runtime.GC()
	}
	deadline := time.Now().Add(10 * time.Second)
	for gogc(t) <= 100 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := gogc(t); got <= 100 {
		t.Fatalf("GOGC %d after three collections, want more than 100", got)
	}
	stop()
	runtime.GC()
	if got := gogc(t); got != 100 {
		t.Fatalf("GOGC %d after stop, want 100", got)
	}
}
