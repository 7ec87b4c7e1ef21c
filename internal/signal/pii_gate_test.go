package signal

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// gateTexts are the prompts of every labelled set in testdata, plus texts that hold each
// kind of PII the gates guard, in usual and unusual spellings.
func gateTexts(t *testing.T) []string {
	t.Helper()
	texts := []string{
		"Call me at +44 20 7946 0958 or (503) 555-0166, or 1-800-555-0199; my UK line is 0161 496 0733.",
		"Ring +33 (0)1 23 45 67 89 after 6pm; tel. 030 1234567.",
		"SSN 702-58-1146, ss# 123456789, social security no. 219 09 9999, part 123-45-6789-01.",
		"Card 4111 1111 1111 1111, amex 3782-822463-10005, and 5500000000000004.",
		"IBAN DE89 3704 0044 0532 0130 00 and GB82WEST12345698765432 then NL91ABNA0417164300.",
		"Servers 192.168.1.20, 10.0.0.1, v1.2.3.4, version 2.14.1.0, and 2001:db8::8a2e:370:7334 or fe80::1 at 12:30:45.",
		"Send it to Hauptstraße 12, 10115 Berlin or Lindenweg  7a; Calle Mayor 5, Madrid; Via Roma, 12.",
		"Mail P.O. Box 4411, postfach 12 34, Apartado postal 77, boîte postale 12, POſTFACH 9 and PO BOX 17.",
		"The office is at 221B Baker Street, London NW1 6XE; deliver to 12 rue de la Paix, 75002 Paris.",
		"My api_key=sk-proj-abcdefghijklmnopqrstuvwx12345 and token: ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789, password is Zk9qLm2Xp8Rt5Wv7Yb3N.",
		"The key ſſſſſſſſſſſſſſſſſſſſKKKKK and secret KKKKKKKKKKKKKKKKKKKKKKK1.",
		"Hi Jane, my name is john smith. Dear Mr. O'Brien, sincerely, Mei-Lin Chow. I'm Ahmed; this is Priya.",
		"Ask Capt. Morales and Señor Ruiz; thiſ iſ Ana, SOY Lucía, it's Ola. Full Name : Hiroshi Tanaka, name:Sven Berg.",
		"Je m'appelle Élodie Martin, ich heiße Jürgen, meu nome é João, attn: Ingrid Halvorsen, c/o Marta Díaz.",
		"x@y, a:b, 1:2, 12.34.56, 1.2.3, 555-0166 555-0167, (12)-(34)-(56)-(78)-(90)-(12)-(34).",
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	more, _ := filepath.Glob(filepath.Join("testdata", "*", "*.jsonl"))
	for _, name := range append(files, more...) {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var row struct{ Prompt, Text string }
			if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			texts = append(texts, row.Prompt+row.Text)
		}
		_ = f.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if len(texts) < 3000 {
		t.Fatalf("read %d texts from testdata, want more than 3000", len(texts))
	}
	return texts
}

// TestPIIGatesChangeNothing checks that the gated scan finds exactly what the scan with
// every pattern finds.
func TestPIIGatesChangeNothing(t *testing.T) {
	t.Parallel()
	d, err := NewPIIDetector(PIIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	found := map[PIIType]int{}
	for _, text := range gateTexts(t) {
		for _, s := range []string{text, Normalize(text)} {
			want := d.detect(s, false, maxEscapeLevels)
			if got := d.detect(s, true, maxEscapeLevels); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q:\ngated   %v\nungated %v", s, got, want)
			}
			for _, f := range want.Findings {
				found[f.Type]++
			}
		}
	}
	for _, typ := range allPIITypes {
		if found[typ] < 4 {
			t.Errorf("the texts hold %d findings of %s, want at least 4", found[typ], typ)
		}
	}
}

// The end-anchored regexps the name cues replaced, kept to check the hand-written cues.
var (
	strongCueRE = regexp.MustCompile(`(?i)(?:my name is|my name's|name\s*:|named|full name\s*:|me llamo|mi nombre es|je m'appelle|je suis|ich heiße|ich bin|mein name ist|mi chiamo|meu nome é|sincerely,|regards,|signed,|dear|hi|hello|attn:?|c/o)\s*$`)
	titleCueRE  = regexp.MustCompile(`(?:\bM\.|\b(?:Mr|Mrs|Ms|Mx|Dr|Dra|Prof|Sr|Sra|Srta|Mme|Mlle|Herr|Frau|Capt|Sgt|Lt|Rev|Fr)\.?|\b(?:` + titleWordList + `))\s+$`)
	iamCueRE    = regexp.MustCompile(`(?i)(?:\bi'm|\bi am|\bthis is|\bit's|\bsoy|\bsono)\s+$`)
)

// TestNameCuesMatchTheirRegexps compares the hand-written cues with the regexps on the
// text before positions of the test texts, cut to the 40 bytes isName reads.
func TestNameCuesMatchTheirRegexps(t *testing.T) {
	qualityCheck(t)
	t.Parallel()
	// Every position of the edge cases, and every seventh of the long texts: the regexps are
	// slow under the race detector, and the cues are tested on each ending either way.
	edges := []string{"hi", "x hi\n", "Delhi ", "dear", "Mr", "Mr. ", "XMr. ", "éMr ", "Doña  ", "ſoy ",
		"xſoy ", " ſoy ", "_i'm ", "I AM ", "this is\t", "Name:", "name :\n", "NAME", "full name : ", "attn:", "ATTN ",
		"meu nome É ", "ich heisse ", "ICH HEIẞE ", "Miss ", "Misses ", "c/o", "C/O ", "Prof.", "Prof.\n", "Prof.."}
	type sample struct {
		text   string
		stride int
	}
	var samples []sample
	for _, e := range edges {
		samples = append(samples, sample{e, 1})
	}
	for _, g := range gateTexts(t) {
		samples = append(samples, sample{g, 7})
	}
	checked := 0
	for _, sm := range samples {
		text := sm.text
		for i := 0; i <= len(text); i += sm.stride {
			tail := text[max(0, i-40):i]
			if want, got := strongCueRE.MatchString(tail), strongCue(tail); got != want {
				t.Fatalf("strongCue(%q) = %v, the regexp says %v", tail, got, want)
			}
			if want, got := titleCueRE.MatchString(tail), titleCue(tail); got != want {
				t.Fatalf("titleCue(%q) = %v, the regexp says %v", tail, got, want)
			}
			if want, got := iamCueRE.MatchString(tail), iamCue(tail); got != want {
				t.Fatalf("iamCue(%q) = %v, the regexp says %v", tail, got, want)
			}
			checked++
		}
	}
	if checked < 15000 {
		t.Fatalf("checked %d cues, want more than 15000", checked)
	}
}

var nameSeqRE = regexp.MustCompile(`\p{Lu}[\p{Ll}\p{Lu}'’\-]*\p{Ll}(?:\s+\p{Lu}[\p{Ll}\p{Lu}'’\-]*\p{Ll}){0,3}`)

// TestCapitalisedRunsMatchTheRegexp compares capitalisedRuns with the regexp it replaced.
func TestCapitalisedRunsMatchTheRegexp(t *testing.T) {
	t.Parallel()
	texts := append(gateTexts(t), "", "A", "Ab", "aBc", "JIRA-4521 Kubernetes", "O'Brien-Smith’s Ann", "Mei-Lin  Chow\n\nAnn",
		"Ann\vBob", "Ann\tBob\fCid\rDee Eve Fay", "ÉLODIE Élodie Ørsted ǅemal", "A- B' Cd-", "Ann Bo Cy Di Ed Fa",
		"Ab\xffCd Ef", "ЖЖж Иван Петров", "MacDONALD McDonald", "A’b A'B-c",
		// Runs of capitals without a lower-case letter, skipped whole.
		"AAAA bb Cc", "ABC-DEF Gh", "ÉÉÉ ÉÉé", "AAA'BBB Cc Dd", "XY\xffZz", "AB-Ab", strings.Repeat("A", 300)+"b Cc")
	for _, text := range texts {
		var want [][2]int
		for _, m := range nameSeqRE.FindAllStringIndex(text, -1) {
			want = append(want, [2]int{m[0], m[1]})
		}
		if got := capitalisedRuns(text); !reflect.DeepEqual(got, want) {
			t.Fatalf("capitalisedRuns(%q) = %v, the regexp finds %v", text, got, want)
		}
	}
}

// FuzzCapitalisedRuns checks capitalisedRuns against the regexp it replaced on any text.
func FuzzCapitalisedRuns(f *testing.F) {
	for _, s := range []string{"Ann Bo", "AAAA bb Cc", "ÉÉÉ ÉÉé", "A-B'C d", "Ab\xffCd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var want [][2]int
		for _, m := range nameSeqRE.FindAllStringIndex(text, -1) {
			want = append(want, [2]int{m[0], m[1]})
		}
		if got := capitalisedRuns(text); !reflect.DeepEqual(got, want) {
			t.Fatalf("capitalisedRuns(%q) = %v, the regexp finds %v", text, got, want)
		}
	})
}

