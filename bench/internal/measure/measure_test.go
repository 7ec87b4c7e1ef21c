package measure

import (
	"math"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	t.Parallel()
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Microsecond)
	}
	for _, tc := range []struct {
		name string
		p    float64
		want float64
	}{
		{"median of 1..100 by nearest rank", 0.5, 50},
		{"p99 of 1..100", 0.99, 99},
		{"maximum", 1, 100},
	} {
		if got := Percentile(ds, tc.p); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := Percentile(nil, 0.5); got != 0 {
		t.Errorf("no samples: got %v, want 0", got)
	}
}

func TestMedian(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		xs   []float64
		want float64
	}{
		{"none", nil, 0},
		{"odd count takes the middle", []float64{5, 1, 3}, 3},
		{"even count averages the middle two", []float64{4, 1, 3, 2}, 2.5},
	} {
		if got := Median(tc.xs); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
