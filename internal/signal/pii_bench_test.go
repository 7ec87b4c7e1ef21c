package signal

import "testing"

// BenchmarkNewPIIDetector measures building a detector once the shipped name sets exist, as
// every config load after the first does.
func BenchmarkNewPIIDetector(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewPIIDetector(PIIOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkShippedNameSets measures building the shipped first-name and family-name sets,
// which the first detector of a process does.
func BenchmarkShippedNameSets(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if len(givenNameSet()) == 0 || len(surnameSet()) == 0 {
			b.Fatal("empty name set")
		}
	}
}
