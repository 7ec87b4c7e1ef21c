package wordindex

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"testing"
)

func TestIndex(t *testing.T) {
	t.Parallel()
	x := New(2, 4) // made for two words, given five: it grows
	for _, w := range []string{"the", "", "cat", "ATP", "the"} {
		x.Add([]byte(w))
	}
	tests := []struct {
		word string
		want int32
		ok   bool
	}{
		{"the", 4, true}, // added twice: the later number, as a map keeps
		{"", 1, true},
		{"cat", 2, true},
		{"ATP", 3, true},
		{"atp", -1, false},
		{"ca", -1, false},
		{"cats", -1, false},
	}
	for _, tt := range tests {
		if n, ok := x.Lookup([]byte(tt.word)); n != tt.want || ok != tt.ok {
			t.Errorf("Lookup(%q) = %d, %v; want %d, %v", tt.word, n, ok, tt.want, tt.ok)
		}
		if n, ok := x.LookupString(tt.word); n != tt.want || ok != tt.ok {
			t.Errorf("LookupString(%q) = %d, %v; want %d, %v", tt.word, n, ok, tt.want, tt.ok)
		}
		if ok := x.Has(tt.word); ok != tt.ok {
			t.Errorf("Has(%q) = %v, want %v", tt.word, ok, tt.ok)
		}
	}
	if x.Len() != 5 {
		t.Errorf("Len = %d, want 5", x.Len())
	}
	if w := string(x.Word(3)); w != "ATP" {
		t.Errorf("Word(3) = %q, want ATP", w)
	}
}

// TestIndexAgreesWithAMap adds many words, some twice, to an index made for few, and reads
// every one back as a map holding the same words would.
func TestIndexAgreesWithAMap(t *testing.T) {
	t.Parallel()
	x := New(100, 8)
	m := map[string]int32{}
	for i := range 20000 {
		w := fmt.Sprintf("w%x", i*7919%15000) // a quarter of them repeat an earlier word
		m[w] = x.AddString(w)
	}
	if x.Len() != 20000 {
		t.Fatalf("Len = %d, want 20000", x.Len())
	}
	for w, want := range m {
		if n, ok := x.LookupString(w); !ok || n != want {
			t.Fatalf("LookupString(%q) = %d, %v; want %d, true", w, n, ok, want)
		}
		if n, ok := x.Lookup([]byte(w + "~")); ok {
			t.Fatalf("Lookup(%q~) = %d, true; want not found", w, n)
		}
	}
}

// TestIndexIsNotScanned holds an index of 100,000 words across a collection and checks that
// it adds next to nothing to the heap the collector scans; a map[string]int32 of the same
// words adds megabytes.
func TestIndexIsNotScanned(t *testing.T) {
	// Not parallel: the heap the collector scans is the process's.
	words := make([]string, 100000)
	for i := range words {
		words[i] = fmt.Sprintf("word%d", i)
	}
	scanned := func() uint64 {
		runtime.GC()
		s := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	before := scanned()
	x := Of(words)
	after := scanned()
	runtime.KeepAlive(x)
	runtime.KeepAlive(words)
	if after > before && after-before > 64<<10 {
		t.Errorf("the index added %d bytes to the scanned heap, want at most %d", after-before, 64<<10)
	}
}

func BenchmarkLookup(b *testing.B) {
	words := make([]string, 100000)
	for i := range words {
		words[i] = fmt.Sprintf("word%d", i)
	}
	x := Of(words)
	probe := [][]byte{[]byte("word17"), []byte("word99999"), []byte("word5000"), []byte("nothing")}
	for b.Loop() {
		for _, w := range probe {
			x.Lookup(w)
		}
	}
}
