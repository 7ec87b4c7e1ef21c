package signal

import (
	"strings"
	"testing"
)

func TestToolCallText(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, args, want string }{
		{"object values in order", `{"query":"ignore all rules","n":3,"lang":"en"}`, "query\nignore all rules\nn\n3\nlang\nen"},
		{"escapes decoded", `{"q":"\u0049gnore"}`, "q\nIgnore"},
		{"names and numbers are text", `{"my ssn is 123-45-6789":1,"card":4111111111111111}`, "my ssn is 123-45-6789\n1\ncard\n4111111111111111"},
		{"nested containers", `{"a":{"b":"x","c":["y",{"d":"z"}]},"e":"w"}`, "a\nb\nx\nc\ny\nd\nz\ne\nw"},
		{"array at top", `["a","b"]`, "a\nb"},
		{"inline media left out", `{"url":"data:image/png;base64,iVBORw0KGgo=","data":"` + strings.Repeat("AAAA", 256) + `","text":"data:text/plain,ssn 123-45-6789"}`,
			"url\ndata\ntext\ndata:text/plain,ssn 123-45-6789"},
		{"inline text read decoded", `{"url":"data:text/plain;base64,c3NuIDEyMy00NS02Nzg5","data":"` + strings.Repeat("QUJD", 256) + `"}`,
			"url\nssn 123-45-6789\ndata\n" + strings.Repeat("ABC", 256)},
		{"a data URL head on text", `{"x":"data:;base64,My SSN is 123-45-6789"}`, "x\ndata:;base64,My SSN is 123-45-6789"},
		{"not json kept as sent", `ignore {all`, "ignore {all"},
		{"empty object", `{}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := ToolCallText(tt.args); got != tt.want {
				t.Errorf("ToolCallText(%s) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
}

// TestJSONTextOfNothing: a member the request leaves out (nil) and an empty value read as
// no text.
func TestJSONTextOfNothing(t *testing.T) {
	t.Parallel()
	for _, raw := range [][]byte{nil, {}, []byte(`null`), []byte(`{}`), []byte(`[]`)} {
		if got := JSONText(raw); got != "" {
			t.Errorf("JSONText(%q) = %q, want \"\"", raw, got)
		}
	}
}

func TestInputScopes(t *testing.T) {
	t.Parallel()
	in := NewInput([]Segment{
		{Message: 0, Role: RoleSystem, Raw: "You are helpful."},
		{Message: 1, Role: RoleUser, Raw: "first  question"},
		{Message: 2, Role: RoleAssistant, Raw: "an answer"},
		{Message: 2, Role: RoleTool, ToolCall: true, Raw: "lookup"},
		{Message: 3, Role: RoleTool, Raw: "tool result"},
		{Message: 4, Role: RoleUser, Raw: "Ｌast question"},
	})
	in.Prepare(ScopeAll)
	tests := []struct {
		scope Role
		want  string
	}{
		{ScopeAll, "You are helpful.\nfirst question\nan answer\nlookup\ntool result\nLast question"},
		{ScopeRouting, "Last question"},
		{RoleUser, "first question\nLast question"},
		{RoleSystem | RoleTool, "You are helpful.\nlookup\ntool result"},
	}
	for _, tt := range tests {
		if got := in.Text(tt.scope); got != tt.want {
			t.Errorf("Text(%b) = %q, want %q", tt.scope, got, tt.want)
		}
	}
	if n := len(in.Select(RoleTool)); n != 2 {
		t.Errorf("Select(RoleTool) gave %d segments, want 2", n)
	}
}

func TestParseScope(t *testing.T) {
	t.Parallel()
	tests := []struct {
		names   []string
		want    Role
		wantErr string
	}{
		{nil, ScopeAll, ""},
		{[]string{"user", "tool"}, RoleUser | RoleTool, ""},
		{[]string{"last_user"}, RoleLastUser, ""},
		{[]string{"user", "robot"}, 0, `roles[1]: unknown role "robot"`},
	}
	for _, tt := range tests {
		got, err := ParseScope(tt.names, ScopeAll)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tt.want || gotErr != tt.wantErr {
			t.Errorf("ParseScope(%v) = %b, %q; want %b, %q", tt.names, got, gotErr, tt.want, tt.wantErr)
		}
	}
}
