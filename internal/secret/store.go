package secret

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Store opens credential references and keeps the file: ones current. It watches each
// directory once, however many sources live in it, and re-reads all of a directory's
// sources together before publishing any: the keys of one mounted Secret (an access key id
// and its secret) then change at one moment, as the kubelet's ..data swap changed them,
// instead of one file after the other. It is safe for concurrent use.
type Store struct {
	opts Options

	// openMu serializes Open and the last Close of a reference, which share entries.
	openMu sync.Mutex
	open   map[string]*entry

	mu     sync.Mutex
	dirs   map[string]*dirWatch
	closed bool
}

// dirWatch is the watch of one directory and the sources in it.
type dirWatch struct {
	dir     string
	w       *fsnotify.Watcher
	done    chan struct{}
	reload  sync.Mutex // serializes reloads of the directory, so rotations are reported in order
	mu      sync.Mutex // guards sources
	sources []*entry
}

// NewStore returns a store. Close releases its watchers.
func NewStore(o Options) *Store {
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	return &Store{opts: o, dirs: map[string]*dirWatch{}, open: map[string]*entry{}}
}

// Open resolves ref ("env.VAR" or "file:/abs/path") and, for a file, keeps it current. It
// fails when the variable is not set, the file cannot be read, or it is empty; the error
// names the reference, never the value. A reference already open in the store is not read
// again: the new source shares its value, and its rotations are reported once.
func (st *Store) Open(ref string) (*Source, error) { return st.openRef(ref, false) }

// OpenToken is Open for a credential sent in a header (an API key, a bearer token, a
// password): its value, at Open and on every change, must be at least MinLength characters
// with no control character, or the reference fails to open (an error matching ErrInvalid)
// and a change to such a value keeps the previous one.
func (st *Store) OpenToken(ref string) (*Source, error) { return st.openRef(ref, true) }

func (st *Store) openRef(ref string, token bool) (*Source, error) {
	st.openMu.Lock()
	defer st.openMu.Unlock()
	if e := st.open[ref]; e != nil {
		if token && !e.token.Load() {
			if err := checkValue(*e.val.Load()); err != nil {
				return nil, e.describe(err)
			}
			e.token.Store(true)
		}
		e.users++
		return &Source{e: e}, nil
	}
	e, err := st.openEntry(ref, token)
	if err != nil {
		return nil, err
	}
	e.users = 1
	st.open[ref] = e
	return &Source{e: e}, nil
}

// release notes that a source of e was closed, and reports whether it was the last.
func (st *Store) release(e *entry) bool {
	st.openMu.Lock()
	defer st.openMu.Unlock()
	e.users--
	if e.users > 0 {
		return false
	}
	if st.open[e.ref] == e {
		delete(st.open, e.ref)
	}
	return true
}

func (st *Store) openEntry(ref string, token bool) (*entry, error) {
	env, path, err := parseRef(ref)
	if err != nil {
		return nil, err
	}
	s := &entry{ref: ref, path: path, store: st}
	s.token.Store(token)
	if path == "" {
		v, found := st.opts.LookupEnv(env)
		if !found {
			return nil, fmt.Errorf("environment variable %s is not set (names are case-sensitive and must match the Secret key exactly): %w", env, ErrNotFound)
		}
		if token {
			if err := checkValue(v); err != nil {
				return nil, s.describe(err)
			}
		}
		s.val.Store(&v)
		return s, nil
	}
	v, fs, err := s.readFile()
	if err != nil {
		return nil, err
	}
	s.val.Store(&v)
	s.lastStat.Store(&fs)
	if st.opts.PollInterval > 0 {
		s.poll = st.opts.PollInterval
		return s, nil
	}
	if err := st.watch(s); err != nil {
		// Without inotify (instance limit reached, an unusual file system) the value is
		// still kept current, by a stat on use.
		s.poll = time.Second
		if st.opts.Logger != nil {
			st.opts.Logger.Warn("watching the secret's directory failed; checking it on use instead", logKeyRef, ref, logKeyError, err.Error())
		}
		return s, nil
	}
	return s, nil
}

