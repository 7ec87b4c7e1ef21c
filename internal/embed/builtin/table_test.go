package builtin

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

// TestTableNumbersEveryWord reads every word of the shipped table back to its rank.
func TestTableNumbersEveryWord(t *testing.T) {
	t.Parallel()
	tab, err := sharedTable()
	if err != nil {
		t.Fatal(err)
	}
	if tab.words.Len() != 100000 {
		t.Fatalf("words = %d, want 100000", tab.words.Len())
	}
	for i := range tab.words.Len() {
		w := string(tab.words.Word(i))
		if r, ok := WordRank(w); !ok || r != i {
			t.Fatalf("WordRank(%q) = %d, %v; want %d, true", w, r, ok, i)
		}
	}
}

// TestTableIsNotScanned holds a freshly decoded table across a collection and checks that it
// adds next to nothing to the heap the collector scans: with its words in a map it added
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
