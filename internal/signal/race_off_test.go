//go:build !race

package signal

const raceDetector = false
