package signal

import (
	"fmt"
	"testing"
)

func TestOverlapsSorted(t *testing.T) {
	t.Parallel()
	spans := [][2]int{{2, 4}, {6, 9}, {9, 12}}
	tests := []struct {
		s, e int
		want bool
	}{
		{0, 2, false}, {0, 3, true}, {3, 3, true}, {4, 6, false}, {5, 7, true},
		{8, 10, true}, {12, 20, false}, {11, 12, true}, {0, 100, true},
	}
	for _, tt := range tests {
		if got := overlapsSorted(spans, pairSpan, tt.s, tt.e); got != tt.want {
			t.Errorf("overlapsSorted(%v, [%d, %d)) = %v, want %v", spans, tt.s, tt.e, got, tt.want)
		}
	}
	if overlapsSorted(nil, pairSpan, 0, 1) {
		t.Error("an empty list overlaps")
	}
}

func TestMergeSorted(t *testing.T) {
	t.Parallel()
	got := mergeSorted([][2]int{{0, 1}, {5, 6}, {9, 9}}, [][2]int{{3, 4}, {5, 5}, {10, 11}}, pairSpan)
	if want := "[[0 1] [3 4] [5 6] [5 5] [9 9] [10 11]]"; fmt.Sprint(got) != want {
		t.Errorf("mergeSorted = %v, want %s", got, want)
	}
}

func TestOverlapsLastSpan(t *testing.T) {
	t.Parallel()
	spans := [][2]int{{0, 3}, {5, 8}}
	for _, tt := range []struct {
		s    int
		want bool
	}{{7, true}, {8, false}, {9, false}} {
		if got := overlapsLastSpan(spans, pairSpan, tt.s); got != tt.want {
			t.Errorf("overlapsLastSpan(%v, %d) = %v, want %v", spans, tt.s, got, tt.want)
		}
	}
	if overlapsLastSpan(nil, pairSpan, 0) {
		t.Error("an empty list overlaps")
	}
}