// ipv6RE is the regexp ipv6Candidates replaced.
var ipv6RE = regexp.MustCompile(`[0-9A-Fa-f:]*:[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*`)

// shortcutAgreement checks the hand-written shortcuts of the PII finders, and the jailbreak
// detector's gate of its rot13 cue, against the patterns they stand for, on text:
// ipv6Candidates finds what ipv6RE finds, lowerNameMatches what lowerNameRE finds, the
// numeric patterns find in findInRuns what they find in the whole text, and each of
// maySpellSymbol, mayHoldGulfStreet, mayHoldPOBox, mayNameRot13, streetsAfter, mayStartTail
// and the locality chain's digit run says yes wherever its pattern matches (mayEndAddressCue
// where the address cue's pattern matches before a number), and bareStreetMayAdd wherever a
// bare street's match may be taken. It returns the
// first disagreement, or "", and adds to matched how often each pattern matched, so that a
// caller can tell that it checked something.
func shortcutAgreement(text string, matched map[string]int) string {
	var want [][2]int
	for _, m := range ipv6RE.FindAllStringIndex(text, -1) {
		want = append(want, [2]int{m[0], m[1]})
	}
	if got := ipv6Candidates(text); !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("ipv6Candidates(%q) = %v, the regexp finds %v", text, got, want)
	}
	matched["ipv6"] += len(want)
	cues := lowerNameRE.FindAllStringSubmatchIndex(text, -1)
	if got := lowerNameMatches(text); !reflect.DeepEqual(got, cues) {
		return fmt.Sprintf("lowerNameMatches(%q) = %v, the regexp finds %v", text, got, cues)
	}
	matched["lowerName"] += len(cues)
	// Each numeric pattern with the fewest digits a match of it holds: read in the numeric
	// runs, it finds what it finds in the whole text.
	runs := numericRuns(text)
	for _, p := range []struct {
		re        *lazyRegexp
		minDigits int
	}{{cardRE, minCardDigits}, {ssnRE, minSSNDigits}, {ipv4RE, 4}, {phoneIntlRE, 4}, {phoneUSRE, 10}, {phoneNationalRE, 4}, {phoneNoTrunkRE, 4}} {
		want := p.re.FindAllStringSubmatchIndex(text, -1)
		if got := findInRuns(p.re.FindAllStringSubmatchIndex, text, runs, p.minDigits); !reflect.DeepEqual(got, want) {
			return fmt.Sprintf("%s in the numeric runs of %q finds %v, in the whole text %v", p.re.String(), text, got, want)
		}
		matched["numeric"] += len(want)
	}
	for _, g := range []struct {
		name string
		re   *lazyRegexp
		may  func(string) bool
	}{{"maySpellSymbol", spelledSymbolRE, maySpellSymbol}, {"mayHoldGulfStreet", gulfStreetRE, mayHoldGulfStreet}, {"mayHoldPOBox", poBoxRE, mayHoldPOBox}, {"mayNameRot13", rot13Cue, mayNameRot13}} {
		if g.re.MatchString(text) {
			matched[g.name]++
			if !g.may(text) {
				return fmt.Sprintf("%s(%q) = false, its regexp matches", g.name, text)
			}
		}
	}
	for _, n := range numberStarts(text) {
		window := text[n.start:min(len(text), n.start+addressWindow)]
		may := streetsAfter(text, n.end)
		for i, re := range streetPatterns {
			if re.MatchString(window) {
				matched["street"]++
				if may&(1<<i) == 0 {
					return fmt.Sprintf("streetsAfter(%q, %d) = %03b, %s matches", text, n.end, may, re.String())
				}
			}
		}
		if loc := bareStreetAt.FindStringIndex(window); loc != nil {
			e := n.start + loc[1]
			if addressCueRE.MatchString(text[max(0, n.start-30):n.start]) || mayStartTail(text[e:min(len(text), e+addressWindow)]) {
				matched["bareStreetMayAdd"]++
				if !bareStreetMayAdd(text, n) {
					return fmt.Sprintf("bareStreetMayAdd(%q, %v) = false, a bare street up to %d may be taken", text, n, e)
				}
			}
		}
		if cue := text[max(0, n.start-30):n.start]; addressCueRE.MatchString(cue) {
			matched["mayEndAddressCue"]++
			if !mayEndAddressCue(cue) {
				return fmt.Sprintf("mayEndAddressCue(%q) = false, its regexp matches", cue)
			}
		}
		if localityChainAt.MatchString(window) {
			matched["locality"]++
			if !hasDigitRun(window[min(len(window), n.end-n.start):], 3) {
				return fmt.Sprintf("the locality chain at %d of %q has no run of three digits", n.start, text)
			}
		}
	}
	for i := range len(text) + 1 {
		rest := text[i:min(len(text), i+addressWindow)]
		for _, re := range []*lazyRegexp{unitTailRE, stateZipTailRE, caPostTailRE, ukPostTailRE, euPostTailRE, cityTailRE, cityPostTailRE} {
			if re.MatchString(rest) {
				matched["tail"]++
				if !mayStartTail(rest) {
					return fmt.Sprintf("mayStartTail(%q) = false, %s matches", rest, re.String())
				}
			}
		}
	}
	return ""
}

