// Package secret resolves credential references for providers: "env.VAR" is read once (a
// changed environment variable is picked up on restart), and "file:/path" (a mounted
// Kubernetes Secret) is re-read whenever the file changes, so a rotated credential takes
// effect without a restart.
//
// A Source never logs or reports a value: hooks and log lines carry the reference only.
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
	"time"
)

// Log keys used by this package.
const (
	logKeyRef   = "ref"
	logKeyDir   = "dir"
	logKeyError = "error"
)

// ErrNotFound is returned when the referenced variable or file does not exist.
var ErrNotFound = errors.New("secret not found")

// Options configure a Store (or a Source opened on its own). The zero value is usable.
type Options struct {
	// LookupEnv resolves env.VAR references; default os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// OnRotate is called after a file: reference was re-read and its value changed. It gets
	// the reference, never the value, so it can increment a metric and log. It runs on the
	// goroutine that noticed the change and must not block.
	OnRotate func(ref string)
	// Logger receives one line per rotation and per failed re-read; nil logs nothing.
	Logger *slog.Logger
	// PollInterval, when positive, checks a file: reference for changes with a stat at most
	// this often, from within Value, instead of watching its directory. It is also the
	// fallback, at one second, when no file watcher can be created (inotify instance limit).
	PollInterval time.Duration
}

// Source holds the current value of one credential reference. Value is safe for concurrent
// use and costs an atomic load; a change replaces the value for the requests that read it
// afterwards, while requests that already read it go on with the old one. The sources one
// Store opened for the same reference share its value: the file is read once per change,
// and a rotation is logged and reported once, however many models use the reference.
type Source struct {
	e      *entry
	closed sync.Once
}

// entry is the value of one reference in a store, shared by every Source opened for it.
type entry struct {
	ref   string
	path  string // empty for env references
	store *Store
	owned bool // the store was made for this source alone, and closes with it
	users int  // open sources; guarded by store.openMu

	val     atomic.Pointer[string]
	token   atomic.Bool // the value goes into a header: checked by checkValue on every read
	watched bool        // a directory watch keeps val current; otherwise Value polls

	// Polling state, used only when not watched.
	poll      time.Duration
	nextCheck atomic.Int64 // unix nanos of the next stat
	lastStat  atomic.Pointer[fileStamp]
	mu        sync.Mutex // serializes polled reloads
}

type fileStamp struct {
	mod  time.Time
	size int64
	ino  uint64
}

// Open resolves ref ("env.VAR" or "file:/abs/path") on its own store. Several credentials
// of one mounted Secret should come from one Store, so they change together.
func Open(ref string, o Options) (*Source, error) { return openOwn(ref, o, false) }

// OpenToken is Open for a credential sent in a header (see Store.OpenToken).
func OpenToken(ref string, o Options) (*Source, error) { return openOwn(ref, o, true) }

func openOwn(ref string, o Options, token bool) (*Source, error) {
	st := NewStore(o)
	s, err := st.openRef(ref, token)
	if err != nil {
		_ = st.Close()
		return nil, err
	}
	s.e.owned = true
	return s, nil
}

// Ref returns the reference the source was opened with; it is safe to log.
func (s *Source) Ref() string { return s.e.ref }

// Value returns the current value. After a successful Open it never fails: a re-read that
// fails keeps the previous value (and logs why), so a half-written Secret cannot take a
// model down. The error result lets Value serve as a provider's credential getter.
func (s *Source) Value() (string, error) {
	e := s.e
	if e.path != "" && !e.watched {
		e.maybePoll()
	}
	return *e.val.Load(), nil
}

// Close stops keeping the value current, once no other source of the store uses the
// reference; Value keeps returning the last value. It is safe to call more than once.
func (s *Source) Close() error {
	var err error
	s.closed.Do(func() {
		e := s.e
		if !e.store.release(e) {
			return
		}
		if e.watched {
			e.store.forget(e)
		}
		if e.owned {
			err = e.store.Close()
		}
	})
	return err
}

