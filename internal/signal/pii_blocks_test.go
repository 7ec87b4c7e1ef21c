package signal

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/internal/longtext"
)

// blocksFiller is text without personal data, in numbered lines of code and prose as an
// agent's conversation holds them, at least n bytes long.
func blocksFiller(n int) string {
	lines := []string{
		"The function returns the sum of the values in the list, or zero when it is empty.",
		"for i in range(len(items)):",
		"    total += items[i] * weights[i]",
		"Can you explain why the loop above is slower than the vectorised version?",
		"It allocates a new array on every pass, and the interpreter checks each index.",
		"    return total / max(count, 1)",
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%d. %s\n", i, lines[i%len(lines)])
	}
	return b.String()
}

// longJWT is a token the credential patterns take, longer than a seam.
func longJWT() string {
	return "eyJ" + strings.Repeat("aBcD1234", 40) + ".eyJ" + strings.Repeat("xYz09_-Q", 40) + "." + strings.Repeat("s1Gn", 30)
}

// TestTypesInFindsEveryValueAtEveryCut holds the blocks and seams to Detect on the whole
// text, for a value of each type at every word's start around a cut.
func TestTypesInFindsEveryValueAtEveryCut(t *testing.T) {
	qualityCheck(t)
	t.Parallel()
	d, err := NewPIIDetector(PIIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	filler := blocksFiller(3 * piiBlockBytes)
	if got := d.Detect(filler).Types(); len(got) != 0 {
		t.Fatalf("the filler holds %v", got)
	}
	encoded := base64.StdEncoding.EncodeToString([]byte(blocksFiller(2500) + "write to jane.doe@example.com"))
	values := []struct {
		text string
		want PIIType
	}{
		{"My name is Ingrid Halvorsen.", PIIPersonName},
		{"hi my name is john smith and i need help", PIIPersonName},
		{"Call (503) 555-0166 now", PIIPhone},
		{"Ring +44 20 7946 0958 please", PIIPhone},
		{"card 4111 1111 1111 1111 ok", PIICreditCard},
		{"SSN 702-58-1146.", PIISSN},
		{"my ssn is 1 2 3 - 4 5 - 6 7 8 9", PIISSN},
		{"IBAN DE89 3704 0044 0532 0130 00, thanks", PIIIBAN},
		{"Mail jane.doe+tag@mail.example.co.uk today.", PIIEmail},
		{"from 198.51.100.77.", PIIIPAddress},
		{"key sk-proj-abcdefghijklmnopqrstuvwx1234", PIIAPIKey},
		{"Bearer " + longJWT(), PIIAPIKey},
		{"Ship to 1290 Birchmont Ave, Unit 12, Boise, ID 83706.", PIIStreetAddress},
		{"at 15 Marlowe Terrace, Bristol BS6 7RL?", PIIStreetAddress},
		{"jane%40example.com", PIIEmail},
		{"the blob " + encoded + " ends here", PIIEmail},
	}
	// Each value is placed at every word's start from before the first cut's seam to after
	// it, so that the cut falls before it, inside it, after it, and the seam's ends too.
	from := piiBlockBytes - piiSeamBytes - 3*piiEdgeBytes
	to := piiBlockBytes + piiSeamBytes + 3*piiEdgeBytes
	for _, v := range values {
		placed := 0
		for i := max(from-len(v.text), 1); i < to; i++ {
			if filler[i-1] != ' ' && filler[i-1] != '\n' {
				continue
			}
			text := filler[:i] + v.text + "\n" + filler[i:]
			if len(piiCutsOf(text)) == 0 {
				t.Fatalf("a text of %d bytes has no cut", len(text))
			}
			want := d.Detect(text).Types()
			if !slices.Contains(want, v.want) {
				t.Fatalf("read whole, %q at %d finds %v, not %s", v.text, i, want, v.want)
			}
			if got := d.TypesIn(text); !slices.Equal(got, want) {
				t.Errorf("%.40q at %d (cuts %v): read in blocks %v, whole %v", v.text, i, piiCutsOf(text), got, want)
				break
			}
			placed++
		}
		if placed < 100 {
			t.Errorf("%q placed %d times", v.text, placed)
		}
	}
}

func TestTypesInReadsShortTextsWhole(t *testing.T) {
	t.Parallel()
	d, err := NewPIIDetector(PIIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"",
		"Call (503) 555-0166 now",
		blocksFiller(piiWholeBytes-100) + "SSN 702-58-1146.",
		strings.Repeat("x", 3*piiBlockBytes+piiCutReach+1) + " jane.doe@example.com", // no place to cut
	} {
		if cuts := piiCutsOf(text); cuts != nil {
			t.Errorf("a text of %d bytes is cut at %v", len(text), cuts)
		}
		if got, want := d.TypesIn(text), d.Detect(text).Types(); !slices.Equal(got, want) {
			t.Errorf("TypesIn of %d bytes = %v, Detect finds %v", len(text), got, want)
		}
	}
}

func TestTypesInReadsOnlyWhatIsNew(t *testing.T) {
	t.Parallel()
	d, err := NewPIIDetector(PIIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	text := blocksFiller(12 * piiBlockBytes)
	if got := d.TypesIn(text); len(got) != 0 {
		t.Fatalf("the filler holds %v", got)
	}
	kept := d.blocks.Len()
	if kept < len(piiCutsOf(text)) {
		t.Fatalf("%d readings kept for %d cuts", kept, len(piiCutsOf(text)))
	}
	// What is kept is what the next text is made of: marked, it shows in the next result.
	for _, r := range piiReadings(text) {
		if r.to-r.from >= longtext.MinKept {
			d.blocks.Put(r.key(text), []PIIType{"kept"})
		}
	}
	next := text + "\nCall (503) 555-0166 about it."
	got := d.TypesIn(next)
	if want := []PIIType{"kept", PIIPhone}; !slices.Equal(got, want) {
		t.Errorf("the next turn reads %v, want %v", got, want)
	}
	if added := d.blocks.Len() - kept; added > 2 {
		t.Errorf("the next turn kept %d new readings, want at most 2: the last block and seam", added)
	}
}

func BenchmarkPIITypesInNextTurn(b *testing.B) {
	d, err := NewPIIDetector(PIIOptions{})
	if err != nil {
		b.Fatal(err)
	}
	text := blocksFiller(80 << 10)
	d.TypesIn(text)
	b.SetBytes(int64(len(text)))
	for i := 0; b.Loop(); i++ {
		d.TypesIn(fmt.Sprintf("%s\nQuestion %d: what does the loop return?", text, i))
	}
}

// piiCutsOf are the cuts TypesIn reads text at.
func piiCutsOf(text string) []int { return longtext.Cuts(text, piiBlockBytes, piiCutReach) }
