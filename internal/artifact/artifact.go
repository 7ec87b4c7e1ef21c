// Package artifact downloads the model files a configuration names (its artifacts) from a
// repository in the Hugging Face layout, {base_url}/{repository}/resolve/{revision}/{path},
// into a local cache directory, and keeps them there.
//
// A file is written to a temporary file beside its target and renamed only once it is
// complete and, when the configuration gives one, matches its SHA-256, so a reader never
// sees half a model. An interrupted download resumes with an HTTP range request. A file
// already in the cache is not downloaded again: with a sha256 it is checked against it; without
// one, a marker written after the download records the repository, revision and size.
package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/semantic-router/semantic-router/internal/config"
)

// Log keys used by this package.
const (
	logKeyArtifact = "artifact"
	logKeyFile     = "file"
	logKeyPath     = "path"
	logKeyBytes    = "bytes"
	logKeyTotal    = "total_bytes"
	logKeyRate     = "bytes_per_second"
	logKeyETA      = "eta_seconds"
	logKeyAttempt  = "attempt"
	logKeyBackoff  = "backoff"
	logKeyError    = "error"
	logKeyKind     = "kind"
	logKeySHA256   = "sha256"
	logKeySeconds  = "seconds"
)

// Defaults of Options.
const (
	DefaultMaxAttempts      = 5
	DefaultProgressInterval = 10 * time.Second
	DefaultStallTimeout     = 60 * time.Second
	DefaultProgressMinBytes = 8 << 20

	metaDir = ".artifact" // markers and resume records, inside the artifact's dir
)

// Options configure a Downloader. The zero value is usable: it logs nothing, reads
// environment variables with os.LookupEnv and downloads what is missing.
type Options struct {
	// Logger receives progress and outcome lines; nil logs nothing.
	Logger *slog.Logger
	// LookupEnv resolves env.VAR references of tokens and CA bundles; default os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Offline forbids downloads: a missing file is an error of kind offline, and no request
	// is made, nor any token read.
	Offline bool
	// Status, when set, follows every artifact Ensure handles, for readiness.
	Status *Status
	// MaxAttempts bounds the tries of one file, the first included. Default 5.
	MaxAttempts int
	// Backoff is the wait before retry n (1 for the first retry). Default: 1s doubling per
	// retry up to 30s, with full jitter. Tests make it instant by returning 0.
	Backoff func(n int) time.Duration
	// ProgressInterval is how often a large download logs bytes, rate and ETA. Default 10s.
	ProgressInterval time.Duration
	// ProgressMinBytes is the size from which a download logs its progress; smaller files
	// log only their completion, a file of unknown size logs it too. Default 8 MiB.
	ProgressMinBytes int64
	// StallTimeout cancels a response whose body sends nothing for this long; the download
	// is then retried from where it stopped. Default 60s.
	StallTimeout time.Duration
	// ConnectTimeout bounds dialing and the TLS handshake; default 10s.
	ConnectTimeout time.Duration
	// LockPollInterval is how often a download waiting for another process's lock on the
	// same directory checks it again. Default 1s.
	LockPollInterval time.Duration
	// Now is the clock of progress lines; default time.Now.
	Now func() time.Time
	// FreeSpace reports the bytes that may still be written on the file system of dir, or
	// -1 when unknown. Default: statfs on Linux and macOS, unknown elsewhere.
	FreeSpace func(dir string) (int64, error)
}

// Downloader makes artifacts available in their cache directories. It is safe for
// concurrent use on different artifacts; two downloaders must not fill the same directory at
// once (an init container and the router it precedes never do).
type Downloader struct{ o Options }

