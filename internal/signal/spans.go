package signal

import "slices"

// spanOf is what the helpers below read of a span or a finding: its start and end offsets.
type spanOf[T any] func(T) (start, end int)

func pairSpan(s [2]int) (int, int)        { return s[0], s[1] }
func findingSpan(f PIIFinding) (int, int) { return f.Start, f.End }

// overlapsSorted reports whether [s, e) overlaps one of xs, which are sorted by start and
// overlap each other at most where they share a span (the types of one encoded run): a
// binary search for the first that ends after s.
func overlapsSorted[T any](xs []T, span spanOf[T], s, e int) bool {
	i, _ := slices.BinarySearchFunc(xs, s, func(x T, at int) int {
		if _, end := span(x); end > at {
			return 1
		}
		return -1
	})
	if i == len(xs) {
		return false
	}
	start, _ := span(xs[i])
	return start < e
}

// overlapsLastSpan reports whether a span that starts at s overlaps the last of xs, which are
// sorted by start: for a span that comes after all of them in that order, the only one it
// can overlap.
func overlapsLastSpan[T any](xs []T, span spanOf[T], s int) bool {
	if len(xs) == 0 {
		return false
	}
	_, end := span(xs[len(xs)-1])
	return end > s
}

// mergeSorted merges two lists sorted by start into one, a's first where starts are equal.
func mergeSorted[T any](a, b []T, span spanOf[T]) []T {
	if len(b) == 0 {
		return a
	}
	out := make([]T, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		as, _ := span(a[i])
		if bs, _ := span(b[j]); bs < as {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}
