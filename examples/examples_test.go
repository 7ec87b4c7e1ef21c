package examples

import (
	"bytes"
	"os"
	"path/filepath"
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
