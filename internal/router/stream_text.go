package router

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/semantic-router/semantic-router/internal/redact"
)

// streamText keeps the credential values the router holds out of the text a client joins
// from a stream's events. A value the backend writes into its answer (a server that echoes
// the Authorization header, a model that repeats a key from its context) comes token by
// token, so no single event holds it: each event's text goes out up to the run of
// characters at its end that could be part of a value (redact.Redactor.Split, which holds
// the same run whether or not it begins one), and the rest waits for the next event of the
// same field. The event that finishes a choice takes what its fields still hold; held text
// of a choice that finishes without text of its own, or of a stream that ends without a
// finish, goes out in an event of its own before that.
type streamText struct {
	red   *redact.Redactor
	read  chunkReader // reused: its decoder keeps its buffers from chunk to chunk
	held  map[textField]string
	order []textField // the held fields, in the order they were first held
	env   envelope    // of the last chunk, for the events of held text
}

// textField is one text a client joins from the deltas of a stream.
type textField struct {
	choice int64
	tool   int64  // the tool call's index, for its arguments; -1 for the delta's own text
	name   string // content, reasoning_content, reasoning, refusal, arguments, function_call.arguments or audio.transcript
}

// envelope is the members every chunk repeats, as the backend wrote them.
type envelope struct{ id, object, created, model []byte }

// textSpan is one text member of a chunk: where its string is, and its text.
type textSpan struct {
	choicePos, toolPos int // positions in the arrays, resolved to their "index" members
	name               string
	start, end         int
	text               string
}

// chunkText is what a chunk says that streamText needs.
type chunkText struct {
	spans    []textSpan
	indexes  []posIndex // the "index" members of choices and tool calls
	finished []int      // positions of choices with a finish_reason
	env      envelope
}

// posIndex is the "index" member of the choice at position choice (tool < 0), or of its
// tool call at position tool.
type posIndex struct {
	choice, tool int
	index        int64
}

// redactAnswer returns a whole answer with every value red holds replaced; an answer that held
// one also loses its choices' logprobs, whose tokens would spell it.
func redactAnswer(red *redact.Redactor, body []byte) []byte {
	out := red.JSON(body)
	if bytes.Equal(out, body) {
		return out
	}
	var rd chunkReader
	c, ok := rd.chunk(out)
	if !ok {
		return out
	}
	var b []byte
	last := 0
	for _, sp := range c.spans {
		if sp.name == logprobsSpan {
			b = append(b, out[last:sp.start]...)
			b = append(b, "null"...)
			last = sp.end
		}
	}
	if b == nil {
		return out
	}
	return append(b, out[last:]...)
}

func newStreamText(red *redact.Redactor) *streamText {
	return &streamText{red: red, held: map[textField]string{}}
}

// chunk returns the events to send for one chunk's JSON: those of held text that must go
// before it, and the chunk itself with its text cut where a value may begin. A chunk that
// does not read as a chat completion chunk is returned as it came.
func (st *streamText) chunk(data []byte) (before [][]byte, out []byte) {
	c, ok := st.read.chunk(data)
	if !ok {
		return nil, data
	}
	st.env.set(&c.env)
	finished := func(choice int64) bool {
		for _, pos := range c.finished {
			if c.index(pos, -1) == choice {
				return true
			}
		}
		return false
	}
	// First what each text sends. A choice whose text had a value replaced in this event, or
	// holds enough of one to tell (redact.Redactor.Telling), loses its logprobs in this event: their
	// tokens spell the text as the backend sent it. Shorter held text, which tells nothing,
	// keeps them, as the rest of the stream does.
	sends := make([]string, len(c.spans))
	var touched []int64
	for i, sp := range c.spans {
		if sp.name == logprobsSpan {
			continue
		}
		f := textField{choice: c.index(sp.choicePos, -1), tool: -1, name: sp.name}
		if sp.toolPos >= 0 {
			f.tool = c.index(sp.choicePos, sp.toolPos)
		}
		prev, wasHeld := st.held[f]
		send, held := st.red.Split(prev + sp.text)
		if finished(f.choice) {
			send, held = send+st.red.Unfinished(held), ""
		}
		st.hold(f, held, wasHeld)
		sends[i] = send
		if st.red.Telling(held) || send != sp.text && strings.Contains(send, redact.Mask) {
			touched = append(touched, f.choice)
		}
	}
	out = data
	var rewritten []byte
	last := 0
	for i, sp := range c.spans {
		var with []byte
		switch {
		case sp.name == logprobsSpan:
			if !slices.Contains(touched, c.index(sp.choicePos, -1)) {
				continue
			}
			with = []byte("null")
		case sends[i] == sp.text:
			continue
		default:
			with, _ = jsontext.AppendQuote(nil, sends[i])
		}
		rewritten = append(rewritten, data[last:sp.start]...)
		rewritten = append(rewritten, with...)
		last = sp.end
	}
	if rewritten != nil {
		out = append(rewritten, data[last:]...)
	}
	for _, f := range st.order {
		if finished(f.choice) {
			before = append(before, st.flush(f))
		}
	}
	return before, out
}

