//go:build !race

package main

// raceEnabled says this test binary is built with the race detector, whose instrumentation
// enlarges stack frames.
const raceEnabled = false
