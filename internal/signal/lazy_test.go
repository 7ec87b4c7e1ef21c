package signal

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// TestLazyRegexp: a lazy expression answers as the compiled one does, and compiles once.
func TestLazyRegexp(t *testing.T) {
	t.Parallel()
	const expr = `(\w+)@(\w+)\.com`
	l, rx := lazyRE(expr), regexp.MustCompile(expr)
	if l.rx.Load() != nil {
		t.Fatal("compiled before its first use")
	}
	const text = "mail ann@example.com or bob@test.com"
	if l.String() != rx.String() || l.MatchString(text) != rx.MatchString(text) ||
		l.ReplaceAllString(text, "$2") != rx.ReplaceAllString(text, "$2") ||
		len(l.FindAllStringSubmatchIndex(text, -1)) != 2 {
		t.Errorf("the lazy expression answers differently from %s", rx)
	}
	first := l.rx.Load()
	l.MatchString("x")
	if l.rx.Load() != first {
		t.Error("compiled twice")
	}
	if got := lazyFoldedRE(`règles`).FindString("les regles"); got != "regles" {
		t.Errorf("folded expression found %q, want %q", got, "regles")
	}
}

// TestTablesBuiltOnDemand: starting a program that imports the package compiles none of its
// shipped expressions; building a detector compiles them all. The check runs in a fresh
// process of this test binary, where no other test has used them yet.
func TestTablesBuiltOnDemand(t *testing.T) {
	t.Parallel()
	if os.Getenv("SIGNAL_TABLES_PROBE") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTablesBuiltOnDemand$", "-test.count=1")
		cmd.Env = append(os.Environ(), "SIGNAL_TABLES_PROBE=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("probe process: %v\n%s", err, out)
		}
		return
	}
	shipped := []*lazyRegexp{emailRE, phoneCueRE, usStreetRE, usStreetAt, bareReverseAt, framingRE, decodeCueRE, obeyQuoteRE, secretCueRE, bareAddressRE}
	for _, r := range jailbreakRules {
		shipped = append(shipped, r.RE)
	}
	for _, tok := range tokenREs {
		shipped = append(shipped, tok.re)
	}
	compiled := func() (n int) {
		for _, l := range shipped {
			if l.rx.Load() != nil {
				n++
			}
		}
		return n
	}
	for i, l := range shipped {
		if l.rx.Load() != nil {
			t.Logf("compiled at start: %d %.60s", i, l.rx.Load().String())
		}
	}
	if n := compiled(); n != 0 {
		t.Fatalf("%d of %d shipped expressions compiled at start, want none", n, len(shipped))
	}
	if _, err := NewLanguageDetector(LanguageOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := compiled(); n != len(shipped) {
		t.Errorf("%d of %d shipped expressions compiled after a detector was built, want all", n, len(shipped))
	}
}
