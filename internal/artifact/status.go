package artifact

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// State is where one artifact stands.
type State string

// Artifact states, in the order an artifact goes through them.
const (
	StatePending     State = "pending"     // registered, not looked at yet
	StateChecking    State = "checking"    // comparing the cache with the configuration
	StateWaiting     State = "waiting"     // another process is downloading into the same directory
	StateDownloading State = "downloading" // a file is being downloaded
	StateRetrying    State = "retrying"    // a file's download failed and is tried again; Error says why
	StateReady       State = "ready"       // every file is in the cache and complete
	StateFailed      State = "failed"      // the last attempt failed; Reason says why
)

// ArtifactStatus is one artifact's state, for a readiness body or an API.
type ArtifactStatus struct {
	Name  string `json:"name"`
	State State  `json:"state"`
	// File is the repository path being downloaded (downloading, retrying).
	File string `json:"file,omitempty"`
	// Bytes and Total count the file's bytes so far and in all; Total is -1 when unknown.
	Bytes int64 `json:"bytes,omitempty"`
	Total int64 `json:"total,omitempty"`
	// Dir is the directory another process is downloading into (waiting).
	Dir string `json:"dir,omitempty"`
	// Attempt is the try about to be made of File, of at most MaxAttempts without progress
	// (retrying).
	Attempt     int `json:"attempt,omitempty"`
	MaxAttempts int `json:"max_attempts,omitempty"`
	// Kind and Error describe a failure (failed), or the last try's (retrying).
	Kind  Kind   `json:"kind,omitempty"`
	Error string `json:"error,omitempty"`
}

// Status tracks the artifacts of one configuration, so that readiness can say which are
// missing, downloading or failed, and why. It is safe for concurrent use; a nil *Status is
// always ready, as is one with no artifact registered.
type Status struct {
	mu    sync.Mutex
	order []string
	items map[string]*ArtifactStatus
}

// Register adds artifacts in the pending state; a name registered before keeps its state.
func (s *Status) Register(names ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.items == nil {
		s.items = map[string]*ArtifactStatus{}
	}
	for _, n := range names {
		if _, ok := s.items[n]; !ok {
			s.items[n] = &ArtifactStatus{Name: n, State: StatePending}
			s.order = append(s.order, n)
		}
	}
}

func (s *Status) update(name string, f func(*ArtifactStatus)) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.items[name]
	if !ok {
		if s.items == nil {
			s.items = map[string]*ArtifactStatus{}
		}
		it = &ArtifactStatus{Name: name}
		s.items[name] = it
		s.order = append(s.order, name)
	}
	f(it)
}

func (s *Status) set(name string, st State) {
	s.update(name, func(it *ArtifactStatus) { *it = ArtifactStatus{Name: name, State: st} })
}

func (s *Status) progress(name, file string, bytes, total int64) {
	s.update(name, func(it *ArtifactStatus) {
		*it = ArtifactStatus{Name: name, State: StateDownloading, File: file, Bytes: bytes, Total: total}
	})
}

func (s *Status) waiting(name, dir string) {
	s.update(name, func(it *ArtifactStatus) { *it = ArtifactStatus{Name: name, State: StateWaiting, Dir: dir} })
}

// retrying records that file's last try failed with e and that try attempt of maxAttempts
// comes next.
func (s *Status) retrying(name, file string, attempt, maxAttempts int, e *Error) {
	s.update(name, func(it *ArtifactStatus) {
		*it = ArtifactStatus{Name: name, State: StateRetrying, File: file, Attempt: attempt, MaxAttempts: maxAttempts, Kind: e.Kind, Error: e.Message}
	})
}

func (s *Status) fail(name string, err error) {
	kind, msg := Kind(""), err.Error()
	if e := (*Error)(nil); errors.As(err, &e) {
		kind = e.Kind
	}
	s.update(name, func(it *ArtifactStatus) { *it = ArtifactStatus{Name: name, State: StateFailed, Kind: kind, Error: msg} })
}

// Ready reports whether every registered artifact is ready and, when not, why, one clause
// per artifact that is not, as in
// `artifact "minilm": downloading onnx/model.onnx (12.0 MiB of 86.2 MiB)`.
func (s *Status) Ready() (bool, string) {
	if s == nil {
		return true, ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var reasons []string
	for _, n := range s.order {
		if r := reason(s.items[n]); r != "" {
			reasons = append(reasons, r)
		}
	}
	return len(reasons) == 0, strings.Join(reasons, "; ")
}

// Check is Ready as an error, the reason, for a readiness check; ctx is not used.
func (s *Status) Check(context.Context) error {
	if ok, why := s.Ready(); !ok {
		return errors.New(why)
	}
	return nil
}

// ArtifactReady reports whether the named artifact is ready and, when not, why. An artifact
// never registered is not ready. Requests that need one model can ask about it alone, so
// that the others are served while it downloads.
func (s *Status) ArtifactReady(name string) (bool, string) {
	if s == nil {
		return false, fmt.Sprintf("artifact %q is not configured", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.items[name]
	if !ok {
		return false, fmt.Sprintf("artifact %q is not configured", name)
	}
	r := reason(it)
	return r == "", r
}

// Snapshot returns every artifact's status, in registration order.
func (s *Status) Snapshot() []ArtifactStatus {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ArtifactStatus, 0, len(s.order))
	for _, n := range s.order {
		out = append(out, *s.items[n])
	}
	return out
}

func reason(it *ArtifactStatus) string {
	switch it.State {
	case StateReady:
		return ""
	case StateDownloading:
		if it.Total >= 0 {
			return fmt.Sprintf("artifact %q: downloading %s (%s of %s)", it.Name, it.File, size(it.Bytes), size(it.Total))
		}
		return fmt.Sprintf("artifact %q: downloading %s (%s)", it.Name, it.File, size(it.Bytes))
	case StateRetrying:
		return fmt.Sprintf("artifact %q: retrying %s (attempt %d of %d): %s", it.Name, it.File, it.Attempt, it.MaxAttempts, it.Error)
	case StateFailed:
		return it.Error // already "artifact %q: ..."
	case StateWaiting:
		return fmt.Sprintf("artifact %q: waiting for another process downloading into %s", it.Name, it.Dir)
	case StateChecking:
		return fmt.Sprintf("artifact %q: checking the cache", it.Name)
	default:
		return fmt.Sprintf("artifact %q: not downloaded yet", it.Name)
	}
}

// size writes n bytes for people: 512 B, 12.0 MiB, 1.3 GiB.
func size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
