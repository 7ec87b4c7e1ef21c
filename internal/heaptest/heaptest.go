// Package heaptest measures what a test's process keeps live while it holds something: a
// stream open, a connection, a request waiting.
package heaptest

import "runtime"

// Each returns the live heap that each of n things costs: the heap in use after hold has
// run, less the heap in use before, divided by n. hold must leave the n things held.
func Each(n int, hold func()) int64 {
	before := live()
	hold()
	return (live() - before) / int64(n)
}

// live is the heap in use after full collections: two, since what a sync.Pool holds
// outlives the first.
func live() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc) //nolint:gosec // a heap is far below 2^63 bytes
}
