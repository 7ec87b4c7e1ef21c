package artifact

import (
	"context"
	"os"
	"path/filepath"
	"time"
)

// lockFile serialises downloads into one directory across processes: two router replicas
// sharing a volume, or a router started while "models pull" still runs. Only a download
// takes it; a warm cache is read without it, so a read-only volume works offline.
const lockFile = "lock"

// lock takes the artifact directory's lock, waiting (and saying so in the Status and the
// log) while another process holds it. A file system without locks is used unlocked, with a
// warning. The returned release is never nil.
func (j *job) lock(ctx context.Context) (release func(), err error) {
	p := filepath.Join(j.cfg.Dir, metaDir, lockFile)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil { //nolint:gosec // model files are not secret; the router may run as another user than the downloader
		return func() {}, err
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o644) //nolint:gosec // as above
	if err != nil {
		return func() {}, err
	}
	waiting := false
	for {
		busy, err := tryLock(f)
		switch {
		case err != nil:
			j.log.Warn("cannot lock the artifact directory; downloading without a lock", logKeyPath, p, logKeyError, err.Error())
			return func() { f.Close() }, nil
		case !busy:
			return func() { unlock(f); f.Close() }, nil
		case !waiting:
			waiting = true
			j.d.o.Status.waiting(j.cfg.Name, j.cfg.Dir)
			j.log.Info("waiting for another process downloading into the same directory", logKeyPath, j.cfg.Dir)
		}
		if err := sleep(ctx, j.d.o.LockPollInterval); err != nil {
			f.Close()
			return func() {}, err
		}
	}
}

// defaultLockPoll is how often a waiting download checks whether the lock was released.
const defaultLockPoll = time.Second
