package examples

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/semantic-router/semantic-router/internal/config"
)

// fragmentBase is the configuration a documented fragment (a YAML block without a models
// list, such as a server, admission or signals section) is merged into: the models and
// signals the docs' fragments name.
const fragmentBase = `
models:
  - {model_name: general, provider: {type: sim}}
  - {model_name: reasoning, reasoning_family: qwen3, provider: {type: sim}}
  - {model_name: small, provider: {type: sim}}
  - {model_name: qwen, provider: {type: sim}}
signals:
  domains:
    - {name: stem, categories: [math, physics, chemistry]}
  complexity:
    - {name: hard, min_level: high}
  jailbreak:
    - {name: jailbreak}
`

// placeholders are the values the docs leave for the reader to fill in.
var placeholders = strings.NewReplacer(
	"<64 hex digits>", strings.Repeat("0123456789abcdef", 4),
	"<bytes>", "1",
)

// TestDocumentedFragmentsLoad keeps the documentation's partial configurations honest: every
// YAML block in README.md and docs/ that is neither a whole router configuration (checked by
// TestDocumentedConfigsLoad) nor a Kubernetes manifest (checked by the operator's tests) must
// load once merged into fragmentBase: maps are merged key by key, and a list in the fragment
// replaces the base's.
func TestDocumentedFragmentsLoad(t *testing.T) {
	files, _ := filepath.Glob("../docs/*.md")
	files = append(files, "../README.md")
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range yamlBlock.FindAllSubmatch(b, -1) {
			block := []byte(placeholders.Replace(string(m[1])))
			var frag map[string]any
			if err := yaml.Unmarshal(block, &frag); err != nil {
				t.Errorf("%s, YAML block %d: %v", f, i+1, err)
				continue
			}
			if frag["models"] != nil || frag["apiVersion"] != nil {
				continue
			}
			var base map[string]any
			if err := yaml.Unmarshal([]byte(fragmentBase), &base); err != nil {
				t.Fatal(err)
			}
			merge(base, frag)
			cfg, err := yaml.Marshal(base)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			if _, err := config.Parse(cfg); err != nil {
				t.Errorf("%s, YAML block %d, merged into the test's base:\n%v\n%s", f, i+1, err, bytes.TrimSpace(m[1]))
			}
		}
	}
	if checked < 8 {
		t.Errorf("only %d documented fragments found; the test no longer sees the docs", checked)
	}
}

// merge sets every key of src in dst, merging maps present in both.
func merge(dst, src map[string]any) {
	for k, v := range src {
		sub, ok := v.(map[string]any)
		if d, isMap := dst[k].(map[string]any); ok && isMap {
			merge(d, sub)
			continue
		}
		dst[k] = v
	}
}
