package signal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Role says who wrote a piece of the conversation, as the model will read it.
type Role uint8

// Roles. A tool call's arguments count as RoleTool, like the tool's result: both are data
// that travels between the model and a tool, whoever produced it.
const (
	RoleSystem    Role = 1 << iota // system and developer messages
	RoleUser                       // user messages
	RoleAssistant                  // earlier assistant answers
	RoleTool                       // tool results and tool-call arguments
	// RoleLastUser is the last user message only: what the request asks now.
	RoleLastUser
)

// Scopes: sets of roles a signal reads.
const (
	// ScopeAll is every message the model reads: the default of the policy signals (PII,
	// jailbreak), which must see text wherever it hides.
	ScopeAll = RoleSystem | RoleUser | RoleAssistant | RoleTool
	// ScopeRouting is the last user message: the default of the routing signals (keywords,
	// regex, embeddings, domains, complexity, language), which describe the current question.
	ScopeRouting = RoleLastUser
)

// roleNames are the names the configuration uses, in display order.
var roleNames = []struct {
	name string
	role Role
}{{"system", RoleSystem}, {"user", RoleUser}, {"assistant", RoleAssistant}, {"tool", RoleTool}, {"last_user", RoleLastUser}}

// RoleNames are the role names ParseScope accepts.
func RoleNames() []string {
	out := make([]string, len(roleNames))
	for i, r := range roleNames {
		out[i] = r.name
	}
	return out
}

// ParseScope turns role names (system, user, assistant, tool, last_user) into a scope; an
// empty list gives def.
func ParseScope(names []string, def Role) (Role, error) {
	if len(names) == 0 {
		return def, nil
	}
	var s Role
outer:
	for i, n := range names {
		for _, r := range roleNames {
			if r.name == n {
				s |= r.role
				continue outer
			}
		}
		return 0, fmt.Errorf("roles[%d]: unknown role %q", i, n)
	}
	return s, nil
}

// MessageRole maps an OpenAI message role to a Role; developer counts as system and the
// legacy function role as tool. Unknown roles count as user: text the model reads.
func MessageRole(role string) Role {
	switch role {
	case "system", "developer":
		return RoleSystem
	case "assistant":
		return RoleAssistant
	case "tool", "function":
		return RoleTool
	default:
		return RoleUser
	}
}

// Segment is one text the model will read: a message's text or a tool call's arguments.
type Segment struct {
	// Message is the index of the message in the conversation.
	Message int
	// Role is the segment's role; RoleLastUser is added to the last user message's text.
	Role Role
	// ToolCall marks a tool call's arguments (Role is RoleTool): ToolCallText of them.
	ToolCall bool
	// Aside marks text the model reads around a message's content: a message's name, its
	// reasoning or refusal, its text parts joined without a separator, the tool definitions
	// and the response schema. The policy signals read it; the context_length signals do not
	// count it, and it is never the last user message.
	Aside bool
	// Raw is the text as sent; Text is Normalize(Raw), what the detectors read.
	Raw, Text string
}

// Input is a request as the signals read it: every text segment of the conversation, each
// normalised once, so that all detectors share the one pass, and the request's metadata. It
// is read-only once built (Prepare aside) and safe for concurrent use.
type Input struct {
	Segments []Segment
	// Header is the request's headers, read by the header signals; nil has none.
	Header http.Header
	// User is the request's "user" field, read by the user signals.
	User string

	// joined are the prepared scopes' texts; a request has one or two.
	joined []scopeText
}

type scopeText struct {
	scope Role
	text  string
}

// NewInput normalises the segments' Raw text into Text and marks the last user segment (the
// last segment with RoleUser that is not a tool call) with RoleLastUser. Scopes whose joined
// text will be read concurrently should be prepared with Prepare (Evaluate does).
func NewInput(segs []Segment) *Input {
	last := -1
	for i := range segs {
		segs[i].Text = Normalize(segs[i].Raw)
		if segs[i].Role&RoleUser != 0 && !segs[i].Aside {
			last = i
		}
	}
	if last >= 0 {
		segs[last].Role |= RoleLastUser
	}
	return &Input{Segments: segs}
}

// ToolCallText is what the detectors read of a tool call's arguments: when they are JSON,
// JSONText of them (so that escapes such as \u0041 are decoded); otherwise the arguments as
// sent.
func ToolCallText(args string) string {
	if !json.Valid([]byte(args)) {
		return args
	}
	return JSONText([]byte(args))
}

