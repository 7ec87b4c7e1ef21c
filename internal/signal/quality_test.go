package signal

import "testing"

// qualityCheck marks a single-threaded check of the shipped data or of an exact shortcut
// (cross-validation, model training, a shortcut against its regexp on every position). The
// race detector finds nothing in such a test and makes it take minutes, so under -race it is
// skipped and `make test` runs it in a step of its own without -race (make test-quality).
func qualityCheck(t *testing.T) {
	t.Helper()
	if raceDetector {
		t.Skip("a single-threaded quality check: make test-quality runs it without -race")
	}
}