// Close stops all watches. Sources keep returning their last values.
func (st *Store) Close() error {
	st.openMu.Lock()
	st.open = map[string]*entry{} // a later Open reads afresh rather than share a value no longer kept current
	st.openMu.Unlock()
	st.mu.Lock()
	dirs := st.dirs
	st.dirs, st.closed = map[string]*dirWatch{}, true
	st.mu.Unlock()
	var errs []error
	for _, d := range dirs {
		errs = append(errs, d.stop())
	}
	return errors.Join(errs...)
}

// watch adds s to the watch of its directory, starting one if needed. The directory, not
// the file, is watched: Kubernetes updates a mounted Secret by pointing the ..data symlink
// at a new timestamped directory, which changes what the path resolves to without any
// event on the old target.
func (st *Store) watch(s *entry) error {
	dir := filepath.Dir(s.path)
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return errors.New("the store is closed")
	}
	d, ok := st.dirs[dir]
	if !ok {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			return err
		}
		if err := w.Add(dir); err != nil {
			_ = w.Close()
			return err
		}
		d = &dirWatch{dir: dir, w: w, done: make(chan struct{})}
		st.dirs[dir] = d
		go st.loop(d)
	}
	d.mu.Lock()
	d.sources = append(d.sources, s)
	d.mu.Unlock()
	s.watched = true
	// A change between the first read and joining the watch would go unnoticed until the
	// next event; one more read closes that gap.
	go st.reload(d)
	return nil
}

// forget removes s from its directory's watch, stopping the watch when it was the last.
func (st *Store) forget(s *entry) {
	dir := filepath.Dir(s.path)
	st.mu.Lock()
	d, ok := st.dirs[dir]
	if !ok {
		st.mu.Unlock()
		return
	}
	d.mu.Lock()
	for i, x := range d.sources {
		if x == s {
			d.sources = append(d.sources[:i], d.sources[i+1:]...)
			break
		}
	}
	empty := len(d.sources) == 0
	d.mu.Unlock()
	if empty {
		delete(st.dirs, dir)
	}
	st.mu.Unlock()
	if empty {
		_ = d.stop()
	}
}

func (d *dirWatch) stop() error {
	close(d.done)
	return d.w.Close()
}

func (st *Store) loop(d *dirWatch) {
	for {
		select {
		case <-d.done:
			return
		case _, ok := <-d.w.Events:
			if !ok {
				return
			}
			// Any event in the directory may have changed what the paths resolve to; a
			// re-read is cheap and an unchanged value is no rotation.
			st.reload(d)
		case err, ok := <-d.w.Errors:
			if !ok {
				return
			}
			// An overflow may have dropped the event that mattered.
			if st.opts.Logger != nil {
				st.opts.Logger.Warn("watching a secret directory", logKeyDir, d.dir, logKeyError, err.Error())
			}
			st.reload(d)
		}
	}
}

// reload reads every source of the directory first and publishes the changed values
// after, back to back, so that readers see the old set or the new set and a mixed pair
// only for the nanoseconds between two atomic stores.
func (st *Store) reload(d *dirWatch) {
	d.reload.Lock()
	defer d.reload.Unlock()
	d.mu.Lock()
	sources := append([]*entry(nil), d.sources...)
	d.mu.Unlock()
	type change struct {
		s *entry
		v string
	}
	var changes []change
	for _, s := range sources {
		v, _, err := s.readFile()
		if err != nil {
			st.rereadFailed(s.ref, err)
			continue
		}
		if v != *s.val.Load() {
			changes = append(changes, change{s, v})
		}
	}
	for _, c := range changes {
		c.s.val.Store(&c.v)
	}
	for _, c := range changes {
		st.rotated(c.s.ref)
	}
}

func (st *Store) rotated(ref string) {
	if st.opts.Logger != nil {
		st.opts.Logger.Info("credential rotated", logKeyRef, ref)
	}
	if st.opts.OnRotate != nil {
		st.opts.OnRotate(ref)
	}
}

// rereadFailed logs a failed re-read; the previous value stays in use.
func (st *Store) rereadFailed(ref string, err error) {
	if st.opts.Logger != nil {
		st.opts.Logger.Warn("re-reading the secret failed; keeping the previous value", logKeyRef, ref, logKeyError, err.Error())
	}
}
