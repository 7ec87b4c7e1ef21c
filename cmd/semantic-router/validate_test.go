package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/logtest"
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
	want := `warning: models[0].timeout (line 4): 5m0s is longer than routing.request_budget (1m0s), which cuts every call of model "slow", streams included, at 1m0s`
	if !strings.Contains(stdout.String(), want) {
		t.Errorf("-validate output lacks the warning:\n%s", stdout.String())
	}
}

const bedrockConfig = `models:
  - model_name: claude
    provider: {type: bedrock, region: us-east-1, access_key_id: env.SR_TEST_UNSET_A, secret_access_key: env.SR_TEST_UNSET_S}
`

const bedrockExtprocWarning = `models[0].provider.type (line 3): bedrock is not supported in extproc mode: Envoy sends the client's OpenAI request as it is, with no translation to the Bedrock API and no SigV4 signature, so model "claude" cannot be served`

// TestValidateExtprocWarnings: with -gateway extproc, -validate also lists the settings
// Envoy's external processor cannot apply; without it, it does not.
func TestValidateExtprocWarnings(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(bedrockConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{args: []string{"-validate", "-gateway", "extproc", "-config", path}, want: true},
		{args: []string{"-validate", "-config", path}, want: false},
	} {
		var stdout, stderr bytes.Buffer
		if err := Run(context.Background(), tc.args, &stdout, &stderr); err != nil {
			t.Fatalf("%v: %v\n%s", tc.args, err, stderr.String())
		}
		lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
		if !strings.HasPrefix(lines[0], path+": valid, 1 models") {
			t.Errorf("%v: first line %q, want the usual summary first", tc.args, lines[0])
		}
		if got := strings.Contains(stdout.String(), "\nwarning: "+bedrockExtprocWarning+"\n"); got != tc.want {
			t.Errorf("%v: extproc warning printed = %v, want %v:\n%s", tc.args, got, tc.want, stdout.String())
		}
	}
}

