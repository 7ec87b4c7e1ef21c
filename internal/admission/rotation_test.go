package admission

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/config"
)

// TestRotation: a rotated file: key and management token are in force by the time
// OnRotate reports them, and the old values no longer are.
func TestRotation(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	keyFile, tokFile := filepath.Join(dir, "key"), filepath.Join(dir, "token")
	write := func(path, v string) {
		t.Helper()
		// Written aside and renamed, as the kubelet swaps a Secret's files.
		if err := os.WriteFile(path+".new", []byte(v+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(path+".new", path); err != nil {
			t.Fatal(err)
		}
	}
	write(keyFile, otherKey)
	write(tokFile, "mgmt-old-111")
	rotated := make(chan string, 8)
	waits := make(chan time.Duration, 8)
	p, err := NewPolicy(config.Admission{
		APIKeys: []config.APIKey{
			{Name: "team-a", Key: "env.TEAM_A", Models: []string{"general"}},
			{Name: "other", Key: config.SecretRef("file:" + keyFile), Models: []string{"reasoning"}},
		},
		MaxInFlight: 2,
	}, &config.Management{Auth: config.ManagementAuthBearer, Tokens: []config.ManagementToken{{Name: "ops", Token: config.SecretRef("file:" + tokFile), Role: config.RoleAdmin}}},
		Options{LookupEnv: env(map[string]string{"TEAM_A": teamKey}), OnRotate: func(ref string) { rotated <- ref }, OnQueueWait: func(d time.Duration) { waits <- d }})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Close() }()
	if c := auth(t, p, otherKey); c.Name() != "other" || !c.Allows("reasoning") || c.Allows("general") {
		t.Fatalf("before the rotation: %q", c.Name())
	}

	const newKey, newTok = "sk-rotated-5555555555", "mgmt-new-222"
	write(keyFile, newKey)
	write(tokFile, newTok)
	seen := map[string]bool{}
	deadline := time.After(10 * time.Second)
	for len(seen) < 2 {
		select {
		case ref := <-rotated:
			seen[ref] = true
		case <-deadline:
			t.Fatalf("rotations reported: %v", seen)
		}
	}
	if !seen["file:"+keyFile] || !seen["file:"+tokFile] {
		t.Fatalf("rotations reported: %v", seen)
	}
	if c := auth(t, p, newKey); c.Name() != "other" || !c.Allows("reasoning") {
		t.Errorf("the rotated key is client %q", c.Name())
	}
	if _, err := p.Authenticate(otherKey); err == nil {
		t.Error("the old key still authenticates")
	}
	if name, _, ok := p.ManagementRole(newTok); !ok || name != "ops" {
		t.Errorf("the rotated token: %q, %v", name, ok)
	}
	if _, _, ok := p.ManagementRole("mgmt-old-111"); ok {
		t.Error("the old token is still accepted")
	}
	if c := auth(t, p, teamKey); c.Name() != "team-a" {
		t.Errorf("the env key is client %q", c.Name())
	}
	admit(t, p, newKey, "reasoning").Done(0)
	if d := <-waits; d != 0 {
		t.Errorf("queue wait with a free slot: %v", d)
	}
}

// TestRotationPolled: where the key files' directory is not watched (no inotify instance
// left, or a poll interval set), a rotated key is read when a request presents a key, so it
// is in force at once, without a restart.
func TestRotationPolled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	keyFile, tokFile := filepath.Join(dir, "key"), filepath.Join(dir, "token")
	for path, v := range map[string]string{keyFile: otherKey, tokFile: "mgmt-old-111"} {
		if err := os.WriteFile(path, []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var rotations atomic.Int32
	p, err := NewPolicy(config.Admission{APIKeys: []config.APIKey{{Name: "other", Key: config.SecretRef("file:" + keyFile)}}},
		&config.Management{Auth: config.ManagementAuthBearer, Tokens: []config.ManagementToken{{Name: "ops", Token: config.SecretRef("file:" + tokFile), Role: config.RoleRead}}},
		Options{PollInterval: time.Nanosecond, OnRotate: func(string) { rotations.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Close() }()
	auth(t, p, otherKey)
	for path, v := range map[string]string{keyFile: "sk-rotated-5555555555", tokFile: "mgmt-new-222"} {
		if err := os.WriteFile(path+".new", []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(path+".new", path); err != nil {
			t.Fatal(err)
		}
	}
	if c := auth(t, p, "sk-rotated-5555555555"); c.Name() != "other" {
		t.Errorf("the rotated key is client %q", c.Name())
	}
	if _, err := p.Authenticate(otherKey); err == nil {
		t.Error("the old key still authenticates")
	}
	if name, role, ok := p.ManagementRole("mgmt-new-222"); name != "ops" || role != config.RoleRead || !ok {
		t.Errorf("the rotated token: %q, %q, %v", name, role, ok)
	}
	if n := rotations.Load(); n != 2 {
		t.Errorf("OnRotate called %d times, want 2", n)
	}
}
