package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Problem is one thing wrong with a configuration, located by field path and YAML line.
type Problem struct {
	// Path is the field path, as in models[2].provider.base_url; empty for the document.
	Path string
	// Line is the 1-based YAML line, or 0 when unknown (a config not read from YAML).
	Line    int
	Message string
	// kept says that the value at Path was kept (a repeated key, whose first value counts), so
	// that the problems Validate finds beneath it are reported too.
	kept bool
}

func (p Problem) Error() string {
	switch {
	case p.Path == "" && p.Line > 0:
		return fmt.Sprintf("line %d: %s", p.Line, p.Message)
	case p.Path == "":
		return p.Message
	case p.Line > 0:
		return fmt.Sprintf("%s (line %d): %s", p.Path, p.Line, p.Message)
	default:
		return fmt.Sprintf("%s: %s", p.Path, p.Message)
	}
}

// Problems lists every problem found in one configuration. Its Error has one problem a line.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// Load reads, decodes, defaults and validates the configuration file at path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	cfg, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("config %s:\n%w", path, err)
	}
	return cfg, nil
}

// Parse decodes a YAML configuration strictly (unknown fields and wrong types are problems),
// applies the defaults and validates the result. The error, if any, is Problems.
func Parse(data []byte) (*Config, error) {
	doc, problem := oneDocument(data)
	if problem != nil {
		return nil, Problems{*problem}
	}
	cfg := &Config{lines: map[string]int{}}
	if len(doc.Content) == 0 || bytes.TrimSpace(data) == nil {
		cfg.ApplyDefaults()
		return cfg, cfg.Validate()
	}
	root := doc.Content[0]
	// walk reports unknown fields and badly typed values and drops them from the tree, so
	// that the rest still decodes and validates: one run shows every problem.
	var problems Problems
	if n := countNodes(root, maxNodes); n > maxNodes {
		return nil, Problems{{Message: fmt.Sprintf("the document expands to more than %d YAML nodes (aliases referring to aliases?); write it out", maxNodes)}}
	}
	walk(root, reflect.TypeFor[Config](), "", cfg.lines, &problems)
	if err := root.Decode(cfg); err != nil {
		// walk checked every field's type, so this is unexpected; report it rather than lose it.
		return nil, append(problems, Problem{Message: err.Error()})
	}
	cfg.ApplyDefaults()
	var invalid Problems
	if !errors.As(cfg.Validate(), &invalid) && len(problems) == 0 {
		return cfg, nil
	}
	reported := make(map[string]bool, len(problems))
	for _, p := range problems {
		if !p.kept {
			reported[p.Path] = true
		}
	}
	for _, p := range invalid {
		if !underReported(p.Path, reported) { // a dropped value must not also be reported as missing
			problems = append(problems, p)
		}
	}
	slices.SortStableFunc(problems, func(a, b Problem) int { return a.Line - b.Line })
	return nil, problems
}

func underReported(path string, reported map[string]bool) bool {
	for p := path; p != ""; p = parentPath(p) {
		if reported[p] {
			return true
		}
	}
	return false
}

// oneDocument parses data as YAML and returns its document. Empty documents (a leading or
// trailing "---") are skipped; a second document with content is a problem, since it would
// otherwise be ignored, and every model and field in it: a file built by joining two, or a
// template's stray separator.
func oneDocument(data []byte) (yaml.Node, *Problem) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	for {
		var next yaml.Node
		err := dec.Decode(&next)
		if errors.Is(err, io.EOF) {
			return doc, nil
		}
		if err != nil {
			p := yamlSyntaxProblem(err)
			return doc, &p
		}
		if len(next.Content) == 0 || next.Content[0].Kind == yaml.ScalarNode && next.Content[0].Tag == "!!null" {
			continue
		}
		if len(doc.Content) > 0 {
			return doc, &Problem{Line: next.Content[0].Line,
				Message: "a second YAML document starts here; the config is one document: remove the --- before it or merge the two"}
		}
		doc = next
	}
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func yamlSyntaxProblem(err error) Problem {
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return Problem{Line: line, Message: "invalid YAML: " + m[2]}
	}
	return Problem{Message: "invalid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
}

// maxNodes bounds the YAML tree after alias expansion, so that a few nested aliases cannot
// make loading take exponential time and memory. Real configurations have a few thousand.
const maxNodes = 200_000