// maybePoll re-reads the file when its stat changed, at most once per poll interval. Only
// the caller that wins the compare-and-swap pays for the stat; the others read the value.
func (s *entry) maybePoll() {
	now := time.Now().UnixNano()
	next := s.nextCheck.Load()
	if now < next || !s.nextCheck.CompareAndSwap(next, now+int64(s.poll)) {
		return
	}
	st, err := stat(s.path)
	if err != nil || st == *s.lastStat.Load() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, st, err := s.readFile()
	if err != nil {
		s.store.rereadFailed(s.ref, err)
		return
	}
	s.lastStat.Store(&st)
	if v != *s.val.Load() {
		s.val.Store(&v)
		s.store.rotated(s.ref)
	}
}

// read returns the file's value without trailing line breaks (editors and echo add one).
func read(path string) (string, fileStamp, error) {
	st, err := stat(path)
	if err != nil {
		return "", fileStamp{}, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fileStamp{}, fmt.Errorf("file %s does not exist: %w", path, ErrNotFound)
		}
		return "", fileStamp{}, fmt.Errorf("reading %s: %w", path, err)
	}
	v := strings.TrimRight(string(b), "\r\n")
	if v == "" {
		// An empty credential is never meant: it is a file caught mid-write.
		return "", fileStamp{}, fmt.Errorf("file %s is empty", path)
	}
	return v, st, nil
}

// describe says which reference holds the value checkValue refused.
func (s *entry) describe(err error) error {
	if s.path != "" {
		return fmt.Errorf("file %s %w", s.path, err)
	}
	return fmt.Errorf("environment variable %s %w", strings.TrimPrefix(s.ref, "env."), err)
}

// readFile reads the entry's file, and checks the value when the entry holds a token.
func (s *entry) readFile() (string, fileStamp, error) {
	v, st, err := read(s.path)
	if err == nil && s.token.Load() {
		if err := checkValue(v); err != nil {
			return "", fileStamp{}, s.describe(err)
		}
	}
	return v, st, err
}

// MinLength is the shortest token accepted (see Store.OpenToken). The router keeps every credential it holds
// out of the text it relays and logs, and a value shorter than this would match ordinary
// words (see internal/redact); a credential that short protects nothing anyway.
const MinLength = 6

// ErrInvalid matches (errors.Is) the error for a reference that was read and holds a value
// no credential can have: a problem of the value, where ErrNotFound is one of the machine.
var ErrInvalid = errors.New("not a usable credential")

// invalidValue is checkValue's error: it says what is wrong, never the value.
type invalidValue string

func (e invalidValue) Error() string        { return string(e) }
func (e invalidValue) Is(target error) bool { return target == ErrInvalid }

// checkValue refuses a value no token can have: one too short to keep out of relayed text,
// or one with a control character (a line break inside a file, say), which no HTTP header
// can carry. Documents (a CA bundle, a service account's JSON key) are not checked.
func checkValue(v string) error {
	if n := len(v); n < MinLength {
		return invalidValue(fmt.Sprintf("holds %d characters; a credential needs at least %d", n, MinLength))
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c == 0x7f {
			return invalidValue(fmt.Sprintf("holds a control character at byte %d (a line break inside the value?); no HTTP header can carry it", i))
		}
	}
	return nil
}

func stat(path string) (fileStamp, error) {
	fi, err := os.Stat(path) // follows the symlinks, so a swapped ..data shows as a new file
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fileStamp{}, fmt.Errorf("file %s does not exist: %w", path, ErrNotFound)
		}
		return fileStamp{}, fmt.Errorf("reading %s: %w", path, err)
	}
	return fileStamp{mod: fi.ModTime(), size: fi.Size(), ino: inode(fi)}, nil
}

func parseRef(ref string) (env, path string, err error) {
	if name, ok := strings.CutPrefix(ref, "env."); ok {
		return name, "", nil
	}
	path, ok := strings.CutPrefix(ref, "file:")
	if !ok || !filepath.IsAbs(path) {
		// The reference is not echoed: a malformed one may be an inline secret.
		return "", "", errors.New(`a credential must be a reference "env.VAR" or "file:/absolute/path"`)
	}
	return "", path, nil
}
