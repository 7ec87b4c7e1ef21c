package examples

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/semantic-router/semantic-router/internal/config"
)

// TestEveryExampleLoads keeps the examples honest: each file under examples/ must load and
// validate, and Demo must be demo.yaml.
func TestEveryExampleLoads(t *testing.T) {
	files, err := filepath.Glob("*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			if _, err := config.Load(f); err != nil {
				t.Error(err)
			}
		})
	}
	demo, err := os.ReadFile("demo.yaml")
	if err != nil || !bytes.Equal(demo, Demo) {
		t.Error("Demo differs from demo.yaml")
	}
}

var yamlBlock = regexp.MustCompile("(?s)```yaml\n(.*?)```")

// TestDocumentedConfigsLoad keeps the documentation honest: every YAML block in README.md
// and docs/ that is a whole router configuration (it has a top-level models list) must load.
func TestDocumentedConfigsLoad(t *testing.T) {
	files, _ := filepath.Glob("../docs/*.md")
	files = append(files, "../README.md")
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range yamlBlock.FindAllSubmatch(b, -1) {
			block := m[1]
			if !bytes.HasPrefix(block, []byte("models:")) && !bytes.Contains(block, []byte("\nmodels:")) {
				continue
			}
			checked++
			if _, err := config.Parse(block); err != nil {
				t.Errorf("%s, YAML block %d:\n%v", f, i+1, err)
			}
		}
	}
	if checked < 3 {
		t.Errorf("only %d documented configs found; the test no longer sees the docs", checked)
	}
}
