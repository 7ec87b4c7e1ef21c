package eval

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/openai"
)

var update = flag.Bool("update", false, "rewrite golden files")

func ptr(s string) *string { return &s }

func TestReadRows(t *testing.T) {
	t.Parallel()
	in := `{"id":"a","prompt":"What is DNA?","domain":"biology","pii":[],"jailbreak":false}

{"prompt":"mail me at a@b.co","domain":null,"pii":["email"],"jailbreak":false}
{"messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hi"}],"domain":null,"pii":[],"jailbreak":false}
`
	rows, err := ReadRows(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0].ID != "a" || *rows[0].Domain != "biology" || rows[1].Domain != nil || rows[1].PII[0] != "email" ||
		len(rows[2].Messages) != 2 || rows[2].Messages[1] != (Message{Role: "user", Content: "hi"}) {
		t.Errorf("rows = %+v", rows)
	}
}

func TestReadRowsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"bad json", "{\"prompt\": \"x\"}\n{nope}\n", "reading rows: line 2: invalid character 'n' looking for beginning of object key string"},
		{"unknown field", `{"prompt":"x","lable":"y"}`, `reading rows: line 1: json: unknown field "lable"`},
		{"missing prompt", `{"domain":"math"}`, "reading rows: line 1: prompt or messages is required"},
		{"prompt and messages", `{"prompt":"x","messages":[{"role":"user","content":"y"}]}`, "reading rows: line 1: prompt and messages are exclusive"},
		{"message without role", `{"messages":[{"role":"user","content":"y"},{"content":"z"}]}`, "reading rows: line 1: messages[1].role is required"},
		{"message with an unknown role", `{"messages":[{"role":"usr","content":"y"}]}`, `reading rows: line 1: messages[0].role must be one of system, developer, user, assistant, tool; got "usr"`},
		{"message without content", `{"messages":[{"role":"user","content":" "}]}`, "reading rows: line 1: messages[0].content is required"},
		{"empty domain", `{"prompt":"x","domain":""}`, "reading rows: line 1: domain must be a label or null, not empty"},
		{"two values", `{"prompt":"x"} {"prompt":"y"}`, "reading rows: line 1: more than one JSON value"},
		{"all reported", "{}\n\n{}", "reading rows: line 1: prompt or messages is required\nline 3: prompt or messages is required"},
		{"wrong type", `{"prompt":"x","jailbreak":"yes"}`, "reading rows: line 1: json: cannot unmarshal string into Go struct field Row.jailbreak of type bool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := ReadRows(strings.NewReader(tt.in))
			if err == nil || err.Error() != tt.want {
				t.Errorf("err = %v\nwant  %s", err, tt.want)
			}
		})
	}
}

func testRows() ([]Row, []Prediction) {
	rows := []Row{
		{Prompt: "p1", Domain: ptr("math"), PII: nil},
		{Prompt: "p2", Domain: ptr("math"), PII: []string{"email", "phone"}},
		{Prompt: "p3", Domain: ptr("law"), PII: []string{"email"}, Jailbreak: true},
		{Prompt: "p4", Domain: nil, PII: nil, Jailbreak: true},
		{Prompt: "p5", Domain: nil, PII: []string{"ssn"}},
	}
	preds := []Prediction{
		{Domain: "math", Latency: 1 * time.Millisecond},
		{Domain: "physics", PII: []string{"email", "email"}, Latency: 2 * time.Millisecond},
		{Domain: "law", PII: []string{"email", "ip_address"}, Jailbreak: true, Latency: 3 * time.Millisecond},
		{Domain: "other", Latency: 4 * time.Millisecond},
		{Domain: "other", PII: []string{"ssn"}, Jailbreak: true, Latency: 10 * time.Millisecond},
	}
	return rows, preds
}

