package signal

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestPIIDetect(t *testing.T) {
	t.Parallel()
	d, err := NewPIIDetector(PIIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		text string
		want string // "type:text" findings joined by " | "
	}{
		{"email", "Mail jane.doe+tag@mail.example.co.uk today.", "email:jane.doe+tag@mail.example.co.uk"},
		{"email with dots rejected", "bad..dots@example.com", ""},
		{"us phone parens", "Call (503) 555-0166 now", "phone:(503) 555-0166"},
		{"us phone dashes with 1", "Call 1-800-555-0199.", "phone:1-800-555-0199"},
		{"us phone bad area code", "Ref 123-555-0166", ""},
		{"international phone", "Ring +44 20 7946 0958 please", "phone:+44 20 7946 0958"},
		{"national phone needs cue", "Phone: 0161 496 0733", "phone:0161 496 0733"},
		{"national number without cue", "Part 0161 496 0733", ""},
		{"german mobile after Nummer", "meine Nummer ist 0151 2345 6789 und", "phone:0151 2345 6789"},
		{"spanish number without trunk prefix after a cue", "mi teléfono es 612 345 678.", "phone:612 345 678"},
		{"italian mobile after cellulare", "il mio cellulare è 347 123 4567", "phone:347 123 4567"},
		{"number without trunk prefix and without cue", "a population of 612 345 678 people", ""},
		{"number without trunk prefix far from the cue", "call me later about the 612 345 678 units we sold", ""},
		{"number without trunk prefix after a word that is not a phone's", "the text has 612 345 678 words, the hotel 212 345 678", ""},
		{"number without trunk prefix after call me at", "call me at 612 345 678", "phone:612 345 678"},
		{"a number without separators after a phone cue", "my phone number is 4155550132.", "phone:4155550132"},
		{"a number without separators and without a cue", "order 4155550132 shipped", ""},
		{"visa spaced", "card 4111 1111 1111 1111 ok", "credit_card:4111 1111 1111 1111"},
		{"amex 4-6-5", "Amex 3782 822463 10005", "credit_card:3782 822463 10005"},
		{"luhn failure", "card 4111 1111 1111 1112", ""},
		{"luhn ok but no issuer", "tracking 9400 1118 9922 3345 6781", ""},
		{"ssn", "SSN 702-58-1146.", "ssn:702-58-1146"},
		{"ssn area 000", "000-12-3456", ""},
		{"ssn area 666", "666-12-3456", ""},
		{"ssn area 9xx", "912-12-3456", ""},
		{"ssn group 00", "123-00-4567", ""},
		{"ssn serial 0000", "123-45-0000", ""},
		{"ssn undashed with cue", "my social security number is 123456789", "ssn:123456789"},
		{"ssn spaced digit by digit with cue", "My SSN is 1 2 3 4 5 6 7 8 9", "ssn:1 2 3 4 5 6 7 8 9"},
		{"ssn dashed digit by digit with cue", "my ssn is 1-2-3-4-5-6-7-8-9", "ssn:1-2-3-4-5-6-7-8-9"},
		{"ssn grouped otherwise with cue", "my ssn is 12-34-56-789 and SSN 123-456-789", "ssn:12-34-56-789 | ssn:123-456-789"},
		{"ssn spaced around its dashes with cue", "my ssn is 1 2 3 - 4 5 - 6 7 8 9", "ssn:1 2 3 - 4 5 - 6 7 8 9"},
		{"a longer number after an ssn cue", "ssn is 1-2-3-4-5-6-7-8-9-0", ""},
		{"ten spaced digits after a cue", "SSN is 1 2 3 4 5 6 7 8 9 0", ""},
		{"email with an ideographic full stop", "write john.doe@example。com now", "email:john.doe@example。com"},
		{"email with a half-width ideographic full stop", "write john.doe@mail｡example｡org", "email:john.doe@mail｡example｡org"},
		{"email with a full-width full stop", "write john.doe@example．com", "email:john.doe@example．com"},
		{"ssn glued to more digits", "part 123-45-6789-01", ""},
		{"ssn over line breaks", Normalize("my ssn is 702\n58\n1146"), "ssn:702\n58\n1146"},
		{"ssn with dashes before line breaks", Normalize("my ssn is 702-\r\n58-\n1146"), "ssn:702-\n58-\n1146"},
		{"ssn with other dashes", Normalize("ssn 702\u201158\u22121146 and 702\u201358\u20131146"), "ssn:702-58-1146 | ssn:702-58-1146"},
		{"ssn in Arabic-Indic digits", Normalize("ssn ٧٠٢-٥٨-١١٤٦"), "ssn:702-58-1146"},
		{"ssn with mixed separators", "ref 702-58 1146", ""},
		{"ssn with dots, slashes, underscores", "702.58.1146 702/58/1146 702_58_1146", "ssn:702.58.1146 | ssn:702/58/1146 | ssn:702_58_1146"},
		{"ssn and card with middle dots and bullets", Normalize("702·58·1146 and 4111•1111•1111•1111"), "ssn:702.58.1146 | credit_card:4111.1111.1111.1111"},
		{"ssn with other separators", "702,58,1146 702:58:1146 702|58|1146 702~58~1146 702*58*1146 702+58+1146 702--58--1146",
			"ssn:702,58,1146 | ssn:702:58:1146 | ssn:702|58|1146 | ssn:702~58~1146 | ssn:702*58*1146 | ssn:702+58+1146 | ssn:702--58--1146"},
		{"ssn glued to letters", "ssnX702-58-1146 and 702-58-1146x", "ssn:702-58-1146 | ssn:702-58-1146"},
		{"card glued to letters", "ID4111111111111111 ok", "credit_card:4111111111111111"},
		{"card before a longer character", "card 4111 1111 1111 1111日 and 4111111111111111é", "credit_card:4111 1111 1111 1111 | credit_card:4111111111111111"},
		{"ssn glued to a digit", "1702-58-1146", ""},
		{"ssn with a two-em dash", Normalize("ssn 702\u2e3a58\u2e3a1146"), "ssn:702-58-1146"},
		{"card over line breaks", Normalize("4111\n1111\n1111\n1111"), "credit_card:4111\n1111\n1111\n1111"},
		{"card with dots, slashes, underscores", "4111.1111.1111.1111 4111/1111/1111/1111 4111_1111_1111_1111",
			"credit_card:4111.1111.1111.1111 | credit_card:4111/1111/1111/1111 | credit_card:4111_1111_1111_1111"},
		{"card with the other separators an SSN may have", "4111+1111+1111+1111 4111*1111*1111*1111 4111~1111~1111~1111 4111:1111:1111:1111 4111|1111|1111|1111 4111,1111,1111,1111",
			"credit_card:4111+1111+1111+1111 | credit_card:4111*1111*1111*1111 | credit_card:4111~1111~1111~1111 | credit_card:4111:1111:1111:1111 | credit_card:4111|1111|1111|1111 | credit_card:4111,1111,1111,1111"},
		{"iban spaced", "IBAN DE89 3704 0044 0532 0130 00, thanks", "iban:DE89 3704 0044 0532 0130 00"},
		{"iban compact", "GB82WEST12345698765432", "iban:GB82WEST12345698765432"},
		{"iban in lower case", "iban gb82 west 1234 5698 7654 32 please", "iban:gb82 west 1234 5698 7654 32"},
		{"iban in lower case, bad checksum", "iban gb82 west 1234 5698 7654 33 please", ""},
		{"letters and digits that start no iban", "covid19 and mp3 files, ab12 cd34 ef56 gh78 ij90", ""},
		{"phone with the area code in parentheses, no space", "my number is (415)5550132", "phone:(415)5550132"},
		{"phone cut by slashes after a cue", "phone: 415/555/0132", "phone:415/555/0132"},
		{"phone cut by underscores after a cue", "phone: 415_555_0132", "phone:415_555_0132"},
		{"a path of numbers without a cue", "see 415/555/0132 in the archive", ""},
		{"iban bad checksum", "DE88 3704 0044 0532 0130 00", ""},
		{"iban unknown country", "ZZ89 3704 0044 0532 0130 00", ""},
		{"ipv4", "from 198.51.100.77.", "ip_address:198.51.100.77"},
		{"ipv4 out of range", "from 256.1.1.1", ""},
		{"version string", "version 1.2.3.4.5", ""},
		{"ipv6", "host 2001:db8::8a2e:370:7334 down", "ip_address:2001:db8::8a2e:370:7334"},
		{"time is not ipv6", "at 12:30:45 today", ""},
		{"cpp scope is not ipv6", "std::vector::push_back", ""},
		{"openai key", "key sk-proj-abcdefghijklmnopqrstuvwx1234", "api_key:sk-proj-abcdefghijklmnopqrstuvwx1234"},
		{"aws key", "AKIAUVW75EFR6EDT4SYW in env", "api_key:AKIAUVW75EFR6EDT4SYW"},
		{"github token", "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "api_key:ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"},
		{"slack token", "xoxb-123456789012-abcdefABCDEF", "api_key:xoxb-123456789012-abcdefABCDEF"},
		{"jwt", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dBjftJeZ4CVPmB92K27uhbUJU1p1r", "api_key:eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dBjftJeZ4CVPmB92K27uhbUJU1p1r"},
		{"generic secret after cue", "api_key = 'f3a9c2e18b7d4a6f9e0c1b2a3d4e5f60'", "api_key:f3a9c2e18b7d4a6f9e0c1b2a3d4e5f60"},
		{"identifier after cue is not a key", "set the api_key_environment_variable_name first", ""},
		{"git sha without cue", "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 broke it", ""},
		{"name after cue", "My name is Ingrid Halvorsen.", "person_name:Ingrid Halvorsen"},
		{"name with title", "Ask Dr. Okonkwo about it", "person_name:Okonkwo"},
		{"given name and surname", "Tomasz Wierzbicki says hi", "person_name:Tomasz Wierzbicki"},
		{"hyphenated given name", "for Mei-Lin Chow, SSN", "person_name:Mei-Lin Chow"},
		{"i am with known name", "Hi, I'm Sarah and I need help", "person_name:Sarah"},
		{"i am with adjective", "I'm Hungry", ""},
		{"newton's laws", "Explain Newton's laws of motion", ""},
		{"isaac newton", "Explain Isaac Newton's laws", ""},
		{"history of paris", "What is the history of Paris?", ""},
		{"us street with city and zip", "Ship to 1290 Birchmont Ave, Unit 12, Boise, ID 83706.", "street_address:1290 Birchmont Ave, Unit 12, Boise, ID 83706"},
		{"uk street and postcode", "at 15 Marlowe Terrace, Bristol BS6 7RL?", "street_address:15 Marlowe Terrace, Bristol BS6 7RL"},
		{"german street", "Wohne in Lindenstraße 12, 10115 Berlin", "street_address:Lindenstraße 12, 10115 Berlin"},
		{"french street", "au 12 rue de la Paix demain", "street_address:12 rue de la Paix"},
		{"po box", "P.O. Box 4410", "street_address:P.O. Box 4410"},
		{"three apples is no address", "I ate 3 The Way apples", ""},
		{"name repeated in email", "Contact card: Alejandro Quispe, aquispe@example.org", "person_name:Alejandro Quispe | email:aquispe@example.org"},
		{"version is not an ip", "Version 2.14.1.0 broke the build", ""},
		{"lower-case name after cue", "hi my name is john smith and i need help", "person_name:john smith"},
		{"lower-case single name", "my name is anna, thanks", "person_name:anna"},
		{"lower-case cue without name", "my name is not important", ""},
		{"product after an article", "games to play on a Nintendo Switch", ""},
		{"lower-case name after a verb", "ping deepak about it", "person_name:deepak"},
		{"lower-case name after a relation", "my son omar hates it", "person_name:omar"},
		{"verb of asking starts the run", "Ask Hiroshi to review the patch", "person_name:Hiroshi"},
		{"french M. title", "Écris à M. Lefèvre demain", "person_name:Lefèvre"},
		{"who was asks about a figure", "Who was Victor Hugo?", ""},
		{"article before a work", "Who painted the Mona Lisa?", ""},
		{"camel case is a product", "Best practices for GitHub Actions workflows", ""},
		{"street-type word heights", "a cab to 28 Willow Heights.", "street_address:28 Willow Heights."},
		{"colombian street", "Vivo en Calle 85 # 11-53, Bogotá.", "street_address:Calle 85 # 11-53, Bogotá"},
		{"indian locality chain", "Send to 41, 2nd Main, Jayanagar, Bengaluru 560041.", "street_address:41, 2nd Main, Jayanagar, Bengaluru 560041"},
		{"lower-case street with unit", "the flowers go to 12 cherry hill rd, apt 1", "street_address:12 cherry hill rd, apt 1"},
		{"lower-case bare street with zip", "ship to 8 brookside, hempstead ny 11550", "street_address:8 brookside, hempstead ny 11550"},
		{"room size is no unit", "a 25 square metre sunny room need", ""},
		{"a year is no postcode", "In 2019, Apple sold 5 Macs, Paris 2024", ""},
		{"numbered street in the gulf", "Deliver to Villa 5, Street 22, Jumeirah 1, Dubai.", "street_address:Villa 5, Street 22"},
		{"french boite postale", "Écrire à BP 12, 31000 Toulouse.", "street_address:BP 12, 31000 Toulouse"},
		{"flat after the house number", "Ulica Długa 12/4, 80-827 Gdańsk", "street_address:Długa 12/4, 80-827 Gdańsk"},
		{"loopback is no host", "bind to 127.0.0.1 or 0.0.0.0", ""},
		{"netmask is no host", "mask 255.255.255.0", ""},
		{"order number is no phone", "My order number is 0123 456 789", ""},
		{"salutation is no name", "Dear Sir or Madam,", ""},
		{"famous name", "Martin Luther King Jr. Day is a holiday", ""},
		{"email beats name", "write to ingrid.halvorsen@example.com", "email:ingrid.halvorsen@example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, f := range d.Detect(tt.text).Findings {
				if f.Text != tt.text[f.Start:f.End] {
					t.Errorf("finding %+v: Text does not match offsets", f)
				}
				got = append(got, fmt.Sprintf("%s:%s", f.Type, f.Text))
			}
			if g := strings.Join(got, " | "); g != tt.want {
				t.Errorf("Detect(%q)\n got  %q\n want %q", tt.text, g, tt.want)
			}
		})
	}
}

