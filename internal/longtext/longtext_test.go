package longtext

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// lines is at least n bytes of numbered lines of words.
func lines(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%d. the loop adds each value to the total\n", i)
	}
	return b.String()
}

func TestCutsStayWhenTextIsAdded(t *testing.T) {
	t.Parallel()
	const every, reach = 4096, 1024
	text := lines(10 * every)
	cuts := Cuts(text, every, reach)
	if len(cuts) != (len(text)-1)/every {
		t.Fatalf("%d bytes cut at %v", len(text), cuts)
	}
	for i, c := range cuts {
		if c < (i+1)*every || c >= (i+1)*every+reach || !IsSpace(text[c-1]) {
			t.Errorf("cut %d at %d, after %q", i, c, text[c-1])
		}
	}
	if longer := Cuts(text+"\nAnd what does the loop return?", every, reach); !slices.Equal(longer[:len(cuts)], cuts) {
		t.Errorf("cuts moved when text was added: %v, then %v", cuts, longer)
	}
}

func TestCutsNone(t *testing.T) {
	t.Parallel()
	const every, reach = 4096, 1024
	for _, text := range []string{
		"",
		lines(2 * every)[:2*every], // read whole
		strings.Repeat("x", 3*every+reach+1) + " word", // no space near a multiple of every
	} {
		if cuts := Cuts(text, every, reach); cuts != nil {
			t.Errorf("a text of %d bytes is cut at %v", len(text), cuts)
		}
	}
}

// TestMemoKeepsItsLimit: a memo keeps at most its limit of values, the last one put among them.
func TestMemoKeepsItsLimit(t *testing.T) {
	t.Parallel()
	m := Memo[int]{Limit: 3}
	for i := range 10 {
		m.Put(KeyOf(strconv.Itoa(i), 0), i)
	}
	if n := m.Len(); n != 3 {
		t.Errorf("%d values kept, want 3", n)
	}
	if v, ok := m.Get(KeyOf("9", 0)); !ok || v != 9 {
		t.Errorf("the last value put = %d, %v; want 9, true", v, ok)
	}
	var d Memo[int]
	for i := range DefaultLimit + 10 {
		d.Put(KeyOf(strconv.Itoa(i), 0), i)
	}
	if n := d.Len(); n != DefaultLimit {
		t.Errorf("the zero Memo kept %d values, want %d", n, DefaultLimit)
	}
}

func TestKeysTellReadingsApart(t *testing.T) {
	t.Parallel()
	var m Memo[string]
	m.Put(KeyOf("text", 0), "whole")
	m.Put(KeyOf("text", 1), "as one")
	at := KeyOf("text", 1)
	at.At = 2
	m.Put(at, "at 2")
	for _, c := range []struct {
		k    Key
		want string
	}{{KeyOf("text", 0), "whole"}, {KeyOf("text", 1), "as one"}, {at, "at 2"}} {
		if got, _ := m.Get(c.k); got != c.want {
			t.Errorf("Get = %q, want %q", got, c.want)
		}
	}
	if _, ok := m.Get(KeyOf("text ", 0)); ok {
		t.Error("another text found a value")
	}
}
