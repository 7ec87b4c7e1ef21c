package heaptest

import "testing"

var held [][]byte

func TestEach(t *testing.T) {
	const n, size = 64, 64 << 10
	got := Each(n, func() {
		for range n {
			held = append(held, make([]byte, size))
		}
	})
	if got < size || got > size+size/8 {
		t.Errorf("Each = %d bytes for %d slices of %d bytes", got, n, size)
	}
	held = nil
	if got := Each(n, func() {}); got > 1<<10 {
		t.Errorf("Each = %d bytes with nothing held", got)
	}
}