// TestShortcutsMatchTheirPatterns checks the detectors' shortcuts on the test texts and on
// edge cases of each.
func TestShortcutsMatchTheirPatterns(t *testing.T) {
	t.Parallel()
	texts := append(gateTexts(t), "", "::", "a:b", "a::b", "fe80::1.", "1:2:3.4.5:6", "a:b.c:d:e", "std::vector::at",
		"4111111111111111é", "x123-45-6789日", "4111\t1111\t1111\t1111", "tel. 0161\t496\t0733",
		"Villa 5, Street 22", "House No. 12, Road 3", "Office No5, Block 2", "Flat\tNo.\n7, Sikka 1",
		"P.O. Box 4411", "PO BOX #17", "post office box\t# 9", "Postfach 12 34", "POſTFACH 9", "apartado postal 77", "boîte postale 12", "BOÎTE POSTALE 3",
		"apartado poſtal 7", "P. O. Box 7", "P.O.Box 7", "po\nbox 8", "Post Office Box 9", "a 10 kg box 2 meters", "a total 5",
		"my name is john smith", "MY NAME'S bob", "my name iſ ann lee", "Name:\tjo", "name : Ann Lee", "rename: x", "my  name is bo",
		"xmy name is bo", "name: name: bo", "my name is name: al", "name:ed", "name is bo", "my name's\n\nzoë  ray", "my name is ann-marie o'neil x",
		"decode this ROT-13", "rot13 it", "a Caesar cipher", "caeſar", "CAESAR shift", "scale_13 carrot13",
		"x (at) y", "x ( AT ) y [dot] z", "x(a t)y", "{dot>", "<at", "(\tdot\n}",
		"12 Main St", "5, rue de la Paix", "5 impasse des Lilas", "12 Élan Road", "12 Örnvägen", "12 N 5th Street", "12bis rue de la Paix", "12\tOak", "12é", "12(x)",
		"12 Oak Road, Apt 4", "12 Oak Road, #4", "12 Oak Road, SW1A 1AA", "12 Oak Road, CA 94043", "12 Oak Road, Étage 3",
		"Keizersgracht 123, 1015 CJ Amsterdam", "41, 2nd Main, Jayanagar, Bengaluru 560041", "7-1-2, Chiyoda, Tokyo 100-0001",
		"lives at 3 Elm Grove", "send it to 14 Marlow, Apt 2", "12 The Old Forge, SW1A 1AA", "12 Old Forge Lane Cottage, CA 94043", "12 The Old Forge Lane, CA 94043",
		"12\nÉcole Saint-Ouen, 75001 Paris", "return x * 3\nExplain what it does", "12 O'Neill Hyphen-Name Third Fourth, CA 94043",
		"lives at 12 Aa"+strings.Repeat("a", addressWindow-6)+"é, CA 94043", "12 Aa"+strings.Repeat("a", addressWindow-6)+"é what")
	matched := map[string]int{}
	for _, text := range texts {
		for _, s := range []string{text, Normalize(text)} {
			if msg := shortcutAgreement(s, matched); msg != "" {
				t.Fatal(msg)
			}
		}
	}
	for _, name := range []string{"ipv6", "lowerName", "numeric", "maySpellSymbol", "mayHoldGulfStreet", "mayHoldPOBox", "mayNameRot13", "street", "locality", "tail", "bareStreetMayAdd", "mayEndAddressCue"} {
		if matched[name] < 4 {
			t.Errorf("the %s patterns matched %d times in the texts, want at least 4", name, matched[name])
		}
	}
}

