package openai

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// fieldSet returns the JSON names of T's tagged fields: the fields a type decodes itself, so
// that everything else can be kept as an extra.
func fieldSet[T any]() map[string]bool {
	t := reflect.TypeFor[T]()
	names := make(map[string]bool, t.NumField())
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name != "" && name != "-" {
			names[name] = true
		}
	}
	return names
}

// unknownFields returns the members of the JSON object data whose names are not in known
// (nil when there are none), and all members.
func unknownFields(data []byte, known map[string]bool) (extra, all map[string]json.RawMessage, err error) {
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, nil, err
	}
	for k, v := range all {
		if known[k] {
			continue
		}
		if extra == nil {
			extra = make(map[string]json.RawMessage)
		}
		extra[k] = v
	}
	return extra, all, nil
}

// appendFields adds extra members to the encoded JSON object obj, in sorted key order so the
// output is deterministic.
func appendFields(obj []byte, extra map[string]json.RawMessage) ([]byte, error) {
	if len(extra) == 0 {
		return obj, nil
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var buf bytes.Buffer
	buf.Grow(len(obj) + 64*len(extra))
	buf.Write(obj[:len(obj)-1]) // drop the closing brace
	empty := bytes.Equal(bytes.TrimSpace(obj), []byte("{}"))
	for i, k := range keys {
		if i > 0 || !empty {
			buf.WriteByte(',')
		}
		name, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		buf.Write(name)
		buf.WriteByte(':')
		v := extra[k]
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
