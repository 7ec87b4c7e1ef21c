package signal

import (
	"strings"
	"testing"
)

// TestShippedNameLists checks where a shipped family name or one of the later first names
// makes a run a person's name, and where it does not.
func TestShippedNameLists(t *testing.T) {
	t.Parallel()
	d, err := NewPIIDetector(PIIOptions{Types: []PIIType{PIIPersonName}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, text, want string
	}{
		{"role noun before a family name", "The patient Nguyen missed the appointment", "Nguyen"},
		{"verb after a lone family name", "Bosch said the drills are recalled", ""},
		{"verb of telling before a lone family name", "Contact Bosch support about the drill", ""},
		{"family name, comma, first name", "Kowalski, Anna: room 4", "Kowalski"},
		{"first name and family name", "Send the contract to Anna Kowalski", "Anna Kowalski"},
		{"family name, then first name", "Sharma Priya signed the form", "Sharma Priya"},
		{"preposition before a lone family name", "Tacos for Patel and the team", ""},
		{"family name after an unknown word", "How do I install Apache Kafka on Ubuntu?", ""},
		{"dish", "Recipe for Chicken Tikka Masala without cream", ""},
		{"family name, comma, a word", "Nguyen, Tran and Patel are common family names", ""},
		{"vietnamese first name typed without accents", "Remind Tuan about the demo", "Tuan"},
		{"indian first name and family name", "Ajay Kulkarni approved the budget", "Ajay Kulkarni"},
		{"brand before a capitalised word", "How do I use Bing Maps offline?", ""},
		{"monument", "Is the Taj Mahal open on Fridays?", ""},
		{"film", "Is Kung Fu Panda good for a six-year-old?", ""},
		{"two family names", "Draw a Yin Yang symbol", ""},
		{"family name before a short first name", "Hostels near Chiang Mai old town", ""},
		{"loose first name before a word", "Best Desi Food in Leicester", ""},
		{"loose first name after a preposition", "Tickets for Shen Yun in Paris", ""},
		{"loose first name with a role cue", "Email Dinh Tuan the invoice", "Dinh Tuan"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, f := range d.Detect(tt.text).Findings {
				got = append(got, f.Text)
			}
			if g := strings.Join(got, " | "); g != tt.want {
				t.Errorf("Detect(%q) = %q, want %q", tt.text, g, tt.want)
			}
		})
	}
	for _, w := range []string{"nguyen", "patel", "kowalski", "hernandez"} {
		if !d.surnames.has(w) {
			t.Errorf("family names lack %q", w)
		}
	}
	for _, w := range []string{"smith", "brown", "newton", "the", "london", "tesla"} {
		if d.surnames.has(w) {
			t.Errorf("family names hold %q, a word, a place, a brand or a famous name", w)
		}
	}
}

// TestExtraGivenNamesStayWithTheirDetector checks that a detector's extra first names do not
// reach the shipped set that other detectors share.
func TestExtraGivenNamesStayWithTheirDetector(t *testing.T) {
	t.Parallel()
	with, err := NewPIIDetector(PIIOptions{Types: []PIIType{PIIPersonName}, ExtraGivenNames: []string{"Zorblatt"}})
	if err != nil {
		t.Fatal(err)
	}
	without, err := NewPIIDetector(PIIOptions{Types: []PIIType{PIIPersonName}})
	if err != nil {
		t.Fatal(err)
	}
	const text = "Ask Zorblatt to sign the form"
	if !with.Detect(text).Has(PIIPersonName) {
		t.Errorf("with the extra name: no name in %q", text)
	}
	if without.Detect(text).Has(PIIPersonName) {
		t.Errorf("without the extra name: a name in %q", text)
	}
}
