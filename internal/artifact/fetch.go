package artifact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
	"github.com/semantic-router/semantic-router/internal/secret"
)

const maxRedirects = 10

// job is the work on one artifact: its configuration and, once a download is needed, its
// HTTP client and token.
type job struct {
	d      *Downloader
	cfg    config.Artifact
	log    *slog.Logger
	client *http.Client
	token  *secret.Source
	// release frees the directory's lock, taken before the first download.
	release func()
}

func (j *job) close() {
	if j.release != nil {
		j.release()
	}
	if j.token != nil {
		j.token.Close()
	}
	if j.client != nil {
		j.client.CloseIdleConnections()
	}
}

// connect resolves the token and CA references and builds the client, on the first file that
// needs a download: a warm cache reads no secret and opens no connection.
func (j *job) connect() error {
	if j.client != nil {
		return nil
	}
	sopts := secret.Options{LookupEnv: j.d.o.LookupEnv, PollInterval: time.Hour, Logger: j.log}
	var caPEM []byte
	if ref := j.cfg.CACertPEM; !ref.IsZero() {
		src, err := secret.Open(string(ref), sopts)
		if err != nil {
			return &Error{Artifact: j.cfg.Name, Kind: KindConfig, Message: fmt.Sprintf("ca_cert_pem %s: %v", ref, err), Err: err}
		}
		v, _ := src.Value()
		src.Close()
		caPEM = []byte(v)
	}
	if ref := j.cfg.Token; !ref.IsZero() {
		src, err := secret.OpenToken(string(ref), sopts)
		if err != nil {
			return &Error{Artifact: j.cfg.Name, Kind: KindConfig, Message: fmt.Sprintf("token %s: %v", ref, err), Err: err}
		}
		j.token = src
	}
	tr, err := transport.New(transport.Options{ConnectTimeout: j.d.o.ConnectTimeout, CACertPEM: caPEM})
	if err != nil {
		return &Error{Artifact: j.cfg.Name, Kind: KindConfig, Message: fmt.Sprintf("%v (from %s)", err, j.cfg.CACertPEM), Err: err}
	}
	tr.ResponseHeaderTimeout = j.d.o.StallTimeout
	j.client = &http.Client{Transport: tr, CheckRedirect: checkRedirect}
	return nil
}

// checkRedirect follows redirects, as Hugging Face sends large files to its CDN, but never
// carries the token to another host (nor port), never downgrades to plain HTTP, and stops
// after maxRedirects. Range and If-Range travel on, so a resumed download stays resumed.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return &redirectError{fmt.Sprintf("stopped after %d redirects from %s", maxRedirects, origin(via[0].URL))}
	}
	first := via[0].URL
	if first.Scheme == "https" && req.URL.Scheme != "https" {
		return &redirectError{fmt.Sprintf("refusing a redirect from %s to plain HTTP (%s)", origin(first), origin(req.URL))}
	}
	if req.URL.Host != first.Host {
		req.Header.Del("Authorization")
	}
	return nil
}

// redirectError is a redirect refused by checkRedirect; another attempt would meet it again.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