// countNodes counts the nodes of the tree with aliases expanded, stopping past limit.
func countNodes(n *yaml.Node, limit int) int {
	count := 0
	var visit func(*yaml.Node, int)
	visit = func(n *yaml.Node, depth int) {
		if count > limit || depth > 10_000 {
			count = limit + 1
			return
		}
		count++
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			visit(n.Alias, depth+1)
			return
		}
		for _, c := range n.Content {
			visit(c, depth+1)
		}
	}
	visit(n, 0)
	return count
}

var unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()

// walk checks node against type t: mappings may only name known fields, sequences and maps
// recurse, and every scalar must decode into its field's type. It records the line of every
// path it visits so that Validate can point at them.
func walk(n *yaml.Node, t reflect.Type, path string, lines map[string]int, problems *Problems) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if path != "" {
		if _, seen := lines[path]; !seen {
			lines[path] = n.Line
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) || t.Kind() == reflect.Interface {
		if err := n.Decode(reflect.New(t).Interface()); err != nil {
			*problems = append(*problems, Problem{Path: path, Line: n.Line, Message: decodeMessage(err, t, n)})
			drop(n)
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			*problems = append(*problems, Problem{Path: path, Line: n.Line, Message: "must be a mapping"})
			drop(n)
			return
		}
		fields := yamlFields(t)
		kept := n.Content[:0]
		seen := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, val := n.Content[i], n.Content[i+1]
			child := joinPath(path, key.Value)
			if repeated(seen, key, child, problems) {
				continue
			}
			f, ok := fields[key.Value]
			if !ok {
				msg := "unknown field"
				if s := suggest(key.Value, keys(fields)); s != "" {
					msg += fmt.Sprintf("; did you mean %q?", s)
				}
				*problems = append(*problems, Problem{Path: child, Line: key.Line, Message: msg})
				continue
			}
			lines[child] = key.Line
			walk(val, f.Type, child, lines, problems)
			kept = append(kept, key, val)
		}
		n.Content = kept
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			*problems = append(*problems, Problem{Path: path, Line: n.Line, Message: "must be a list"})
			drop(n)
			return
		}
		for i, item := range n.Content {
			walk(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i), lines, problems)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			*problems = append(*problems, Problem{Path: path, Line: n.Line, Message: "must be a mapping"})
			drop(n)
			return
		}
		kept := n.Content[:0]
		seen := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, val := n.Content[i], n.Content[i+1]
			child := joinPath(path, key.Value)
			if repeated(seen, key, child, problems) {
				continue
			}
			walk(val, t.Elem(), child, lines, problems)
			kept = append(kept, key, val)
		}
		n.Content = kept
	default:
		if n.Kind != yaml.ScalarNode {
			*problems = append(*problems, Problem{Path: path, Line: n.Line, Message: "must be " + kindName(t)})
			drop(n)
			return
		}
		if err := n.Decode(reflect.New(t).Interface()); err != nil {
			*problems = append(*problems, Problem{Path: path, Line: n.Line, Message: decodeMessage(err, t, n)})
			drop(n)
		}
	}
}

// repeated reports whether key was already a key of its mapping (seen holds their lines),
// recording a problem if so. YAML forbids a key twice in one mapping; the decoder would stop
// at the first such key with no field path, hiding every other problem, so the later one is
// reported and left out instead, and the first one counts.
func repeated(seen map[string]int, key *yaml.Node, path string, problems *Problems) bool {
	if first, ok := seen[key.Value]; ok {
		*problems = append(*problems, Problem{Path: path, Line: key.Line,
			Message: fmt.Sprintf("the key is repeated; line %d sets it already", first), kept: true})
		return true
	}
	seen[key.Value] = key.Line
	return false
}

// drop turns a node that could not be decoded into null, so that decoding the rest goes on.
func drop(n *yaml.Node) {
	*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: n.Line, Column: n.Column}
}

func decodeMessage(err error, t reflect.Type, n *yaml.Node) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("must be %s, not %q", kindName(t), n.Value)
	}
	return err.Error()
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	default:
		return "a " + t.Kind().String()
	}
}

type yamlField struct{ Type reflect.Type }

func yamlFields(t reflect.Type) map[string]yamlField {
	out := make(map[string]yamlField, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if opts == "inline" && f.Type.Kind() == reflect.Struct {
			maps.Copy(out, yamlFields(f.Type)) // a group of fields written in the parent's block
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = yamlField{Type: f.Type}
	}
	return out
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func joinPath(parent, child string) string {
	if parent == "" {
		return child
	}
	return parent + "." + child
}
