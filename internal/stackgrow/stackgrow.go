// Package stackgrow grows the calling goroutine's stack while few frames are on it.
//
// A goroutine's stack starts small (2 KiB, or the average size the runtime has seen) and
// doubles when a call needs more room than is left: the runtime copies the stack and adjusts
// every frame on it, so the copy costs in proportion to the frames above it. A goroutine
// started for one request (an HTTP/2 stream's, an external processor's exchange) whose path
// needs more than it starts with pays that copy deep in the path, about forty frames into
// decoding the request, once per request. Growing the stack at the top of the request, where
// a dozen frames are on it, makes the same growth cheap; the goroutine would have grown to the
// size anyway.
//
// Each function grows the stack to its size, and no further, when it is called with at most
// 3 KiB of the stack in use; it does nothing but clear its frame (under 0.1 µs) when the
// stack is that large already.
package stackgrow

import "runtime"

// A function whose frame is F bytes, called with U bytes of a stack of S bytes in use, grows
// the stack when U + F + guard > S (guard: the room the runtime keeps below every frame, 928
// bytes on linux/amd64), to the first doubling of S that holds U + F + guard. A frame of
// S - 4 KiB grows a stack smaller than S to S, and leaves a stack of S as it is, whenever
// U + guard stays under 4 KiB.
const room = 4 << 10

// To8KiB grows the calling goroutine's stack to 8 KiB.
//
//go:noinline
func To8KiB() {
	var frame [8<<10 - room]byte
	runtime.KeepAlive(&frame)
}

// To16KiB grows the calling goroutine's stack to 16 KiB.
//
//go:noinline
func To16KiB() {
	var frame [16<<10 - room]byte
	runtime.KeepAlive(&frame)
}
