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

	"github.com/semantic-router/semantic-router/internal/openai"
)

// Row is one labelled prompt, or one labelled conversation: a chat request's messages, read
// as the router reads a request's (every message for the policy signals, the last user
// message for routing). Domain is nil when the row has no domain label (it then does not
// count toward domain accuracy).
type Row struct {
	ID        string    `json:"id,omitempty"`
	Prompt    string    `json:"prompt,omitempty"`
	Messages  []Message `json:"messages,omitempty"`
	Domain    *string   `json:"domain"`
	PII       []string  `json:"pii"`
	Jailbreak bool      `json:"jailbreak"`
}

// Message is one message of a conversation row.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// maxLine bounds one JSONL row; prompts are short, so a longer line is
// almost certainly a broken file.
const maxLine = 1 << 20

// ReadRows parses JSONL rows, one object per line; blank lines are
// skipped. Errors name the line: "line 3: prompt or messages is required".
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
		if err := checkText(row); err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", line, err))
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

// checkText accepts a row with either a prompt or messages, each message with a role and
// content.
func checkText(row Row) error {
	switch {
	case row.Prompt != "" && len(row.Messages) > 0:
		return errors.New("prompt and messages are exclusive")
	case len(row.Messages) > 0:
		for i, m := range row.Messages {
			if m.Role == "" {
				return fmt.Errorf("messages[%d].role is required", i)
			}
			// The router refuses a request with any other role; a typo would otherwise be
			// scored as a message of no role the signals read.
			if err := openai.RoleError(i, m.Role); err != nil {
				return err
			}
			if strings.TrimSpace(m.Content) == "" {
				return fmt.Errorf("messages[%d].content is required", i)
			}
		}
	case strings.TrimSpace(row.Prompt) == "":
		return errors.New("prompt or messages is required")
	}
	return nil
}
