package secret

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// k8sSecretDir lays out a directory the way the kubelet mounts a Secret volume: the key is
// a symlink into ..data, which points at a timestamped directory.
type k8sSecretDir struct {
	t   *testing.T
	dir string
	gen int
}

func newK8sSecretDir(t *testing.T, key, value string) *k8sSecretDir {
	t.Helper()
	d := &k8sSecretDir{t: t, dir: t.TempDir()}
	d.write(key, value)
	if err := os.Symlink(filepath.Join("..data", key), filepath.Join(d.dir, key)); err != nil {
		t.Fatal(err)
	}
	return d
}

// write replaces the volume's content with one key.
func (d *k8sSecretDir) write(key, value string) { d.writeAll(map[string]string{key: value}) }

// writeAll does what the kubelet's atomic writer does: a new timestamped directory, a
// temporary symlink to it, a rename over ..data, then removal of the old directory.
func (d *k8sSecretDir) writeAll(data map[string]string) {
	d.t.Helper()
	d.gen++
	ts := fmt.Sprintf("..2024_01_0%d_12_00_00.%d", d.gen, d.gen)
	if err := os.Mkdir(filepath.Join(d.dir, ts), 0o755); err != nil {
		d.t.Fatal(err)
	}
	for key, value := range data {
		if err := os.WriteFile(filepath.Join(d.dir, ts, key), []byte(value+"\n"), 0o600); err != nil {
			d.t.Fatal(err)
		}
	}
	old, _ := os.Readlink(filepath.Join(d.dir, "..data"))
	tmp := filepath.Join(d.dir, "..data_tmp")
	if err := os.Symlink(ts, tmp); err != nil {
		d.t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(d.dir, "..data")); err != nil {
		d.t.Fatal(err)
	}
	if old != "" {
		if err := os.RemoveAll(filepath.Join(d.dir, old)); err != nil {
			d.t.Fatal(err)
		}
	}
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	short, broken := filepath.Join(dir, "short"), filepath.Join(dir, "broken")
	if err := os.WriteFile(short, []byte("abc12\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte("sk-live\n1234\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"SHORT": "ab", "CTRL": "sk-live\x01-1234", "EMPTY": ""}
	tests := []struct {
		name, ref, want string
		notFound        bool
	}{
		{"unset env", "env.NOPE", "environment variable NOPE is not set (names are case-sensitive and must match the Secret key exactly): secret not found", true},
		{"missing file", "file:" + dir + "/missing", "file " + dir + "/missing does not exist: secret not found", true},
		{"empty file", "file:" + empty, "file " + empty + " is empty", false},
		{"short file", "file:" + short, "file " + short + " holds 5 characters; a credential needs at least 6", false},
		{"line break inside a file", "file:" + broken, "file " + broken + " holds a control character at byte 7 (a line break inside the value?); no HTTP header can carry it", false},
		{"short env", "env.SHORT", "environment variable SHORT holds 2 characters; a credential needs at least 6", false},
		{"empty env", "env.EMPTY", "environment variable EMPTY holds 0 characters; a credential needs at least 6", false},
		{"control character in env", "env.CTRL", "environment variable CTRL holds a control character at byte 7 (a line break inside the value?); no HTTP header can carry it", false},
		{"inline value is not echoed", "sk-live-123", `a credential must be a reference "env.VAR" or "file:/absolute/path"`, false},
		{"relative file", "file:key", `a credential must be a reference "env.VAR" or "file:/absolute/path"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := OpenToken(tt.ref, Options{LookupEnv: func(name string) (string, bool) { v, ok := env[name]; return v, ok }})
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Open(%q) error = %v, want %q", tt.ref, err, tt.want)
			}
			if errors.Is(err, ErrNotFound) != tt.notFound {
				t.Fatalf("errors.Is(ErrNotFound) = %v, want %v", !tt.notFound, tt.notFound)
			}
		})
	}
}

func TestEnvIsReadOnce(t *testing.T) {
	t.Parallel()
	val := "first-value"
	s, err := Open("env.KEY", Options{LookupEnv: func(name string) (string, bool) { return val, name == "KEY" }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	val = "second-value"
	if got, _ := s.Value(); got != "first-value" {
		t.Fatalf("Value() = %q, want the value read at Open", got)
	}
}

func TestFileRotation(t *testing.T) {
	t.Parallel()
	for _, mode := range []struct {
		name string
		poll time.Duration
	}{{"watch", 0}, {"poll", time.Millisecond}} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			d := newK8sSecretDir(t, "api_key", "old-key")
			var rotations atomic.Int32
			var refs sync.Map
			// The value each rotation brought, in order: the hook runs once the value is
			// stored, so the source read in it holds that rotation's value.
			var (
				src     atomic.Pointer[Source]
				mu      sync.Mutex
				brought []string
			)
			ref := "file:" + filepath.Join(d.dir, "api_key")
			s, err := Open(ref, Options{PollInterval: mode.poll, OnRotate: func(r string) {
				refs.Store(r, true)
				rotations.Add(1)
				mu.Lock()
				brought = append(brought, *src.Load().e.val.Load())
				mu.Unlock()
			}})
			if err != nil {
				t.Fatal(err)
			}
			src.Store(s)
			defer s.Close()
			if got, _ := s.Value(); got != "old-key" {
				t.Fatalf("Value() = %q, want old-key (trailing newline trimmed)", got)
			}

			d.write("api_key", "new-key")
			waitFor(t, "the new key", func() bool { v, _ := s.Value(); return v == "new-key" })
			waitFor(t, "the rotation hook", func() bool { return rotations.Load() == 1 })
			if _, ok := refs.Load(ref); !ok {
				t.Fatalf("OnRotate was not given the reference %q", ref)
			}

			// Rewriting the same value is no rotation.
			d.write("api_key", "new-key")
			d.write("api_key", "newest-key")
			waitFor(t, "the newest key's rotation", func() bool {
				_, _ = s.Value() // in poll mode, reading is what re-reads the file
				mu.Lock()
				defer mu.Unlock()
				return len(brought) > 0 && brought[len(brought)-1] == "newest-key"
			})
			mu.Lock()
			got := strings.Join(brought, ", ")
			mu.Unlock()
			if got != "new-key, newest-key" {
				t.Fatalf("rotations brought %s, want new-key, newest-key", got)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
		})
	}
}

func TestRemovedFileKeepsValue(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "key")
	if err := os.WriteFile(path, []byte("kept-value"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open("file:"+path, Options{PollInterval: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if v, err := s.Value(); v != "kept-value" || err != nil {
			t.Fatalf("Value() = %q, %v; want the previous value", v, err)
		}
	}
}

// TestRotationToAShortValueKeepsValue: a token's file rotated to a value no token can have
// keeps the previous one, as a half-written file does.
func TestRotationToAShortValueKeepsValue(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "key")
	if err := os.WriteFile(path, []byte("kept-value"), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	var mu sync.Mutex
	s, err := OpenToken("file:"+path, Options{PollInterval: time.Nanosecond, Logger: slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}), nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := os.WriteFile(path, []byte("ab\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the refused re-read to be logged", func() bool {
		if v, _ := s.Value(); v != "kept-value" { // a polled source re-reads on use
			t.Fatalf("Value() = %q, want the previous value", v)
		}
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(logs.String(), "holds 2 characters; a credential needs at least 6")
	})
	if v, _ := s.Value(); v != "kept-value" {
		t.Fatalf("Value() = %q, want the previous value", v)
	}
}

// TestDocumentsAreNotTokens: a reference opened with Open may hold several lines (a CA
// bundle); the same reference opened as a token is refused, naming it and not the value.
func TestDocumentsAreNotTokens(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, []byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	st := NewStore(Options{PollInterval: time.Hour})
	defer st.Close()
	if _, err := st.Open("file:" + path); err != nil {
		t.Fatalf("Open: %v", err)
	}
	_, err := st.OpenToken("file:" + path)
	want := "file " + path + " holds a control character at byte 27 (a line break inside the value?); no HTTP header can carry it"
	if err == nil || err.Error() != want || !errors.Is(err, ErrInvalid) {
		t.Fatalf("OpenToken = %v, want %q matching ErrInvalid", err, want)
	}
}

// BenchmarkValue measures the hot path a provider pays per request.
func BenchmarkValue(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "key")
	if err := os.WriteFile(path, []byte("key-value"), 0o600); err != nil {
		b.Fatal(err)
	}
	s, err := Open("file:"+path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_, _ = s.Value()
		}
	})
}

// The keys of one Secret come from one store: they are watched together and change
// together, and closing one source leaves the others current.
func TestStoreSharesADirectory(t *testing.T) {
	t.Parallel()
	d := newK8sSecretDir(t, "id", "id-key-1")
	d.write("secret", "secret-1") // a second key in the same volume
	if err := os.Symlink(filepath.Join("..data", "secret"), filepath.Join(d.dir, "secret")); err != nil {
		t.Fatal(err)
	}
	d.writeAll(map[string]string{"id": "id-key-1", "secret": "secret-1"})
	var rotations atomic.Int32
	st := NewStore(Options{OnRotate: func(string) { rotations.Add(1) }})
	defer st.Close()
	id, err := st.Open("file:" + filepath.Join(d.dir, "id"))
	if err != nil {
		t.Fatal(err)
	}
	sec, err := st.Open("file:" + filepath.Join(d.dir, "secret"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(st.dirs); n != 1 {
		t.Fatalf("%d directory watches, want 1", n)
	}
	d.writeAll(map[string]string{"id": "id-key-2", "secret": "secret-2"})
	waitFor(t, "both new values", func() bool {
		a, _ := id.Value()
		b, _ := sec.Value()
		return a == "id-key-2" && b == "secret-2"
	})
	waitFor(t, "two rotations", func() bool { return rotations.Load() == 2 })

	if err := id.Close(); err != nil {
		t.Fatal(err)
	}
	d.writeAll(map[string]string{"id": "id-key-3", "secret": "secret-3"})
	waitFor(t, "the remaining source to follow", func() bool { v, _ := sec.Value(); return v == "secret-3" })
	if v, _ := id.Value(); v != "id-key-2" {
		t.Fatalf("closed source = %q, want its last value id-2", v)
	}
}

// TestOneRotationPerReference: models that use the same file: reference share it, so one
// rotation is logged and reported once, however many opened it; closing one of them leaves
// the others current.
func TestOneRotationPerReference(t *testing.T) {
	t.Parallel()
	for _, mode := range []struct {
		name string
		poll time.Duration
	}{{"watch", 0}, {"poll", time.Millisecond}} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			d := newK8sSecretDir(t, "api_key", "api-key-1")
			var logs strings.Builder
			var logMu sync.Mutex
			var rotations atomic.Int32
			st := NewStore(Options{PollInterval: mode.poll, OnRotate: func(string) { rotations.Add(1) },
				Logger: slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
					logMu.Lock()
					defer logMu.Unlock()
					return logs.Write(p)
				}), nil))})
			defer st.Close()
			ref := "file:" + filepath.Join(d.dir, "api_key")
			var sources []*Source
			for range 3 {
				s, err := st.Open(ref)
				if err != nil {
					t.Fatal(err)
				}
				sources = append(sources, s)
			}
			d.write("api_key", "api-key-2")
			waitFor(t, "every source to hold the new key", func() bool {
				for _, s := range sources {
					if v, _ := s.Value(); v != "api-key-2" {
						return false
					}
				}
				return true
			})
			if err := sources[0].Close(); err != nil {
				t.Fatal(err)
			}
			d.write("api_key", "api-key-3")
			waitFor(t, "the open sources to follow", func() bool {
				a, _ := sources[1].Value()
				b, _ := sources[2].Value()
				return a == "api-key-3" && b == "api-key-3"
			})
			// A rotation is logged, then reported: once it is reported, every line is out.
			waitFor(t, "the second rotation's report", func() bool { return rotations.Load() >= 2 })
			logMu.Lock()
			lines := strings.Count(logs.String(), "credential rotated")
			logMu.Unlock()
			if n := rotations.Load(); n != 2 || lines != 2 {
				t.Errorf("two rotations gave %d reports and %d log lines, want 2 and 2", n, lines)
			}
		})
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