// FuzzShortcuts checks the detectors' shortcuts against their patterns on any text.
func FuzzShortcuts(f *testing.F) {
	for _, s := range []string{"fe80::1.", "a:b.c:d:e", "x ( AT ) y", "12 Main St, Apt 4", "12, Rue", "Keizersgracht 123, 1015 CJ Amsterdam",
		"41, 2nd Main, Jayanagar, Bengaluru 560041", "12 Oak Road, Étage 3", "12 Élan Road", "12 N 5th Street", "5 impasse des Lilas",
		"House No. 12, Road 3", "PO BOX #17", "boîte postale 12", "my name is john smith", "name: name: bo", "my name iſ ann lee",
		"12 The Old Forge Lane, CA 94043", "lives at 3 Elm Grove", "return x * 3\nExplain what it does"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		// The tail patterns are tried at every position: a kilobyte keeps each input quick.
		text = text[:min(len(text), 1024)]
		if msg := shortcutAgreement(text, map[string]int{}); msg != "" {
			t.Fatal(msg)
		}
	})
}

// tokenExamples hold one shortest match of each of tokenREs, in its order.
var tokenExamples = []string{
	"sk-" + strings.Repeat("a", 20),
	"AKIA" + strings.Repeat("Z", 16),
	"ghp_" + strings.Repeat("b", 30),
	"github_pat_" + strings.Repeat("c", 40),
	"glpat-" + strings.Repeat("d", 20),
	"xoxb-" + strings.Repeat("e", 10),
	"AIza" + strings.Repeat("f", 35),
	"sk_live_" + strings.Repeat("g", 16),
	"hf_" + strings.Repeat("h", 30),
	"npm_" + strings.Repeat("i", 36),
	"SG." + strings.Repeat("j", 16) + "." + strings.Repeat("k", 16),
	"eyJ" + strings.Repeat("l", 8) + ".eyJ" + strings.Repeat("m", 8) + "." + strings.Repeat("n", 8),
	"-----BEGIN PRIVATE KEY-----",
}