// New returns a Downloader with o's unset fields defaulted.
func New(o Options) *Downloader {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.Backoff == nil {
		o.Backoff = defaultBackoff
	}
	if o.ProgressInterval <= 0 {
		o.ProgressInterval = DefaultProgressInterval
	}
	if o.ProgressMinBytes <= 0 {
		o.ProgressMinBytes = DefaultProgressMinBytes
	}
	if o.StallTimeout <= 0 {
		o.StallTimeout = DefaultStallTimeout
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 10 * time.Second
	}
	if o.LockPollInterval <= 0 {
		o.LockPollInterval = defaultLockPoll
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.FreeSpace == nil {
		o.FreeSpace = freeSpace
	}
	return &Downloader{o: o}
}

func defaultBackoff(n int) time.Duration {
	d := time.Second << min(n-1, 5)
	return min(d, 30*time.Second)/2 + rand.N(min(d, 30*time.Second)/2+1) //nolint:gosec // jitter needs no secure randomness
}

// Result counts what Ensure did for one artifact.
type Result struct {
	// Downloaded and Cached count files fetched now and files found complete in the cache.
	Downloaded, Cached int
	// Bytes counts the bytes received, resumed downloads counting only the rest.
	Bytes int64
}

// EnsureAll registers every artifact with the Status, then ensures them one after the
// other. It goes on after a failure, so that one run reports every problem, and returns
// them joined.
func (d *Downloader) EnsureAll(ctx context.Context, artifacts []config.Artifact) error {
	for _, a := range artifacts {
		d.o.Status.Register(a.Name)
	}
	var errs []error
	for _, a := range artifacts {
		if _, err := d.Ensure(ctx, a); err != nil {
			errs = append(errs, err)
			if ctx.Err() != nil {
				break
			}
		}
	}
	return errors.Join(errs...)
}

// Ensure makes every file of a (which must have its defaults applied) complete in a.Dir,
// downloading those that are missing, unless Offline. The error is an *Error.
func (d *Downloader) Ensure(ctx context.Context, a config.Artifact) (Result, error) {
	log := d.o.Logger.With(logKeyArtifact, a.Name)
	d.o.Status.set(a.Name, StateChecking)
	j := &job{d: d, cfg: a, log: log}
	defer j.close()
	var res Result
	for _, f := range a.Files {
		n, cached, err := j.ensureFile(ctx, f)
		res.Bytes += n
		if err != nil {
			d.o.Status.fail(a.Name, err)
			var e *Error
			kind := KindIO
			if errors.As(err, &e) {
				kind = e.Kind
			}
			if ctx.Err() != nil { // stopped on purpose (a shutdown, a newer reload): no failure
				log.Info("artifact download stopped", logKeyFile, f.Path, "cause", context.Cause(ctx).Error())
				return res, err
			}
			log.Error("artifact not available", logKeyFile, f.Path, logKeyKind, string(kind), logKeyError, err.Error())
			return res, err
		}
		if cached {
			res.Cached++
		} else {
			res.Downloaded++
		}
	}
	d.o.Status.set(a.Name, StateReady)
	log.Info("artifact ready", logKeyPath, a.Dir, "downloaded", res.Downloaded, "cached", res.Cached, logKeyBytes, res.Bytes)
	return res, nil
}

// marker records a completed download, so that a later run trusts the file without a
// checksum to compare it with.
type marker struct {
	Repository string `json:"repository"`
	Revision   string `json:"revision"`
	Path       string `json:"path"`
	Size       int64  `json:"size"`
	SHA256     string `json:"sha256"`
	// Commit is the commit the server said it served (X-Repo-Commit), when it said one.
	Commit string `json:"commit,omitempty"`
}

func (j *job) markerPath(f config.ArtifactFile) string {
	return filepath.Join(j.cfg.Dir, metaDir, filepath.FromSlash(f.SaveAs)+".json")
}

func (j *job) target(f config.ArtifactFile) string {
	return filepath.Join(j.cfg.Dir, filepath.FromSlash(f.SaveAs))
}

// stale is a cached file that is there but does not match its configuration.
type stale struct {
	kind Kind
	why  string // completes "the cached file <path> ..."
}

// cached reports whether f is complete in the cache: it matches its sha256 and size when they
// are configured, and otherwise its marker names the same repository, revision, path and
// size. A file that is there but does not match its sha256 or size is returned as stale.
func (j *job) cached(f config.ArtifactFile) (bool, *stale, error) {
	target := j.target(f)
	st, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil, nil
	}
	if err != nil {
		return false, nil, err
	}
	if f.Size > 0 && st.Size() != f.Size {
		j.log.Warn("cached file is not of its size; downloading it again", logKeyFile, f.Path, logKeyBytes, st.Size())
		return false, &stale{KindSize, fmt.Sprintf("is %d bytes, not the %d of files[].size", st.Size(), f.Size)}, nil
	}
	if f.SHA256 != "" {
		got, err := fileSHA256(target)
		if err != nil {
			return false, nil, err
		}
		if got != f.SHA256 {
			j.log.Warn("cached file does not match its sha256; downloading it again", logKeyFile, f.Path, logKeySHA256, got)
			return false, &stale{KindChecksum, fmt.Sprintf("does not match its sha256 (expected %s, got %s)", f.SHA256, got)}, nil
		}
		return true, nil, nil
	}
	raw, err := os.ReadFile(j.markerPath(f))
	if err != nil {
		return false, nil, nil //nolint:nilerr // no marker: the file is not known to be complete
	}
	var m marker
	if json.Unmarshal(raw, &m) != nil {
		return false, nil, nil
	}
	return m.Repository == j.cfg.Repository && m.Revision == j.cfg.Revision && m.Path == f.Path && m.Size == st.Size(), nil, nil
}

func (j *job) writeMarker(f config.ArtifactFile, m marker) error {
	p := j.markerPath(f)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil { //nolint:gosec // model files are not secret; the router may run as another user than the downloader
		return err
	}
	raw, _ := json.Marshal(m)
	return writeFileAtomic(p, raw)
}

func writeFileAtomic(p string, data []byte) error {
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil { //nolint:gosec // model files are not secret; the router may run as another user than the downloader
		return err
	}
	return os.Rename(tmp, p)
}

func fileSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hashing %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