// fileURL is {base_url}/{repository}/resolve/{revision}/{path}, the revision escaped whole
// (refs/pr/1 is one segment) and the path segment by segment.
func (j *job) fileURL(f config.ArtifactFile) string {
	segs := strings.Split(f.Path, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return j.cfg.BaseURL + "/" + j.cfg.Repository + "/resolve/" + url.PathEscape(j.cfg.Revision) + "/" + strings.Join(segs, "/")
}

// partState records what a partial download is a part of, so that it is resumed only
// against the same file.
type partState struct {
	URL  string `json:"url"`
	ETag string `json:"etag,omitempty"`
}

func (j *job) partStatePath(f config.ArtifactFile) string {
	return filepath.Join(j.cfg.Dir, metaDir, filepath.FromSlash(f.SaveAs)+".part.json")
}

// ensureFile makes f complete in the cache. It returns the bytes received and whether the
// file was already there.
func (j *job) ensureFile(ctx context.Context, f config.ArtifactFile) (int64, bool, error) {
	fail := func(kind Kind, err error) *Error {
		return &Error{Artifact: j.cfg.Name, File: f.Path, Kind: kind, Message: err.Error(), Err: err}
	}
	ok, bad, err := j.cached(f)
	if err != nil {
		return 0, false, fail(KindIO, err)
	}
	if ok {
		j.log.Debug("file in cache", logKeyFile, f.Path)
		return 0, true, nil
	}
	if j.d.o.Offline && bad != nil {
		return 0, false, &Error{Artifact: j.cfg.Name, File: f.Path, Kind: bad.kind,
			Message: fmt.Sprintf("the cached file %s %s, and downloads are off (-offline): run \"semantic-router models pull\" to download it again, or start without -offline", j.target(f), bad.why)}
	}
	if j.d.o.Offline {
		return 0, false, &Error{Artifact: j.cfg.Name, File: f.Path, Kind: KindOffline,
			Message: fmt.Sprintf("not in the cache (%s) and downloads are off (-offline): run \"semantic-router models pull\" first, or start without -offline", j.target(f))}
	}
	if j.release == nil {
		release, err := j.lock(ctx)
		if err != nil {
			return 0, false, fail(KindIO, fmt.Errorf("locking the cache directory: %w", err))
		}
		j.release = release
		j.d.o.Status.set(j.cfg.Name, StateChecking)
		// The process that held the lock may have downloaded this very file.
		if ok, _, err := j.cached(f); err != nil || ok {
			if err != nil {
				return 0, false, fail(KindIO, err)
			}
			return 0, true, nil
		}
	}
	if err := j.connect(); err != nil {
		return 0, false, err
	}
	target := j.target(f)
	if err := os.MkdirAll(filepath.Join(j.cfg.Dir, metaDir, filepath.Dir(filepath.FromSlash(f.SaveAs))), 0o755); err != nil { //nolint:gosec // model files are not secret; the router may run as another user than the downloader
		return 0, false, fail(KindIO, fmt.Errorf("cache directory: %w", err))
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil { //nolint:gosec // as above
		return 0, false, fail(KindIO, fmt.Errorf("cache directory: %w", err))
	}
	dl := &download{j: j, f: f, url: j.fileURL(f), part: target + ".part", state: j.partStatePath(f)}
	dl.loadState()
	start := j.d.o.Now()
	// attempt counts the tries since the last one that took the part file further than it
	// ever was, so that a large file on a flaky connection is not given up while it advances,
	// and a download cut at the same point every time, starting over each time, is.
	for attempt := 1; ; attempt++ {
		err := dl.try(ctx)
		if err == nil {
			break
		}
		var e *Error
		if !errors.As(err, &e) {
			e = fail(KindIO, err)
		}
		if dl.reached > dl.furthest {
			dl.furthest = dl.reached
			if e.retry {
				attempt = 1
			}
		}
		if !e.retry || attempt >= j.d.o.MaxAttempts || ctx.Err() != nil {
			if e.retry && attempt > 1 {
				e.Message += fmt.Sprintf(" (gave up after %d attempts)", attempt)
			}
			return dl.received, false, e
		}
		// The message names no token, so readiness may show it.
		j.d.o.Status.retrying(j.cfg.Name, f.Path, attempt+1, j.d.o.MaxAttempts, e)
		wait := j.d.o.Backoff(attempt)
		j.log.Warn("download attempt failed; retrying", logKeyFile, f.Path, logKeyAttempt, attempt, logKeyBackoff, wait.String(), logKeyError, e.Message)
		if err := sleep(ctx, wait); err != nil {
			return dl.received, false, fail(KindCanceled, errors.New("the download was canceled"))
		}
	}
	sum, err := fileSHA256(dl.part)
	if err != nil {
		return dl.received, false, fail(KindIO, err)
	}
	if f.SHA256 != "" && sum != f.SHA256 {
		_ = os.Remove(dl.part)
		_ = os.Remove(dl.state)
		return dl.received, false, &Error{Artifact: j.cfg.Name, File: f.Path, Kind: KindChecksum,
			Message: fmt.Sprintf("checksum mismatch: expected sha256 %s, got %s; the download was discarded (check files[].sha256 and the revision)", f.SHA256, sum)}
	}
	if err := syncFile(dl.part); err != nil {
		return dl.received, false, fail(KindIO, err)
	}
	if err := os.Rename(dl.part, target); err != nil {
		return dl.received, false, fail(KindIO, err)
	}
	_ = os.Remove(dl.state)
	m := marker{Repository: j.cfg.Repository, Revision: j.cfg.Revision, Path: f.Path, Size: dl.size, SHA256: sum, Commit: dl.commit}
	if err := j.writeMarker(f, m); err != nil {
		return dl.received, false, fail(KindIO, fmt.Errorf("writing the cache marker: %w", err))
	}
	secs := j.d.o.Now().Sub(start).Seconds()
	j.log.Info("downloaded", logKeyFile, f.Path, logKeyPath, target, logKeyBytes, dl.size, logKeySeconds, secs, logKeySHA256, sum)
	return dl.received, false, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func syncFile(p string) error {
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// download is one file's transfer into its .part file, over one or more attempts.
type download struct {
	j           *job
	f           config.ArtifactFile
	url         string
	part, state string
	etag        string
	commit      string
	size        int64 // bytes in the part file once complete
	received    int64 // bytes received over every attempt
	// reached is the part file's size at the end of the last try; furthest the largest it
	// has been in this run, a resumed part's size included.
	reached, furthest int64
}

// loadState keeps a partial download only if it was of the same URL.
func (dl *download) loadState() {
	raw, err := os.ReadFile(dl.state)
	var ps partState
	if err != nil || json.Unmarshal(raw, &ps) != nil || ps.URL != dl.url {
		_ = os.Remove(dl.part)
		return
	}
	dl.etag = ps.ETag
}

// try makes one request, resuming from the part file's size when it can, and appends the
// body to it. It returns nil once the part file holds the whole file.
func (dl *download) try(ctx context.Context) error {
	j := dl.j
	offset := int64(0)
	if st, err := os.Stat(dl.part); err == nil {
		offset = st.Size()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	// A part is resumed only when the server can say it is of the same file (a strong ETag
	// for If-Range) or a checksum will catch a mix.
	if offset > 0 && (strings.HasPrefix(dl.etag, "W/") || (dl.etag == "" && dl.f.SHA256 == "")) {
		offset = 0
	}
	dl.furthest = max(dl.furthest, offset)
	dl.reached = offset
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, dl.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", "semantic-router")
	if j.token != nil {
		tok, _ := j.token.Value()
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	if offset > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", offset))
		if dl.etag != "" {
			req.Header.Set("If-Range", dl.etag)
		}
	}
	resp, err := j.client.Do(req)
	if err != nil {
		return dl.transportError(err, req.URL)
	}
	defer resp.Body.Close()

	var total int64
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	switch resp.StatusCode {
	case http.StatusPartialContent:
		start, _, size, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != offset {
			_ = os.Remove(dl.part)
			dl.reached = 0
			return &Error{Artifact: j.cfg.Name, File: dl.f.Path, Kind: KindConnect, retry: true,
				Message: fmt.Sprintf("%s answered a resumed download with an unexpected Content-Range %q; starting over", origin(resp.Request.URL), resp.Header.Get("Content-Range"))}
		}
		// A server that ignores If-Range sends the rest of another version of the file:
		// appended to the part, it would make a file of two versions.
		if etag := resp.Header.Get("ETag"); offset > 0 && dl.etag != "" && etag != dl.etag {
			_ = os.Remove(dl.part)
			dl.reached = 0
			return &Error{Artifact: j.cfg.Name, File: dl.f.Path, Kind: KindConnect, retry: true,
				Message: fmt.Sprintf("%s answered a resumed download with another version of the file (ETag %s, not %s); starting over", origin(resp.Request.URL), etag, dl.etag)}
		}
		total = size
	case http.StatusOK:
		if offset > 0 {
			j.log.Info("the server sent the whole file; starting over", logKeyFile, dl.f.Path, logKeyBytes, offset)
		}
		offset, dl.reached = 0, 0
		total = resp.ContentLength
	case http.StatusRequestedRangeNotSatisfiable:
		_ = os.Remove(dl.part)
		dl.reached = 0
		return &Error{Artifact: j.cfg.Name, File: dl.f.Path, Kind: KindConnect, retry: true,
			Message: fmt.Sprintf("%s could not resume at byte %d; starting over", origin(resp.Request.URL), offset)}
	default:
		return statusError(j, dl.f.Path, resp)
	}
	if e := dl.webPage(resp); e != nil {
		return e
	}
	if total, err = dl.checkSize(resp, offset, total); err != nil {
		_ = os.Remove(dl.part)
		dl.reached = 0
		return err
	}
	if offset == 0 {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	if etag := resp.Header.Get("ETag"); etag != dl.etag || offset == 0 {
		dl.etag = etag
		raw, _ := json.Marshal(partState{URL: dl.url, ETag: etag})
		if err := writeFileAtomic(dl.state, raw); err != nil {
			return err
		}
	}
	if c := resp.Header.Get("X-Repo-Commit"); c != "" {
		dl.commit = c
	}
	out, err := os.OpenFile(dl.part, flags, 0o644) //nolint:gosec // model files are not secret; the router may run as another user than the downloader
	if err != nil {
		return err
	}
	defer out.Close()
	pw := &progress{dl: dl, start: j.d.o.Now(), base: offset, done: offset, total: total}
	pw.last = pw.start
	stall := time.AfterFunc(j.d.o.StallTimeout, func() { cancel(errStalled) })
	defer stall.Stop()
	limit := int64(-1)
	if dl.f.Size > 0 {
		limit = dl.f.Size - offset
	}
	guard := &spaceGuard{w: out, dl: dl, limit: limit}
	n, err := io.Copy(guard, &stallReader{r: resp.Body, t: stall, d: j.d.o.StallTimeout, w: pw})
	dl.received += n
	dl.reached = offset + n
	if e := guardError(err); e != nil {
		out.Close()
		_ = os.Remove(dl.part)
		dl.reached = 0
		return e
	}
	if err != nil {
		if cause := context.Cause(rctx); cause != nil && !errors.Is(cause, context.Canceled) {
			err = cause
		}
		return dl.transportError(err, resp.Request.URL)
	}
	dl.size = offset + n
	if total >= 0 && dl.size != total {
		return &Error{Artifact: j.cfg.Name, File: dl.f.Path, Kind: KindConnect, retry: true,
			Message: fmt.Sprintf("%s ended the file after %d of %d bytes", origin(resp.Request.URL), dl.size, total)}
	}
	return nil
}

// webPage refuses an answer that is a web page, unless the file is one: a proxy's login
// page or a captive portal answers 200 with HTML, which would be cached as the model. The
// URLs it names are redacted, a signed redirect's query included.
func (dl *download) webPage(resp *http.Response) *Error {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt != "text/html" && mt != "application/xhtml+xml" {
		return nil
	}
	if ext := strings.ToLower(path.Ext(dl.f.Path)); ext == ".html" || ext == ".htm" || ext == ".xhtml" {
		return nil
	}
	where := config.RedactURL(resp.Request.URL.String())
	if resp.Request.URL.String() != dl.url {
		where += " (redirected from " + config.RedactURL(dl.url) + ")"
	}
	return &Error{Artifact: dl.j.cfg.Name, File: dl.f.Path, Kind: KindHTTP,
		Message: fmt.Sprintf("%s sent a web page (Content-Type %s), not the file: a proxy's login page or a captive portal, or a base_url that is not a model repository; check the base_url and egress from the router", where, mt)}
}

func (dl *download) transportError(err error, u *url.URL) *Error {
	kind, msg := explainTransport(err, u)
	return &Error{Artifact: dl.j.cfg.Name, File: dl.f.Path, Kind: kind, Message: msg, Err: scrub(err),
		retry: kind == KindConnect || kind == KindDNS}
}

// parseContentRange reads "bytes start-end/size"; size is -1 for "*".
func parseContentRange(h string) (start, end, size int64, ok bool) {
	spec, found := strings.CutPrefix(h, "bytes ")
	if !found {
		return 0, 0, 0, false
	}
	rng, sz, found := strings.Cut(spec, "/")
	if !found {
		return 0, 0, 0, false
	}
	a, b, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, 0, false
	}
	var err1, err2, err3 error
	start, err1 = strconv.ParseInt(a, 10, 64)
	end, err2 = strconv.ParseInt(b, 10, 64)
	size = -1
	if sz != "*" {
		size, err3 = strconv.ParseInt(sz, 10, 64)
	}
	return start, end, size, err1 == nil && err2 == nil && err3 == nil && start <= end
}

// stallReader re-arms the stall timer on every read that brings data, and reports progress.
type stallReader struct {
	r io.Reader
	t *time.Timer
	d time.Duration
	w *progress
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.t.Reset(s.d)
		s.w.add(int64(n))
	}
	return n, err
}

// progress logs bytes, rate and ETA of a large download every ProgressInterval, and keeps
// the Status current.
type progress struct {
	dl                *download
	start, last       time.Time
	base, done, total int64
}

func (p *progress) add(n int64) {
	p.done += n
	j := p.dl.j
	j.d.o.Status.progress(j.cfg.Name, p.dl.f.Path, p.done, p.total)
	if p.total >= 0 && p.total < j.d.o.ProgressMinBytes {
		return
	}
	now := j.d.o.Now()
	if now.Sub(p.last) < j.d.o.ProgressInterval {
		return
	}
	p.last = now
	rate := float64(p.done-p.base) / max(now.Sub(p.start).Seconds(), 1e-3)
	attrs := []any{logKeyFile, p.dl.f.Path, logKeyBytes, p.done, logKeyTotal, p.total, logKeyRate, int64(rate)}
	if p.total >= 0 && rate > 0 {
		attrs = append(attrs, logKeyETA, int64(float64(p.total-p.done)/rate))
	}
	j.log.Info("downloading", attrs...)
}
