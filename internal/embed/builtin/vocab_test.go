package builtin

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

func TestVocab(t *testing.T) {
	t.Parallel()
	v := newVocab(4, 4)
	for _, w := range []string{"the", "", "cat", "ATP", "the"} {
		v.add([]byte(w))
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
		if n, ok := v.lookup([]byte(tt.word)); n != tt.want || ok != tt.ok {
			t.Errorf("lookup(%q) = %d, %v; want %d, %v", tt.word, n, ok, tt.want, tt.ok)
		}
		if n, ok := v.lookupString(tt.word); n != tt.want || ok != tt.ok {
			t.Errorf("lookupString(%q) = %d, %v; want %d, %v", tt.word, n, ok, tt.want, tt.ok)
		}
	}
	if v.len() != 5 {
		t.Errorf("len = %d, want 5", v.len())
	}
}

// TestVocabNumbersTheShippedWords reads every word of the shipped table back to its rank, and
// checks that words one letter away from a shipped word are not found under its number.
func TestVocabNumbersTheShippedWords(t *testing.T) {
	t.Parallel()
	tab, err := sharedTable()
	if err != nil {
		t.Fatal(err)
	}
	if tab.words.len() != 100000 {
		t.Fatalf("words = %d, want 100000", tab.words.len())
	}
	for i := range tab.words.len() {
		w := tab.words.word(i)
		if n, ok := tab.words.lookup(w); !ok || int(n) != i {
			t.Fatalf("lookup(%q) = %d, %v; want %d, true", w, n, ok, i)
		}
		if n, ok := tab.words.lookupString(string(w)); !ok || int(n) != i {
			t.Fatalf("lookupString(%q) = %d, %v; want %d, true", w, n, ok, i)
		}
		if n, ok := tab.words.lookup(append(w[:len(w):len(w)], '~')); ok {
			t.Fatalf("lookup(%q~) = %d, true; want not found", w, n)
		}
	}
}

// TestTableIsNotScanned holds a freshly decoded table across a collection and checks that it
// adds next to nothing to the heap the collector scans: a map of its 100,000 words added
// 3.5 MB, read on every cycle of a router that uses the builtin embedder.
func TestTableIsNotScanned(t *testing.T) {
	// Not parallel: the heap the collector scans is the process's.
	scanned := func() uint64 {
		runtime.GC()
		s := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	before := scanned()
	tab, err := loadTable(vectorsGz)
	if err != nil {
		t.Fatal(err)
	}
	after := scanned()
	runtime.KeepAlive(tab)
	if after > before && after-before > 64<<10 {
		t.Errorf("the table added %d bytes to the scanned heap, want at most %d", after-before, 64<<10)
	}
}

func BenchmarkVocabLookup(b *testing.B) {
	tab, err := sharedTable()
	if err != nil {
		b.Fatal(err)
	}
	words := [][]byte{[]byte("mitochondria"), []byte("the"), []byte("electron"), []byte("zzqx")}
	for b.Loop() {
		for _, w := range words {
			tab.words.lookup(w)
		}
	}
}
