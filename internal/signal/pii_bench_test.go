package signal

import (
	"fmt"
	"strings"
	"testing"
)

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
		if givenNameSet().shipped.Len() == 0 || surnameSet().shipped.Len() == 0 {
			b.Fatal("empty name set")
		}
	}
}

// BenchmarkPIIDetectAdversarial reads 256 KiB texts built to make a scanner retry at every
// position or compare every finding with every other: a run of capitals, capitals and
// hyphens, thousands of titles, of addresses and of house numbers after an address cue
// (each asking the street patterns and the cue's pattern). Each costs about what as much prose does;
// a quadratic step would show as a jump of two orders of magnitude.
func BenchmarkPIIDetectAdversarial(b *testing.B) {
	d, _ := NewPIIDetector(PIIOptions{})
	for _, unit := range []string{"A", "A-", "Mr. ", "a@b.io ", "am9AZXguY29t ", "%41", "the quick brown fox ", "lives at 1 Elm "} {
		text := strings.Repeat(unit, (256<<10)/len(unit))
		b.Run(strings.TrimSpace(unit), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				d.Detect(text)
			}
		})
	}
}

// BenchmarkPIIDetectConversation reads an agent's conversation about code, about 83 KB
// joined as the PII signal reads it: a system prompt and twenty turns, whose numbers sit in
// code ("def scale_3(x): return x * 3") and whose colons follow names. Each turn of such an
// agent sends it all again.
func BenchmarkPIIDetectConversation(b *testing.B) {
	d, _ := NewPIIDetector(PIIOptions{})
	parts := []string{strings.Repeat("You are a careful coding assistant. ", 180)}
	for i := range 20 {
		parts = append(parts,
			strings.Repeat(fmt.Sprintf("Explain what this function does, line by line: def scale_%d(x): return x * %d\n", i, i), 20),
			strings.Repeat("The function multiplies its argument by a constant and returns the product. ", 30))
	}
	text := Normalize(strings.Join(parts, "\n"))
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		d.Detect(text)
	}
}

// BenchmarkPIIDetectProse reads the domain corpus's prompts joined into one text (about 52
// KB): questions of every field, with numbers, dates, code and the odd "@" and "House", as a
// long document pasted into a prompt holds them.
func BenchmarkPIIDetectProse(b *testing.B) {
	d, _ := NewPIIDetector(PIIOptions{})
	text := documentText(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		d.Detect(text)
	}
}