func TestPIIMask(t *testing.T) {
	t.Parallel()
	d, err := NewPIIDetector(PIIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in := "Refund Oluwaseun Bakare, card 4026 8711 5930 4621, receipt to seun.bakare@example.net."
	want := "Refund [PERSON_NAME], card [CREDIT_CARD], receipt to [EMAIL]."
	if got := d.Mask(in); got != want {
		t.Errorf("Mask = %q, want %q", got, want)
	}
	// A character of several bytes after a number stays whole.
	if got, want := d.Mask("card 4111111111111111é, ssn 702-58-1146日"), "card [CREDIT_CARD]é, ssn [SSN]日"; got != want {
		t.Errorf("Mask = %q, want %q", got, want)
	}
	res := d.Detect(in)
	if got := fmt.Sprint(res.Types()); got != "[credit_card email person_name]" {
		t.Errorf("Types = %s", got)
	}
	if !res.Has(PIIEmail) || res.Has(PIISSN) {
		t.Errorf("Has: email %v, ssn %v", res.Has(PIIEmail), res.Has(PIISSN))
	}
}

func TestPIIOptions(t *testing.T) {
	t.Parallel()
	d, err := NewPIIDetector(PIIOptions{Types: []PIIType{PIIEmail}, ExtraGivenNames: []string{"Zebulon"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Mask("a@b.io 702-58-1146"); got != "[EMAIL] 702-58-1146" {
		t.Errorf("Mask with only email = %q", got)
	}
	_, err = NewPIIDetector(PIIOptions{Types: []PIIType{"passport"}})
	if err == nil || err.Error() != `pii: unknown type "passport"` {
		t.Errorf("err = %v", err)
	}
	d, _ = NewPIIDetector(PIIOptions{ExtraGivenNames: []string{"Zebulon"}})
	if got := d.Mask("Zebulon Quark called"); got != "[PERSON_NAME] called" {
		t.Errorf("extra given name: %q", got)
	}
}

func TestValidators(t *testing.T) {
	t.Parallel()
	if !luhn("79927398713") || luhn("79927398710") {
		t.Error("luhn")
	}
	if !mod97("GB82WEST12345698765432") || mod97("GB83WEST12345698765432") {
		t.Error("mod97")
	}
	if !validSSN("123", "45", "6789") || validSSN("900", "45", "6789") {
		t.Error("validSSN")
	}
}

func FuzzPIIDetect(f *testing.F) {
	for _, s := range []string{"", "a@b.co", "+1 (503) 555-0166", "DE89 3704 0044 0532 0130 00", "::1", "2001:db8::", "My name is Ann", "12 rue de", "\xff\xfe", "Dr. ", "I'm", "mail jdoe-at-example-dot-com", "x.y -AT- z.org", `ssn 123\05545\0556789`, "a%u0040b.io", "31 32 33 2d 34 35 2d 36",
		"ID4111111111111111é", "tel:0161 496 0733", "192.168.1.20.", "x123-45-6789日", "(415)5550132", "House No. 5, Street 2", "12 The Old Forge Lane, CA 94043", "lives at 3 Elm Grove",
		"data: d3JpdGUgdG8gYW5uQGV4YW1wbGUuY29tIG9yIGNhbGwgKDUwMykgNTU1LTAxNjY="} {
		f.Add(s)
	}
	for _, s := range tokenExamples {
		f.Add("token " + s)
	}
	d, _ := NewPIIDetector(PIIOptions{})
	f.Fuzz(func(t *testing.T, s string) {
		res := d.Detect(s)
		if whole := d.detect(s, false, maxEscapeLevels); !reflect.DeepEqual(res, whole) {
			t.Fatalf("%q: the gated scan finds %v, the scan with every pattern %v", s, res.Findings, whole.Findings)
		}
		// Findings come in order and do not overlap, but for the types found in one encoded
		// run, which share its span.
		var prev PIIFinding
		for i, fd := range res.Findings {
			sharesRun := i > 0 && fd.Start == prev.Start && fd.End == prev.End
			if fd.Start < prev.End && !sharesRun || fd.End > len(s) || fd.Start >= fd.End || s[fd.Start:fd.End] != fd.Text {
				t.Fatalf("bad finding %+v in %q", fd, s)
			}
			prev = fd
		}
		_ = res.Mask(s)
	})
}

func BenchmarkPIIDetect(b *testing.B) {
	d, _ := NewPIIDetector(PIIOptions{})
	prompt := "Draft a letter to the IRS for Mei-Lin Chow, SSN 702-58-1146, asking why her refund is delayed; reply to mei@example.com or (503) 555-0166."
	b.ReportAllocs()
	for b.Loop() {
		d.Detect(prompt)
	}
}

func BenchmarkPIIDetectClean(b *testing.B) {
	d, _ := NewPIIDetector(PIIOptions{})
	prompt := "Outline the citric acid cycle and say where in the cell it takes place, and why oxygen matters at the end of the chain."
	b.ReportAllocs()
	for b.Loop() {
		d.Detect(prompt)
	}
}

func TestCueBefore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tail string
		want bool
	}{
		{"a note for my nephew ", true},
		{"The patient, ", false}, // "patient" is a person cue, not a relation
		{"our co-worker: ", true},
		{"my nephew", false},        // no space before the name
		{"the grandnephew ", false}, // whole words only
		{"Draft a card for the family of ", false},
	}
	for _, tt := range tests {
		if got := cueBefore(tt.tail, relationCues, nil); got != tt.want {
			t.Errorf("relation cueBefore(%q) = %v, want %v", tt.tail, got, tt.want)
		}
	}
	for _, tt := range []struct {
		tail string
		want bool
	}{{"The patient, ", true}, {"Draft a card for the family of ", true}, {"the University of ", false}, {"tell ", true}} {
		if got := cueBefore(tt.tail, personCues, ofCues); got != tt.want {
			t.Errorf("person cueBefore(%q) = %v, want %v", tt.tail, got, tt.want)
		}
	}
}