// end returns the events of the text still held when the stream ends without the finish of
// its choices.
func (st *streamText) end() [][]byte {
	var out [][]byte
	for len(st.order) > 0 {
		out = append(out, st.flush(st.order[0]))
	}
	return out
}

// hold records what field f holds now.
func (st *streamText) hold(f textField, held string, wasHeld bool) {
	switch {
	case held != "":
		st.held[f] = held
		if !wasHeld {
			st.order = append(st.order, f)
		}
	case wasHeld:
		delete(st.held, f)
		st.order = removeField(st.order, f)
	}
}

// flush returns an event with what f holds, and forgets it.
func (st *streamText) flush(f textField) []byte {
	text := st.red.Unfinished(st.held[f])
	st.hold(f, "", true)
	b := []byte(`{`)
	for _, m := range []struct {
		name string
		v    []byte
	}{{"id", st.env.id}, {"object", st.env.object}, {"created", st.env.created}, {"model", st.env.model}} {
		if len(m.v) > 0 {
			b = append(b, `"`+m.name+`":`...)
			b = append(b, m.v...)
			b = append(b, ',')
		}
	}
	b = append(b, `"choices":[{"index":`...)
	b = strconv.AppendInt(b, f.choice, 10)
	b = append(b, `,"delta":{`...)
	if f.tool >= 0 {
		b = append(b, `"tool_calls":[{"index":`...)
		b = strconv.AppendInt(b, f.tool, 10)
		b = append(b, `,"function":{"arguments":`...)
		b, _ = jsontext.AppendQuote(b, text)
		b = append(b, `}}]`...)
	} else {
		// A nested field ("audio.transcript") is written as its object with the one member.
		object, member, nested := strings.Cut(f.name, ".")
		if nested {
			b = append(b, `"`+object+`":{`...)
		} else {
			member = f.name
		}
		b = append(b, '"')
		b = append(b, member...)
		b = append(b, `":`...)
		b, _ = jsontext.AppendQuote(b, text)
		if nested {
			b = append(b, '}')
		}
	}
	return append(b, `},"finish_reason":null}]}`...)
}

func removeField(fs []textField, f textField) []textField {
	for i, g := range fs {
		if g == f {
			return append(fs[:i], fs[i+1:]...)
		}
	}
	return fs
}

// index returns the "index" member of the choice at position choice (tool < 0) or of its
// tool call at position tool, or the position when there is none.
func (c *chunkText) index(choice, tool int) int64 {
	for _, p := range c.indexes {
		if p.choice == choice && p.tool == tool {
			return p.index
		}
	}
	if tool >= 0 {
		return int64(tool)
	}
	return int64(choice)
}

// set keeps the members the chunk from had (a JSON value is never empty), as copies: from's
// are reused by the next read.
func (e *envelope) set(from *envelope) {
	for _, m := range []struct{ dst, src *[]byte }{{&e.id, &from.id}, {&e.object, &from.object}, {&e.created, &from.created}, {&e.model, &from.model}} {
		if len(*m.src) > 0 {
			*m.dst = append((*m.dst)[:0], *m.src...)
		}
	}
}

// chunkReader walks a chunk with a decoder, recording what streamText needs in c. Member
// names are compared as the backend wrote them; one written with escapes is not recognised,
// and its value is left to the per-event redaction.
type chunkReader struct {
	rd  bytes.Reader
	dec jsontext.Decoder
	c   chunkText
}

// errNotChunk stops a walk at a value of an unexpected kind.
var errNotChunk = errors.New("not a chat completion chunk")

var decodeOptions = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// chunk reads a chunk's text members, the "index" of its choices and tool calls, which
// choices finish, and its envelope; ok is false when data is not a JSON object. What it
// returns is valid until the next call.
func (r *chunkReader) chunk(data []byte) (c *chunkText, ok bool) {
	r.rd.Reset(data)
	r.dec.Reset(&r.rd, decodeOptions...)
	r.c.spans, r.c.indexes, r.c.finished = r.c.spans[:0], r.c.indexes[:0], r.c.finished[:0]
	r.c.env.id, r.c.env.object, r.c.env.created, r.c.env.model = r.c.env.id[:0], r.c.env.object[:0], r.c.env.created[:0], r.c.env.model[:0]
	if r.dec.PeekKind() != '{' {
		return nil, false
	}
	err := r.members(func(name jsontext.Value) error {
		switch string(name) {
		case `"choices"`:
			return r.choices()
		case `"id"`:
			return r.member(&r.c.env.id)
		case `"object"`:
			return r.member(&r.c.env.object)
		case `"created"`:
			return r.member(&r.c.env.created)
		case `"model"`:
			return r.member(&r.c.env.model)
		}
		return r.dec.SkipValue()
	})
	if err != nil {
		return nil, false
	}
	return &r.c, true
}

// member reads a value into dst, as a copy: the decoder's buffer moves on.
func (r *chunkReader) member(dst *[]byte) error {
	v, err := r.dec.ReadValue()
	*dst = append((*dst)[:0], v...)
	return err
}

