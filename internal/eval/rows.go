// Package eval scores a classifier (domain, PII, jailbreak) against
// labelled prompts and renders the report that `semantic-router eval`
// prints. It does no I/O beyond reading the rows it is given.
package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Row is one labelled prompt. Domain is nil when the prompt has no domain
// label (it then does not count toward domain accuracy).
type Row struct {
	ID        string   `json:"id,omitempty"`
	Prompt    string   `json:"prompt"`
	Domain    *string  `json:"domain"`
	PII       []string `json:"pii"`
	Jailbreak bool     `json:"jailbreak"`
}

// maxLine bounds one JSONL row; prompts are short, so a longer line is
// almost certainly a broken file.
const maxLine = 1 << 20

// ReadRows parses JSONL rows, one object per line; blank lines are
// skipped. Errors name the line: "line 3: prompt is required".
func ReadRows(r io.Reader) ([]Row, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var rows []Row
	var errs []error
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var row Row
		if err := dec.Decode(&row); err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", line, err))
			continue
		}
		if dec.More() {
			errs = append(errs, fmt.Errorf("line %d: more than one JSON value", line))
			continue
		}
		if strings.TrimSpace(row.Prompt) == "" {
			errs = append(errs, fmt.Errorf("line %d: prompt is required", line))
			continue
		}
		if row.Domain != nil && *row.Domain == "" {
			errs = append(errs, fmt.Errorf("line %d: domain must be a label or null, not empty", line))
			continue
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("line %d: %w", line+1, err))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("reading rows: %w", err)
	}
	return rows, nil
}
