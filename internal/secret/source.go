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

	"github.com/fsnotify/fsnotify"
)

// Log keys used by Source.
const (
	logKeyRef   = "ref"
	logKeyError = "error"
)

// ErrNotFound is returned when the referenced variable or file does not exist.
var ErrNotFound = errors.New("secret not found")

// Options configure a Source. The zero value is usable.
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
// afterwards, while requests that already read it go on with the old one.
type Source struct {
	ref  string
	path string // empty for env references
	opts Options

	val atomic.Pointer[string]

	// Polling state, used only when watcher is nil and path is set.
	nextCheck atomic.Int64 // unix nanos of the next stat
	lastStat  atomic.Pointer[fileStamp]

	mu      sync.Mutex // serializes reloads, so rotations are reported in order
	watcher *fsnotify.Watcher
	done    chan struct{}
	closed  sync.Once
}

type fileStamp struct {
	mod  time.Time
	size int64
	ino  uint64
}

// Open resolves ref ("env.VAR" or "file:/abs/path") and, for a file, starts watching it.
// It fails when the variable is not set, the file cannot be read, or it is empty; the
// error names the reference, never the value. Close releases the watcher.
func Open(ref string, o Options) (*Source, error) {
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	s := &Source{ref: ref, opts: o, done: make(chan struct{})}
	if name, ok := strings.CutPrefix(ref, "env."); ok {
		v, found := o.LookupEnv(name)
		if !found {
			return nil, fmt.Errorf("environment variable %s is not set (names are case-sensitive and must match the Secret key exactly): %w", name, ErrNotFound)
		}
		s.val.Store(&v)
		return s, nil
	}
	path, ok := strings.CutPrefix(ref, "file:")
	if !ok || !filepath.IsAbs(path) {
		// The reference is not echoed: a malformed one may be an inline secret.
		return nil, errors.New(`a credential must be a reference "env.VAR" or "file:/absolute/path"`)
	}
	s.path = path
	v, st, err := s.read()
	if err != nil {
		return nil, err
	}
	s.val.Store(&v)
	s.lastStat.Store(&st)
	if o.PollInterval > 0 {
		return s, nil
	}
	if err := s.watch(); err != nil {
		// Without inotify (instance limit reached, unusual file system) the value is still
		// kept current, by a stat on use.
		s.opts.PollInterval = time.Second
		s.log("watching the secret's directory failed; checking it on use instead", err)
	}
	return s, nil
}

// Ref returns the reference the source was opened with; it is safe to log.
func (s *Source) Ref() string { return s.ref }

// Value returns the current value. After a successful Open it never fails: a re-read that
// fails keeps the previous value (and logs why), so a half-written Secret cannot take a
// model down. The error result lets Value serve as a provider's credential getter.
func (s *Source) Value() (string, error) {
	if s.path != "" && s.watcher == nil {
		s.maybePoll()
	}
	return *s.val.Load(), nil
}

// Close stops watching. Value keeps returning the last value. It is safe to call more
// than once.
func (s *Source) Close() error {
	var err error
	s.closed.Do(func() {
		close(s.done)
		if s.watcher != nil {
			err = s.watcher.Close()
		}
	})
	return err
}

// watch follows the file's directory rather than the file: Kubernetes updates a mounted
// Secret by pointing the ..data symlink at a new timestamped directory, which changes what
// the path resolves to without any event on the old target.
func (s *Source) watch() error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	if err := w.Add(filepath.Dir(s.path)); err != nil {
		_ = w.Close()
		return err
	}
	s.watcher = w
	go s.loop()
	return nil
}

func (s *Source) loop() {
	for {
		select {
		case <-s.done:
			return
		case _, ok := <-s.watcher.Events:
			if !ok {
				return
			}
			// Any event in the directory may have changed what the path resolves to; a
			// re-read is cheap and reload ignores an unchanged value.
			s.reload()
		case err, ok := <-s.watcher.Errors:
			if !ok {
				return
			}
			// An overflow may have dropped the event that mattered.
			s.log("watching the secret's directory", err)
			s.reload()
		}
	}
}

// maybePoll re-reads the file when its stat changed, at most once per PollInterval. Only
// the caller that wins the compare-and-swap pays for the stat; the others read the value.
func (s *Source) maybePoll() {
	now := time.Now().UnixNano()
	next := s.nextCheck.Load()
	if now < next || !s.nextCheck.CompareAndSwap(next, now+int64(s.opts.PollInterval)) {
		return
	}
	st, err := stat(s.path)
	if err != nil || st == *s.lastStat.Load() {
		return
	}
	s.reload()
}

// reload reads the file and, when the value changed, swaps it in and reports the rotation.
func (s *Source) reload() {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, st, err := s.read()
	if err != nil {
		s.log("re-reading the secret failed; keeping the previous value", err)
		return
	}
	s.lastStat.Store(&st)
	if v == *s.val.Load() {
		return
	}
	s.val.Store(&v)
	if s.opts.Logger != nil {
		s.opts.Logger.Info("credential rotated", logKeyRef, s.ref)
	}
	if s.opts.OnRotate != nil {
		s.opts.OnRotate(s.ref)
	}
}

// read returns the file's value without trailing line breaks (editors and echo add one).
func (s *Source) read() (string, fileStamp, error) {
	st, err := stat(s.path)
	if err != nil {
		return "", fileStamp{}, err
	}
	b, err := os.ReadFile(s.path)
	if err != nil {
		return "", fileStamp{}, s.fileErr(err)
	}
	v := strings.TrimRight(string(b), "\r\n")
	if v == "" {
		// An empty credential is never meant: it is a file caught mid-write.
		return "", fileStamp{}, fmt.Errorf("file %s is empty", s.path)
	}
	return v, st, nil
}

func (s *Source) fileErr(err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("file %s does not exist: %w", s.path, ErrNotFound)
	}
	return fmt.Errorf("reading %s: %w", s.path, err)
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

func (s *Source) log(msg string, err error) {
	if s.opts.Logger != nil {
		s.opts.Logger.Warn(msg, logKeyRef, s.ref, logKeyError, err.Error())
	}
}
