package signal

import "testing"

// BenchmarkNewPIIDetector measures building a detector, which a config load does once: the
// shipped first-name and family-name sets are built then.
func BenchmarkNewPIIDetector(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewPIIDetector(PIIOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