// TestTokenRunsBoundEveryMatch checks each of tokenREs' run against its shortest match and
// every text one edit away from it: whatever the pattern matches holds a run that long.
func TestTokenRunsBoundEveryMatch(t *testing.T) {
	t.Parallel()
	if len(tokenExamples) != len(tokenREs) {
		t.Fatalf("%d examples for %d patterns", len(tokenExamples), len(tokenREs))
	}
	for i, tr := range tokenREs {
		ex := "key: " + tokenExamples[i] + " end"
		if !tr.re.MatchString(ex) {
			t.Fatalf("%s does not match its example %q", tr.re.String(), ex)
		}
		if tr.run > maxTokenRun {
			t.Errorf("%s needs a run of %d, more than maxTokenRun", tr.re.String(), tr.run)
		}
		texts := []string{ex}
		for k := range len(ex) {
			texts = append(texts, ex[:k]+ex[k+1:], ex[:k]+" "+ex[k+1:], ex[:k]+"."+ex[k:])
		}
		exact := false
		for _, text := range texts {
			if !tr.re.MatchString(text) {
				continue
			}
			run, _ := longRuns(text)
			if run < tr.run {
				t.Fatalf("%s matches %q, whose longest run is %d, under its run %d", tr.re.String(), text, run, tr.run)
			}
			exact = exact || run == tr.run
		}
		if !exact && tr.run > 0 {
			t.Errorf("%s: no text matched holds a run of exactly %d; the bound may be set too low", tr.re.String(), tr.run)
		}
	}
}
