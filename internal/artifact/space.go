package artifact

import (
	"errors"
	"fmt"
	"io"
	"net/http"
)

// minFreeBytes is the room a download leaves on the cache's file system: one that would
// leave less is refused, or stopped, so that a model never fills the volume the router and
// its logs share.
const minFreeBytes = 64 << 20

// spaceCheckEvery is how many bytes a download writes between two looks at the free space.
const spaceCheckEvery = 1 << 20

// checkSize refuses, before any byte is written, an answer whose announced size (total, -1
// when unknown; Content-Length or the Content-Range total) disagrees with the file's
// configured size, or whose remaining bytes would not leave minFreeBytes free. It returns
// the total to expect, the configured size when the server announced none.
func (dl *download) checkSize(resp *http.Response, offset, total int64) (int64, error) {
	j, f := dl.j, dl.f
	where := origin(resp.Request.URL)
	if f.Size > 0 && total >= 0 && total != f.Size {
		header := "Content-Length"
		if resp.StatusCode == http.StatusPartialContent {
			header = "Content-Range"
		}
		return total, &Error{Artifact: j.cfg.Name, File: f.Path, Kind: KindSize,
			Message: fmt.Sprintf("%s says the file is %d bytes (%s), not the %d of files[].size; refusing it (check files[].size and the revision)", where, total, header, f.Size)}
	}
	if total < 0 && f.Size > 0 {
		total = f.Size
	}
	if total < 0 {
		return total, nil
	}
	free, err := j.d.o.FreeSpace(j.cfg.Dir)
	if err != nil || free < 0 {
		return total, nil //nolint:nilerr // a file system that cannot tell its free space is not refused for it
	}
	if rest := total - offset; rest > free-minFreeBytes {
		return total, &Error{Artifact: j.cfg.Name, File: f.Path, Kind: KindIO,
			Message: fmt.Sprintf("%s says the file is %s (%d bytes) and the file system of %s has %s free; refusing it, as a download must leave %s free (free up or enlarge the volume)",
				where, size(total), total, j.cfg.Dir, size(free), size(minFreeBytes))}
	}
	return total, nil
}

// spaceGuard writes a download's body into its part file, refusing the bytes that go past
// limit (the configured size less the resumed offset; -1 for none) and stopping once the
// file system has less than minFreeBytes free.
type spaceGuard struct {
	w       io.Writer
	dl      *download
	limit   int64
	written int64
	// unchecked counts the bytes written since the free space was last looked at.
	unchecked int64
}

// errGuard is the *Error a spaceGuard stopped a body with; try returns it as it is.
type errGuard struct{ e *Error }

func (e *errGuard) Error() string { return e.e.Error() }

func (g *spaceGuard) Write(p []byte) (int, error) {
	j, f := g.dl.j, g.dl.f
	if g.limit >= 0 && g.written+int64(len(p)) > g.limit {
		return 0, &errGuard{&Error{Artifact: j.cfg.Name, File: f.Path, Kind: KindSize,
			Message: fmt.Sprintf("the server sent more than the %d bytes of files[].size; the download was discarded (check files[].size and the revision)", f.Size)}}
	}
	if g.unchecked == 0 || g.unchecked+int64(len(p)) > spaceCheckEvery {
		g.unchecked = 0
		if free, err := j.d.o.FreeSpace(j.cfg.Dir); err == nil && free >= 0 && free-int64(len(p)) < minFreeBytes {
			return 0, &errGuard{&Error{Artifact: j.cfg.Name, File: f.Path, Kind: KindIO,
				Message: fmt.Sprintf("the file system of %s has less than %s free; the download was stopped and discarded (free up or enlarge the volume)", j.cfg.Dir, size(minFreeBytes))}}
		}
	}
	n, err := g.w.Write(p)
	g.written += int64(n)
	g.unchecked += int64(n)
	return n, err
}

// guardError returns the *Error a spaceGuard stopped a body with, or nil.
func guardError(err error) *Error {
	var g *errGuard
	if errors.As(err, &g) {
		return g.e
	}
	return nil
}