// open reads the start of an object or array of kind; it skips a value of another kind and
// reports false.
func (r *chunkReader) open(kind jsontext.Kind) bool {
	switch r.dec.PeekKind() {
	case kind:
		_, err := r.dec.ReadToken()
		return err == nil
	case 0:
		return false
	}
	_ = r.dec.SkipValue()
	return false
}

// close reads the end of the object or array open.
func (r *chunkReader) close() error {
	if r.dec.PeekKind() == 0 {
		return errNotChunk
	}
	_, err := r.dec.ReadToken()
	return err
}

func (r *chunkReader) choices() error {
	return r.elements(r.choice)
}

// failed is the error of a value open did not read: none when it was skipped whole.
func (r *chunkReader) failed() error {
	if r.dec.PeekKind() == 0 && r.dec.StackDepth() > 0 {
		return errNotChunk
	}
	return nil
}

// members reads an object, calling member with each name (as written, quotes included) with
// the decoder before its value, which member must read or skip; a value that is not an object
// is skipped.
func (r *chunkReader) members(member func(name jsontext.Value) error) error {
	if !r.open('{') {
		return r.failed()
	}
	for r.dec.PeekKind() == '"' {
		name, err := r.dec.ReadValue()
		if err != nil {
			return err
		}
		if err := member(name); err != nil {
			return err
		}
	}
	return r.close()
}

// elements reads an array of objects, calling elem with each one's position before it; a
// value that is not an array is skipped.
func (r *chunkReader) elements(elem func(pos int) error) error {
	if !r.open('[') {
		return r.failed()
	}
	for pos := 0; r.dec.PeekKind() == '{'; pos++ {
		if err := elem(pos); err != nil {
			return err
		}
	}
	return r.close()
}

func (r *chunkReader) choice(pos int) error {
	return r.members(func(name jsontext.Value) error {
		switch string(name) {
		case `"index"`:
			return r.index(pos, -1)
		case `"finish_reason"`:
			v, err := r.dec.ReadValue()
			if err == nil && v.Kind() == '"' {
				r.c.finished = append(r.c.finished, pos)
			}
			return err
		case `"logprobs"`:
			return r.logprobs(pos)
		case `"delta"`:
			return r.members(func(name jsontext.Value) error {
				switch string(name) {
				case `"content"`:
					return r.text(pos, -1, "content")
				case `"reasoning_content"`:
					return r.text(pos, -1, "reasoning_content")
				case `"reasoning"`:
					return r.text(pos, -1, "reasoning")
				case `"refusal"`:
					return r.text(pos, -1, "refusal")
				case `"tool_calls"`:
					return r.elements(func(tool int) error { return r.toolCall(pos, tool) })
				case `"function_call"`: // the deprecated single call, still streamed by some servers
					return r.nested(pos, "arguments", "function_call.arguments")
				case `"audio"`:
					return r.nested(pos, "transcript", "audio.transcript")
				}
				return r.dec.SkipValue()
			})
		}
		return r.dec.SkipValue()
	})
}

// nested records the string member member of the delta's object at the decoder as the
// text field named name ("object.member").
func (r *chunkReader) nested(choice int, member, name string) error {
	return r.members(func(n jsontext.Value) error {
		if string(n) == `"`+member+`"` {
			return r.text(choice, -1, name)
		}
		return r.dec.SkipValue()
	})
}

func (r *chunkReader) toolCall(choice, pos int) error {
	return r.members(func(name jsontext.Value) error {
		switch string(name) {
		case `"index"`:
			return r.index(choice, pos)
		case `"function"`:
			return r.members(func(name jsontext.Value) error {
				if string(name) == `"arguments"` {
					return r.text(choice, pos, "arguments")
				}
				return r.dec.SkipValue()
			})
		}
		return r.dec.SkipValue()
	})
}

// logprobsSpan names the span of a choice's logprobs value.
const logprobsSpan = "logprobs"

// logprobs records where a choice's logprobs value is, when it is not null.
func (r *chunkReader) logprobs(choice int) error {
	v, err := r.dec.ReadValue()
	if err != nil || v.Kind() == 'n' {
		return err
	}
	end := int(r.dec.InputOffset())
	r.c.spans = append(r.c.spans, textSpan{choicePos: choice, toolPos: -1, name: logprobsSpan, start: end - len(v), end: end})
	return nil
}

// index reads an "index" member, recorded when it is an integer.
func (r *chunkReader) index(choice, tool int) error {
	v, err := r.dec.ReadValue()
	if err != nil {
		return err
	}
	if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		r.c.indexes = append(r.c.indexes, posIndex{choice: choice, tool: tool, index: i})
	}
	return nil
}

// text records a string member as a span; a member of another kind is skipped.
func (r *chunkReader) text(choice, tool int, name string) error {
	v, err := r.dec.ReadValue()
	if err != nil || v.Kind() != '"' {
		return err
	}
	s, err := jsontext.AppendUnquote(nil, v)
	if err != nil {
		return err
	}
	end := int(r.dec.InputOffset())
	r.c.spans = append(r.c.spans, textSpan{choicePos: choice, toolPos: tool, name: name,
		start: end - len(v), end: end, text: string(s)})
	return nil
}