// TestExtprocStartLogsWarnings: at start in extproc mode each setting the processor cannot
// apply is logged as a warning.
func TestExtprocStartLogsWarnings(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(bedrockConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &logtest.Buffer{}
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"-gateway", "extproc", "-config", path, "-grpc-address", "127.0.0.1:0",
			"-api-address", "127.0.0.1:0", "-metrics-address", "127.0.0.1:0"}, io.Discard, logs)
	}()
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(logs.String(), `"msg":"ready"`) {
		select {
		case err := <-done:
			t.Fatalf("Run returned early: %v\n%s", err, logs)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready:\n%s", logs)
		}
		time.Sleep(5 * time.Millisecond)
	}
	var found bool
	for _, line := range strings.Split(logs.String(), "\n") {
		var l struct{ Level, Msg, Warning string }
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "setting not applied in extproc mode" {
			found = l.Level == "WARN" && l.Warning == bedrockExtprocWarning
		}
	}
	if !found {
		t.Errorf("no warning line for the bedrock model:\n%s", logs)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

// TestValidateNamesMissingReferences: a reference -validate cannot read is a warning (the
// machine that validates is often not the one that runs), located as an error would be.
func TestValidateNamesMissingReferences(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.yaml")
	cfg := `models:
  - model_name: qwen
    provider:
      type: openai_compatible
      base_url: http://vllm:8000/v1
      api_key: env.SR_TEST_UNSET_MODEL_KEY
admission:
  api_keys:
    - {name: team-a, key: env.SR_TEST_UNSET_CLIENT_KEY}
management:
  tokens:
    - {name: ops, token: env.SR_TEST_UNSET_ADMIN_TOKEN, role: admin}
`
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := Run(context.Background(), []string{"-validate", "-config", path}, &stdout, &stderr); err != nil {
		t.Fatalf("-validate: %v\n%s", err, stderr.String())
	}
	got := strings.Split(strings.TrimSpace(stdout.String()), "\n")[1:]
	const why = "is not set (names are case-sensitive and must match the Secret key exactly): secret not found (the router will refuse to start where it is missing)"
	want := []string{
		"warning: models[0].provider.api_key (line 6): env.SR_TEST_UNSET_MODEL_KEY: environment variable SR_TEST_UNSET_MODEL_KEY " + why,
		"warning: admission.api_keys[0].key (line 9): env.SR_TEST_UNSET_CLIENT_KEY: environment variable SR_TEST_UNSET_CLIENT_KEY " + why,
		"warning: management.tokens[0].token (line 12): env.SR_TEST_UNSET_ADMIN_TOKEN: environment variable SR_TEST_UNSET_ADMIN_TOKEN " + why,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("-validate warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestValidateRefusesUnusableCredentials: a reference -validate reads and that holds a
// value no credential can have (too short to keep out of relayed text; a line break inside a
// file) is a problem, located, and the value is not echoed.
func TestValidateRefusesUnusableCredentials(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	short, broken := filepath.Join(dir, "client"), filepath.Join(dir, "admin")
	if err := os.WriteFile(short, []byte("ab\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte("tok-first-half\nsecond-half\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.yaml")
	cfg := `models:
  - model_name: qwen
    provider:
      type: openai_compatible
      base_url: http://vllm:8000/v1
      api_key: env.SR_TEST_UNSET_MODEL_KEY
admission:
  api_keys:
    - {name: team-a, key: "file:` + short + `"}
management:
  tokens:
    - {name: ops, token: "file:` + broken + `", role: admin}
`
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := Run(context.Background(), []string{"-validate", "-config", path}, &stdout, &stderr)
	want := "config " + path + ":\n" +
		"admission.api_keys[0].key (line 9): file:" + short + ": file " + short + " holds 2 characters; a credential needs at least 6\n" +
		"management.tokens[0].token (line 12): file:" + broken + ": file " + broken + " holds a control character at byte 14 (a line break inside the value?); no HTTP header can carry it"
	if err == nil || err.Error() != want {
		t.Fatalf("-validate = %v, want:\n%s", err, want)
	}
	if strings.Contains(err.Error(), "second-half") || strings.Contains(stdout.String(), "second-half") {
		t.Error("-validate echoed the value")
	}
}

// TestValidateRefusesSharedValues: two client keys, or two management tokens, that hold one
// value through different references are refused by -validate as they are at start.
func TestValidateRefusesSharedValues(t *testing.T) { // not parallel: t.Setenv
	dir := t.TempDir()
	admin := filepath.Join(dir, "admin")
	if err := os.WriteFile(admin, []byte("mgmt-shared-value-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SR_TEST_SHARED_READ", "mgmt-shared-value-1")
	t.Setenv("SR_TEST_SHARED_KEY", "mgmt-shared-value-1") // a client key may equal a token
	path := filepath.Join(dir, "config.yaml")
	cfg := `models:
  - model_name: qwen
    provider: {type: sim}
admission:
  api_keys:
    - {name: team-a, key: env.SR_TEST_SHARED_KEY}
management:
  tokens:
    - {name: ops, token: "file:` + admin + `", role: admin}
    - {name: dashboards, token: env.SR_TEST_SHARED_READ}
`
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := Run(context.Background(), []string{"-validate", "-config", path}, &stdout, &stderr)
	want := "config " + path + ":\n" +
		"management.tokens[1].token (line 10): env.SR_TEST_SHARED_READ: holds the same value as management.tokens[0].token; give each its own"
	if err == nil || err.Error() != want {
		t.Fatalf("-validate = %v, want:\n%s", err, want)
	}
}

// TestAddressFlagsTheFrontDoorDoesNotUse: an address flag the chosen front door does not
// use is said to be unused, not ignored in silence.
func TestAddressFlagsTheFrontDoorDoesNotUse(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("models:\n  - model_name: m\n    provider: {type: openai_compatible, base_url: http://vllm:8000/v1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-gateway", "extproc", "-listener-address", "127.0.0.1:9"},
			"warning: -listener-address is not used with -gateway extproc: clients connect to Envoy, which calls the processor on -grpc-address"},
		{[]string{"-grpc-address", "127.0.0.1:9"},
			"warning: -grpc-address is used only with -gateway extproc; the standalone router serves clients on -listener-address"},
		{[]string{"-gateway", "extproc", "-grpc-address", "127.0.0.1:9"}, ""},
	} {
		var stdout, stderr bytes.Buffer
		if err := Run(context.Background(), append(tc.args, "-validate", "-config", path), &stdout, &stderr); err != nil {
			t.Fatalf("%v: %v\n%s", tc.args, err, stderr.String())
		}
		got := strings.Join(strings.Split(strings.TrimSpace(stdout.String()), "\n")[1:], "\n")
		if got != tc.want {
			t.Errorf("%v: warnings\n%s\nwant\n%s", tc.args, got, tc.want)
		}
	}
}

// TestArtifactBaseURLCredentialsAreNotEchoed: neither -validate nor start-up prints the
// credentials an artifact's base_url carries.
func TestArtifactBaseURLCredentialsAreNotEchoed(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.yaml")
	cfg := "models:\n  - model_name: a\n    provider: {type: sim}\nartifacts:\n" +
		"  - name: a\n    repository: org/m\n    base_url: https://user:s3cretpw@mirror.corp/\n    files: [{path: model.onnx}]\n" +
		"  - name: b\n    repository: org/m\n    base_url: https://mirror.corp/hf?access_token=hf_s3cret\n    files: [{path: model.onnx}]\n"
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-validate", "-config", path}, {"-config", path}} {
		var stdout, stderr bytes.Buffer
		err := Run(context.Background(), args, &stdout, &stderr)
		if err == nil {
			t.Fatalf("%v: no error", args)
		}
		all := err.Error() + stdout.String() + stderr.String()
		if !strings.Contains(all, `artifacts[0].base_url (line 7): must not carry credentials`) ||
			!strings.Contains(all, `artifacts[1].base_url (line 11): must not carry credentials in its query`) {
			t.Errorf("%v: the problems are not reported:\n%s", args, all)
		}
		if strings.Contains(all, "s3cret") {
			t.Errorf("%v: a credential is printed:\n%s", args, all)
		}
	}
}
