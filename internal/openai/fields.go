package openai

import (
	"reflect"
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