func TestScore(t *testing.T) {
	t.Parallel()
	r := Score(testRows())
	check := func(name string, got, want float64) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("domain accuracy", r.DomainAccuracy, 2.0/3)
	check("pii precision", r.PIIPrecision, 3.0/4) // email, email, ssn right; ip_address wrong
	check("pii recall", r.PIIRecall, 3.0/4)       // phone missed
	check("email precision", r.PIIByType["email"].Precision, 1)
	check("phone recall", r.PIIByType["phone"].Recall, 0)
	check("ip precision", r.PIIByType["ip_address"].Precision, 0)
	check("jailbreak precision", r.JailbreakPrecision, 0.5)
	check("jailbreak recall", r.JailbreakRecall, 0.5)
	check("jailbreak fpr", r.JailbreakFPR, 1.0/3)
	check("p50", r.LatencyP50, 3)
	check("p90", r.LatencyP90, 10)
	check("p99", r.LatencyP99, 10)
	if r.Confusion["math"]["physics"] != 1 || r.Confusion["math"]["math"] != 1 || r.Confusion["law"]["law"] != 1 {
		t.Errorf("confusion = %v", r.Confusion)
	}
}

func TestScoreEmpty(t *testing.T) {
	t.Parallel()
	r := Score(nil, nil)
	if r.DomainAccuracy != 1 || r.PIIPrecision != 1 || r.PIIRecall != 1 || r.JailbreakFPR != 0 || r.LatencyP50 != 0 {
		t.Errorf("empty report = %+v", r)
	}
}

func TestRun(t *testing.T) {
	t.Parallel()
	rows, preds := testRows()
	i := 0
	r, err := Run(context.Background(), rows, func(ctx context.Context, row Row) (Prediction, error) {
		p := preds[i]
		i++
		return p, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.DomainAccuracy != 2.0/3 || r.Rows != 5 {
		t.Errorf("report = %+v", r)
	}
	_, err = Run(context.Background(), []Row{{ID: "x1", Prompt: "p"}}, func(context.Context, Row) (Prediction, error) {
		return Prediction{}, errors.New("backend down")
	})
	if err == nil || err.Error() != "eval: row x1: backend down" {
		t.Errorf("err = %v", err)
	}
}

func TestWriteJSONKeys(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := Score(testRows()).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"domain_accuracy": 0.6666666666666666`, `"pii_precision": 0.75`, `"pii_recall": 0.75`, `"pii_by_type": {`,
		`"email": {`, `"precision": 1`, `"jailbreak_precision": 0.5`, `"jailbreak_recall": 0.5`, `"jailbreak_fpr": 0.3333333333333333`, `"latency_p50_ms": 3`} {
		if !strings.Contains(b.String(), key) {
			t.Errorf("JSON lacks %s:\n%s", key, b.String())
		}
	}
}

func TestWriteText(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := Score(testRows()).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "report.golden")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wantBytes, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := string(wantBytes)
	if b.String() != want {
		t.Errorf("text report:\n%s\nwant:\n%s", b.String(), want)
	}
}

func FuzzReadRows(f *testing.F) {
	f.Add(`{"prompt":"x","domain":"math","pii":["email"],"jailbreak":true}`)
	f.Add("{}\n{\"prompt\":1}")
	f.Add(`{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"hi"}],"jailbreak":false}`)
	f.Add(`{"messages":[{"role":"usr","content":"hi"}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		rows, err := ReadRows(strings.NewReader(in))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "reading rows: line ") {
				t.Fatalf("error without a line number: %v", err)
			}
			return
		}
		for _, r := range rows {
			if len(r.Messages) == 0 && strings.TrimSpace(r.Prompt) == "" {
				t.Fatalf("accepted a row without text: %+v", r)
			}
			for i, m := range r.Messages {
				if openai.RoleError(i, m.Role) != nil || strings.TrimSpace(m.Content) == "" {
					t.Fatalf("accepted message %d without a known role or content: %+v", i, r)
				}
			}
		}
	})
}

func BenchmarkScore(b *testing.B) {
	rows, preds := testRows()
	for range 200 {
		r, p := testRows()
		rows, preds = append(rows, r...), append(preds, p...)
	}
	b.ReportAllocs()
	for b.Loop() {
		Score(rows, preds)
	}
}

// TestWriteTextEmptyDenominators: a ratio no row could confirm or refute reads n/a, never
// a perfect score.
func TestWriteTextEmptyDenominators(t *testing.T) {
	t.Parallel()
	r := Score([]Row{{Prompt: "hello"}}, []Prediction{{}})
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"domain accuracy:     n/a  (0 labelled rows)\n",
		"pii precision:       n/a\n",
		"pii recall:          n/a\n",
		"jailbreak precision: n/a\n",
		"jailbreak recall:    n/a\n",
		"jailbreak fpr:       0.000  (tp 0, fp 0, fn 0, tn 1)\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
