package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
)

// fieldIndex maps the JSON names of T's tagged fields to their indexes: the fields a type
// decodes itself, so that everything else can be kept as an extra.
func fieldIndex[T any]() map[string]int {
	t := reflect.TypeFor[T]()
	names := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name != "" && name != "-" {
			names[name] = i
		}
	}
	return names
}

// decodeObject decodes the JSON object data into the struct dst points to, member by member,
// and returns the members it has no field for (nil when there are none) and all members. The
// object is scanned once and each known member once more, instead of decoding the whole
// object twice. A type error names the member's path in its Field.
func decodeObject(data []byte, dst any, fields map[string]int) (extra, all map[string]json.RawMessage, err error) {
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, nil, err
	}
	v := reflect.ValueOf(dst).Elem()
	for k, raw := range all {
		i, known := fields[k]
		if !known {
			if extra == nil {
				extra = make(map[string]json.RawMessage)
			}
			extra[k] = raw
			continue
		}
		if err := json.Unmarshal(raw, v.Field(i).Addr().Interface()); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				if te.Field != "" {
					te.Field = k + "." + te.Field
				} else {
					te.Field = k
				}
				return nil, nil, te
			}
			return nil, nil, err
		}
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
