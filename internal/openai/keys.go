package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A request is forwarded with every member the router does not know, so a key that differs
// from a known field only in case ("Model", "Messages", "Role") would reach the backend
// beside the field the router checked. Backends that decode JSON case-insensitively (Go's
// encoding/json: Ollama, LocalAI, Go proxies) take the last match, which lets such a key
// slip a model past an allowlist or a message past the policies. An exact duplicate of a
// known field is the same trick for backends that keep the first match. checkKeys refuses
// both, in every object whose fields the router reads.

// object is one kind of JSON object the router reads: its fields, spelled exactly, and the
// objects nested under some of them.
type object struct {
	names  []string
	bnames [][]byte // names, as bytes: keys are compared without allocating
	nested map[string]nested
}

// nested is the object (or array of objects, when array is set) that a field holds.
type nested struct {
	obj   *object
	array bool
}

func objectOf[T any](extra ...string) *object {
	idx := fieldIndex[T]()
	names := make([]string, 0, len(idx)+len(extra))
	for n := range idx {
		names = append(names, n)
	}
	names = append(names, extra...)
	return newObject(names...)
}

func newObject(names ...string) *object {
	slices.Sort(names)
	o := &object{names: names}
	for _, n := range names {
		o.bnames = append(o.bnames, []byte(n))
	}
	return o
}

// requestShape is the chat request as the router reads it. Content parts carry image_url,
// which the router reads too (ContentPart.ImageURL).
var requestShape = func() *object {
	function := objectOf[FunctionCall]()
	toolCall := objectOf[ToolCall]()
	toolCall.nested = map[string]nested{"function": {obj: function}}
	spec := objectOf[FunctionSpec]()
	tool := objectOf[Tool]()
	tool.nested = map[string]nested{"function": {obj: spec}}
	imageURL := newObject("url")
	part := objectOf[ContentPart]("image_url")
	part.nested = map[string]nested{"image_url": {obj: imageURL}}
	msg := objectOf[Message]()
	msg.nested = map[string]nested{"content": {obj: part, array: true}, "tool_calls": {obj: toolCall, array: true}}
	req := objectOf[ChatRequest]()
	req.nested = map[string]nested{
		"messages":       {obj: msg, array: true},
		"tools":          {obj: tool, array: true},
		"stream_options": {obj: objectOf[StreamOptions]()},
	}
	return req
}()

// pathElem is one step of the path to the object being read: a member name, or an index
// when name is empty.
type pathElem struct {
	name  string
	index int
}

// keyScanner walks a JSON document along a shape. It is lenient: on malformed input it
// stops (bad) and leaves the error to the decoder, which reports it with its position.
type keyScanner struct {
	data []byte
	pos  int
	bad  bool
	path []pathElem
}

// checkKeys returns a 400 naming the first member of body that duplicates a known field
// or differs from one only in case, or nil.
func checkKeys(body []byte) *APIError {
	s := &keyScanner{data: body, path: make([]pathElem, 0, 8)}
	s.ws()
	if s.peek() != '{' {
		return nil
	}
	return s.object(requestShape)
}

func (s *keyScanner) peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	s.bad = true
	return 0
}

