package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidatePrintsWarnings: -validate accepts a request_budget shorter than a model's
// timeout but says that the budget cuts the model's calls.
func TestValidatePrintsWarnings(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.yaml")
	cfg := "routing: {request_budget: 60s}\nmodels:\n  - model_name: slow\n    timeout: 300s\n    provider: {type: sim}\n"
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := Run(context.Background(), []string{"-validate", "-config", path}, &stdout, &stderr); err != nil {
		t.Fatalf("-validate: %v\n%s", err, stderr.String())
	}
	want := `warning: models[0].timeout: 5m0s is longer than routing.request_budget (1m0s), which cuts every call of model "slow", streams included, at 1m0s`
	if !strings.Contains(stdout.String(), want) {
		t.Errorf("-validate output lacks the warning:\n%s", stdout.String())
	}
}