// JSONText is the text a model reads in a JSON value: every member name, string and number,
// one per line, decoded. A name is text as much as a value: {"my ssn is …": 1} carries it.
// Inline data (ParseInline: a base64 data URL, or a string of 1 KiB or more that is base64)
// is read decoded when it decodes to text; binary data (an image, audio, a file) is left
// out, but for the words it shows between separators.
func JSONText(raw []byte) string {
	if len(raw) == 0 {
		// Most requests leave most members out: no decoder for them.
		return ""
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var b strings.Builder
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			break
		}
		var s string
		switch tok.Kind() {
		case '"':
			s = tok.String()
			if in, ok := ParseInline(s); ok {
				if s = in.Read(); s == "" {
					continue
				}
			}
		case '0':
			s = tok.String()
		default:
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	return b.String()
}

// Select returns the segments in scope, in conversation order.
func (in *Input) Select(scope Role) []Segment {
	var out []Segment
	for _, s := range in.Segments {
		if s.Role&scope != 0 {
			out = append(out, s)
		}
	}
	return out
}

// Prepare joins the text of each scope ahead of concurrent Text calls, and the user's turns
// (userTurns) of each scope that reads user messages.
func (in *Input) Prepare(scopes ...Role) {
	for _, sc := range scopes {
		if _, ok := in.prepared(sc); !ok {
			if in.joined == nil {
				in.joined = make([]scopeText, 0, 2)
			}
			in.joined = append(in.joined, scopeText{sc, in.join(sc)})
			if sc&RoleUser != 0 {
				turns, _ := in.joinTurns(nil)
				in.joined = append(in.joined, scopeText{sc | turnsOf, turns})
			}
		}
	}
}

// turnsOf marks the user's turns of a scope among the prepared texts.
const turnsOf Role = 1 << 7

// Text is the normalised text of the segments in scope, one per line. A scope not passed to
// Prepare is joined on each call.
func (in *Input) Text(scope Role) string {
	if t, ok := in.prepared(scope); ok {
		return t
	}
	return in.join(scope)
}

func (in *Input) prepared(scope Role) (string, bool) {
	for _, j := range in.joined {
		if j.scope == scope {
			return j.text, true
		}
	}
	return "", false
}

// join is strings.Join of the non-empty texts in scope with "\n"; a single text is returned
// as is.
func (in *Input) join(scope Role) string {
	n, size, only := 0, 0, ""
	for _, s := range in.Segments {
		if s.Role&scope != 0 && s.Text != "" {
			n, size, only = n+1, size+len(s.Text), s.Text
		}
	}
	if n <= 1 {
		return only
	}
	var b strings.Builder
	b.Grow(size + n - 1)
	for _, s := range in.Segments {
		if s.Role&scope != 0 && s.Text != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(s.Text)
		}
	}
	return b.String()
}

// ackWords is the most words an assistant message between two user messages may have and
// still count as an acknowledgement ("ok", "go on", "sure, continue") in userTurns.
const ackWords = 3

// userTurns is the text of the user's messages as one, when scope reads user messages and
// the conversation has two or more: each message's normalised text, in order, separated by
// spaces, with the acknowledgements between them (assistant messages of ackWords words or
// fewer, which a client may write itself to cut a text into turns). The assistant's answers
// and the system and tool messages are not part of it: they are read on their own, and text
// that runs on from one speaker to another is not something either of them wrote.
func (in *Input) userTurns(scope Role) (string, bool) {
	if scope&RoleUser == 0 {
		return "", false
	}
	if t, ok := in.prepared(scope | turnsOf); ok {
		return t, t != ""
	}
	return in.joinTurns(nil)
}

// TurnSpan is where one message's normalised text stands in the user's turns.
type TurnSpan struct {
	// Message is the index of the message in the conversation.
	Message int
	// Start and End are byte offsets in the joined text.
	Start, End int
}

// UserTurns is the text the policy signals read of the user's messages as one (the user
// messages and the acknowledgements between them, each normalised, separated by spaces), and
// where each of those messages stands in it; "" and nil with fewer than two user messages.
// It is for rewriting what the policies found there, such as a value cut into two messages.
func (in *Input) UserTurns() (string, []TurnSpan) {
	var spans []TurnSpan
	text, ok := in.joinTurns(&spans)
	if !ok {
		return "", nil
	}
	return text, spans
}

// joinTurns builds userTurns' text, recording each message's place in spans when it is not
// nil; "" and false with fewer than two user messages.
func (in *Input) joinTurns(spans *[]TurnSpan) (string, bool) {
	var b strings.Builder
	users := 0
	pending := -1 // the acknowledgement since the last user message
	write := func(s Segment) {
		if spans != nil {
			*spans = append(*spans, TurnSpan{Message: s.Message, Start: b.Len(), End: b.Len() + len(s.Text)})
		}
		b.WriteString(s.Text)
	}
	for i, s := range in.Segments {
		switch {
		case s.Aside || s.ToolCall || s.Text == "":
		case s.Role&RoleUser != 0:
			if b.Len() > 0 {
				b.WriteByte(' ')
				if pending >= 0 {
					write(in.Segments[pending])
					b.WriteByte(' ')
				}
			}
			write(s)
			users++
			pending = -1
		case s.Role&RoleAssistant != 0 && countFields(s.Text) <= ackWords:
			pending = i
		default:
			pending = -1
		}
	}
	if users < 2 {
		return "", false
	}
	return b.String(), true
}