func (s *keyScanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// object reads the object at pos (which is '{') and checks its keys against o.
func (s *keyScanner) object(o *object) *APIError {
	s.pos++
	var seen uint64 // bit i: o.names[i] was seen
	for first := true; ; first = false {
		s.ws()
		c := s.peek()
		if c == '}' {
			s.pos++
			return nil
		}
		if !first {
			if c != ',' {
				s.bad = true
				return nil
			}
			s.pos++
			s.ws()
		}
		key, ok := s.key()
		if !ok {
			return nil
		}
		s.ws()
		if s.peek() != ':' {
			s.bad = true
			return nil
		}
		s.pos++
		s.ws()
		i := slices.IndexFunc(o.bnames, func(n []byte) bool { return bytes.Equal(n, key) })
		if i < 0 {
			for _, n := range o.names {
				if bytes.EqualFold(key, []byte(n)) {
					return s.refuse(string(key), fmt.Sprintf("field %q differs from %q only in case; field names are case-sensitive, send %q once", key, n, n))
				}
			}
			if !s.skip() {
				return nil
			}
			continue
		}
		if seen&(1<<i) != 0 {
			return s.refuse(o.names[i], fmt.Sprintf("field %q appears twice; send it once", o.names[i]))
		}
		seen |= 1 << i
		if err := s.value(o.names[i], o.nested[o.names[i]]); err != nil || s.bad {
			return err
		}
	}
}

// value reads the value of member key, descending into it when n says it holds objects
// the router reads.
func (s *keyScanner) value(key string, n nested) *APIError {
	c := s.peek()
	switch {
	case n.obj != nil && !n.array && c == '{':
		s.path = append(s.path, pathElem{name: key})
		err := s.object(n.obj)
		s.path = s.path[:len(s.path)-1]
		return err
	case n.obj != nil && n.array && c == '[':
		s.path = append(s.path, pathElem{name: key})
		err := s.array(n.obj)
		s.path = s.path[:len(s.path)-1]
		return err
	default:
		s.skip()
		return nil
	}
}

// array reads the array at pos, checking each element that is an object against o.
func (s *keyScanner) array(o *object) *APIError {
	s.pos++
	for i := 0; ; i++ {
		s.ws()
		c := s.peek()
		if c == ']' {
			s.pos++
			return nil
		}
		if i > 0 {
			if c != ',' {
				s.bad = true
				return nil
			}
			s.pos++
			s.ws()
			c = s.peek()
		}
		if c != '{' {
			if !s.skip() {
				return nil
			}
			continue
		}
		s.path = append(s.path, pathElem{index: i})
		err := s.object(o)
		s.path = s.path[:len(s.path)-1]
		if err != nil || s.bad {
			return err
		}
	}
}

// key reads a member name, unescaping it as the decoder would.
func (s *keyScanner) key() ([]byte, bool) {
	if s.peek() != '"' {
		s.bad = true
		return nil, false
	}
	start := s.pos
	if !s.skipString() {
		return nil, false
	}
	raw := s.data[start:s.pos]
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1], true
	}
	var k string
	if json.Unmarshal(raw, &k) != nil {
		s.bad = true
		return nil, false
	}
	return []byte(k), true
}

// skipString moves past the string at pos (which is '"').
func (s *keyScanner) skipString() bool {
	i := s.pos + 1
	for {
		j := bytes.IndexByte(s.data[i:], '"')
		if j < 0 {
			s.bad = true
			return false
		}
		i += j
		backslashes := 0
		for k := i - 1; k > s.pos && s.data[k] == '\\'; k-- {
			backslashes++
		}
		i++
		if backslashes%2 == 0 {
			s.pos = i
			return true
		}
	}
}

// skip moves past the value at pos, without recursion however deep it nests.
func (s *keyScanner) skip() bool {
	switch c := s.peek(); c {
	case '"':
		return s.skipString()
	case '{', '[':
		depth := 0
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case '"':
				if !s.skipString() {
					return false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			s.pos++
			if depth == 0 {
				return true
			}
		}
		s.bad = true
		return false
	default:
		start := s.pos
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return s.pos > start || s.fail()
			}
			s.pos++
		}
		return s.pos > start || s.fail()
	}
}

func (s *keyScanner) fail() bool {
	s.bad = true
	return false
}

// refuse returns the 400 for member key of the object at the current path.
func (s *keyScanner) refuse(key, msg string) *APIError {
	var sb strings.Builder
	for _, e := range s.path {
		if e.name == "" {
			sb.WriteString("[" + strconv.Itoa(e.index) + "]")
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(e.name)
	}
	where := sb.String()
	param := key
	if where != "" {
		param = where + "." + key
		msg = where + ": " + msg
	}
	return BadRequest(param, msg)
}
