package providertest_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/semantic-router/semantic-router/internal/logtest"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/bedrock"
	"github.com/semantic-router/semantic-router/internal/provider/openaicompat"
	"github.com/semantic-router/semantic-router/internal/provider/providertest"
	"github.com/semantic-router/semantic-router/internal/provider/vertex"
	"github.com/semantic-router/semantic-router/internal/secret"
)

// secretVolume is a directory laid out as the kubelet mounts a Secret: each key is a
// symlink into ..data, which points at a timestamped directory swapped atomically.
type secretVolume struct {
	t   *testing.T
	dir string
	gen int
}

func newSecretVolume(t *testing.T, data map[string]string) *secretVolume {
	v := &secretVolume{t: t, dir: t.TempDir()}
	v.update(data)
	for key := range data {
		if err := os.Symlink(filepath.Join("..data", key), filepath.Join(v.dir, key)); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

// update writes a new timestamped directory and renames a fresh symlink over ..data.
func (v *secretVolume) update(data map[string]string) {
	v.t.Helper()
	v.gen++
	ts := fmt.Sprintf("..2024_06_01_10_00_%02d.%d", v.gen, v.gen)
	if err := os.Mkdir(filepath.Join(v.dir, ts), 0o755); err != nil {
		v.t.Fatal(err)
	}
	for k, val := range data {
		if err := os.WriteFile(filepath.Join(v.dir, ts, k), []byte(val), 0o600); err != nil {
			v.t.Fatal(err)
		}
	}
	old, _ := os.Readlink(filepath.Join(v.dir, "..data"))
	if err := os.Symlink(ts, filepath.Join(v.dir, "..data_tmp")); err != nil {
		v.t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(v.dir, "..data_tmp"), filepath.Join(v.dir, "..data")); err != nil {
		v.t.Fatal(err)
	}
	if old != "" {
		_ = os.RemoveAll(filepath.Join(v.dir, old))
	}
}

// open opens file: sources for keys from one store, as the router opens the credentials
// of one model, counting rotations and logging them to logs.
func (v *secretVolume) open(rotations *atomic.Int32, logs *logtest.Buffer, keys ...string) []*secret.Source {
	v.t.Helper()
	st := secret.NewStore(secret.Options{
		OnRotate: func(string) { rotations.Add(1) },
		Logger:   slog.New(slog.NewTextHandler(logs, nil)),
	})
	v.t.Cleanup(func() { st.Close() })
	var out []*secret.Source
	for _, key := range keys {
		s, err := st.Open("file:" + filepath.Join(v.dir, key))
		if err != nil {
			v.t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// rotation is one provider's part in the rotation procedure of the operations guide,
// adapted to the no-restart path: make the new credential valid at the provider, update
// the Secret, confirm the new credential is in use, then revoke the old one.
type rotation struct {
	p         provider.Provider
	script    *providertest.Script
	acceptNew func()                       // the new credential becomes valid upstream
	update    func()                       // the Secret is updated
	usesNew   func(providertest.Seen) bool // the request carried the new credential
	revokeOld func()                       // the old credential is revoked upstream
	rotations func() int32                 // rotations the sources reported
	secrets   func() []string              // values that must not be logged
}

// runRotation sends traffic from four workers, plain and streamed, through the whole
// procedure and checks that no request failed and that, after the revocation, every
// request carried the new credential.
func runRotation(t *testing.T, r rotation, logs *logtest.Buffer, wantRotations int32) {
	const workers = 4
	var (
		stop     = make(chan struct{})
		wg       sync.WaitGroup
		gen      atomic.Int32          // 1 once the new credential was confirmed
		doneGen  [workers]atomic.Int32 // per worker: generation of its last finished request
		total    atomic.Int32
		failures = make(chan error, 64)
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 5000; i++ {
				select {
				case <-stop:
					return
				default:
				}
				started := gen.Load()
				if err := oneRequest(r.p, w%2 == 1); err != nil {
					select {
					case failures <- err:
					default:
					}
				}
				doneGen[w].Store(started)
				total.Add(1)
			}
		}()
	}
	waitFor(t, "traffic with the old credential", func() bool { return total.Load() >= 20 })

	r.acceptNew()
	r.update()
	waitFor(t, "the rotation to be reported", func() bool { return r.rotations() >= wantRotations })
	waitFor(t, "a request with the new credential", func() bool {
		seen, ok := r.script.Last()
		return ok && r.usesNew(seen)
	})
	// Requests that read the old credential before the swap may still be in flight; they
	// finish with it. Once every worker has finished a request begun after the
	// confirmation, none is left, and the old credential can go.
	gen.Store(1)
	waitFor(t, "in-flight requests to finish", func() bool {
		for w := range workers {
			if doneGen[w].Load() < 1 {
				return false
			}
		}
		return true
	})
	revokedAt := len(r.script.Seen())
	r.revokeOld()
	base := total.Load()
	waitFor(t, "traffic after the revocation", func() bool { return total.Load() >= base+20 })
	close(stop)
	wg.Wait()
	close(failures)
	failed := 0
	for err := range failures {
		failed++
		t.Errorf("a request failed during the rotation: %v", err)
	}
	for i, seen := range r.script.Seen()[revokedAt:] {
		if !r.usesNew(seen) {
			t.Fatalf("request %d after the revocation carried the old credential", revokedAt+i)
		}
	}
	if got := r.rotations(); got != wantRotations {
		t.Errorf("rotations = %d, want %d", got, wantRotations)
	}
	out := logs.String()
	if !strings.Contains(out, "credential rotated") {
		t.Errorf("log has no rotation line:\n%s", out)
	}
	for _, s := range r.secrets() {
		if strings.Contains(out, s) {
			t.Fatalf("log contains a credential:\n%s", out)
		}
	}
	t.Logf("%d requests, %d failed", total.Load(), failed)
}

func oneRequest(p provider.Provider, stream bool) error {
	req := &openai.ChatRequest{Messages: []openai.Message{{Role: "user", Content: openai.TextContent("ping")}}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if !stream {
		_, err := p.ChatCompletion(ctx, req)
		return err
	}
	st, err := p.ChatCompletionStream(ctx, req)
	if err != nil {
		return err
	}
	defer st.Close()
	for {
		if _, err := st.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestRotateOpenAIKeyWhileServing(t *testing.T) {
	t.Parallel()
	const oldKey, newKey = "sk-old-0001", "sk-new-0002"
	script := providertest.NewScript()
	fake := providertest.NewOpenAIFake(t, script, oldKey)
	vol := newSecretVolume(t, map[string]string{"api_key": oldKey})
	var rotations atomic.Int32
	logs := &logtest.Buffer{}
	src := vol.open(&rotations, logs, "api_key")[0]
	p, err := openaicompat.New(openaicompat.Options{Name: "gpt", BaseURL: fake.Server.URL + "/v1", Model: "m",
		APIKey: src.Value, APIKeySource: src.Ref()})
	if err != nil {
		t.Fatal(err)
	}
	runRotation(t, rotation{p: p, script: script,
		acceptNew: func() { fake.SetKeys(oldKey, newKey) },
		update:    func() { vol.update(map[string]string{"api_key": newKey}) },
		usesNew:   func(s providertest.Seen) bool { return s.Credential == newKey },
		revokeOld: func() { fake.SetKeys(newKey) },
		rotations: rotations.Load,
		secrets:   func() []string { return []string{oldKey, newKey} },
	}, logs, 1)
}

// TestRotateBedrockKeysWhileServing rotates an access key id and its secret, two files of
// one Secret, which one store re-reads together.
func TestRotateBedrockKeysWhileServing(t *testing.T) {
	t.Parallel()
	oldCreds := aws.Credentials{AccessKeyID: "AKIDOLD", SecretAccessKey: "old-secret"}
	newCreds := aws.Credentials{AccessKeyID: "AKIDNEW", SecretAccessKey: "new-secret"}
	script := providertest.NewScript()
	fake := providertest.NewBedrockFake(t, script, "us-east-1", oldCreds)
	vol := newSecretVolume(t, map[string]string{"aws_access_key_id": oldCreds.AccessKeyID, "aws_secret_access_key": oldCreds.SecretAccessKey})
	var rotations atomic.Int32
	logs := &logtest.Buffer{}
	srcs := vol.open(&rotations, logs, "aws_access_key_id", "aws_secret_access_key")
	id, sec := srcs[0], srcs[1]
	p, err := bedrock.New(bedrock.Options{Name: "claude", Model: "anthropic.claude-3-haiku-20240307-v1:0", Region: "us-east-1",
		BaseURL: fake.Server.URL, AccessKeyID: id.Value, SecretAccessKey: sec.Value,
		AccessKeyIDSource: id.Ref(), SecretAccessKeySource: sec.Ref()})
	if err != nil {
		t.Fatal(err)
	}
	runRotation(t, rotation{p: p, script: script,
		acceptNew: func() { fake.SetCredentials(oldCreds, newCreds) },
		update: func() {
			vol.update(map[string]string{"aws_access_key_id": newCreds.AccessKeyID, "aws_secret_access_key": newCreds.SecretAccessKey})
		},
		usesNew:   func(s providertest.Seen) bool { return s.Credential == newCreds.AccessKeyID },
		revokeOld: func() { fake.SetCredentials(newCreds) },
		rotations: rotations.Load,
		secrets:   func() []string { return []string{oldCreds.SecretAccessKey, newCreds.SecretAccessKey} },
	}, logs, 2)
}

func TestRotateVertexKeyWhileServing(t *testing.T) {
	t.Parallel()
	script := providertest.NewScript()
	fake := providertest.NewVertexFake(t, script, "proj", "us-central1")
	oldKey := base64.StdEncoding.EncodeToString(fake.NewKey(t))
	vol := newSecretVolume(t, map[string]string{"sa_key_b64": oldKey})
	var rotations atomic.Int32
	logs := &logtest.Buffer{}
	src := vol.open(&rotations, logs, "sa_key_b64")[0]
	p, err := vertex.New(vertex.Options{Name: "gemini", Model: "gemini-2.0-flash-001", Project: "proj", Location: "us-central1",
		BaseURL: fake.Server.URL, ServiceAccountKey: src.Value, ServiceAccountKeySource: src.Ref()})
	if err != nil {
		t.Fatal(err)
	}
	var newKeyJSON []byte
	var newKey string
	oldJSON, _ := base64.StdEncoding.DecodeString(oldKey)
	runRotation(t, rotation{p: p, script: script,
		acceptNew: func() {
			newKeyJSON = fake.NewKey(t)
			newKey = base64.StdEncoding.EncodeToString(newKeyJSON)
		},
		update:  func() { vol.update(map[string]string{"sa_key_b64": newKey}) },
		usesNew: func(s providertest.Seen) bool { return fake.KeyOf(s.Credential) == keyID(newKeyJSON) },
		// Deleting the key in GCP also ends the tokens minted from it.
		revokeOld: func() { fake.RevokeKey(oldJSON) },
		rotations: rotations.Load,
		secrets:   func() []string { return []string{oldKey, newKey} },
	}, logs, 1)
}

func keyID(keyJSON []byte) string {
	var k struct {
		ID string `json:"private_key_id"`
	}
	_ = json.Unmarshal(keyJSON, &k)
	return k.ID
}
