package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/secret"
	"github.com/semantic-router/semantic-router/internal/server"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// reloadDebounce gathers the several events of one change (a ConfigMap update creates a
// directory, swaps the ..data symlink and removes the old one) into one reload.
const reloadDebounce = 100 * time.Millisecond

// reloader re-reads the config file on change, on SIGHUP and on POST /api/v1/config/reload.
// A valid new config gets a new router, swapped in atomically; the old one serves its
// requests to the end and is closed after the last. An invalid one is refused, logged with
// every problem, and the old config keeps serving. A new config's model artifacts missing
// from their cache are downloaded first, while the old config serves; with offline, or when
// the download fails, the reload is refused with the cause. A reload started while another
// is still downloading replaces it: the file's newest content is what counts.
type reloader struct {
	path    string
	holder  *router.Holder
	opts    router.Options
	offline bool
	log     *slog.Logger
	metrics *telemetry.Metrics
	// started holds the server settings the listeners took at start: a reload cannot change
	// them, so a reloaded config keeps them, and the effective config shows what is in force.
	started config.Server

	mu      sync.Mutex // one reload at a time
	last    [32]byte   // hash of the file content now serving
	refused [32]byte   // hash of the content last refused

	// onApplied, when set, is called after a reload is applied.
	onApplied func()

	runMu  sync.Mutex
	cancel context.CancelCauseFunc // the running reload's, to replace it
}

// errReplaced ends a reload that a newer one replaced.
var errReplaced = server.ErrReloadReplaced

// The values of the reloads counter's result label.
const (
	reloadApplied   = "applied"
	reloadUnchanged = "unchanged"
	reloadInvalid   = "invalid"
)

// reloadResults are the result label's values. Each series is created at 0 when the router
// starts: a series that appears at 1 reads as no change to increase() and rate(), so an alert
// on the first invalid file would never see it.
var reloadResults = [...]string{reloadApplied, reloadUnchanged, reloadInvalid}

func (rl *reloader) count(result string) {
	rl.metrics.ConfigReloads.WithLabelValues(result).Inc()
}

// reload applies the file's current content, as SIGHUP and the reload API ask: an unchanged
// file is no reload, and a refused one is reported again.
func (rl *reloader) reload(ctx context.Context) (bool, error) { return rl.apply(ctx, true) }

// apply applies the file's current content. A change noticed by the watcher (explicit false)
// that leads back to content already refused is not reported again: the kubelet's clean-up
// after a ConfigMap update, or an editor's backup file, would repeat the same problems.
// ctx bounds the download of the new config's artifacts.
func (rl *reloader) apply(ctx context.Context, explicit bool) (applied bool, err error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	rl.runMu.Lock()
	if rl.cancel != nil {
		rl.cancel(errReplaced) // it may be waiting for a download; this one reads the file anew
	}
	rl.cancel = cancel
	rl.runMu.Unlock()
	rl.mu.Lock()
	defer rl.mu.Unlock()
	if errors.Is(context.Cause(ctx), errReplaced) {
		return false, context.Cause(ctx) // replaced before it began
	}
	data, err := os.ReadFile(rl.path)
	if err != nil {
		rl.count(reloadInvalid)
		rl.log.Error("config reload refused; the previous config keeps serving", "config", rl.path, "error", err.Error())
		return false, fmt.Errorf("reading config: %w", err)
	}
	sum := sha256.Sum256(data)
	if sum == rl.last || (!explicit && sum == rl.refused) {
		rl.count(reloadUnchanged)
		return false, nil
	}
	cfg, err := config.Parse(data)
	if err == nil {
		for _, note := range keepRestartOnly(rl.started, &cfg.Server) {
			rl.log.Warn("setting takes a restart", "config", rl.path, "warning", cfg.Note(note.path, "%s", note.msg))
		}
		if len(cfg.Artifacts) > 0 {
			rl.log.Info("config reload: checking the new config's model artifacts; the current config serves meanwhile", "config", rl.path)
		}
		err = pullArtifacts(ctx, cfg, rl.offline, rl.log, nil)
		if cause := context.Cause(ctx); err != nil && errors.Is(cause, errReplaced) {
			rl.log.Info("config reload replaced by a newer one while it fetched model artifacts", "config", rl.path)
			return false, cause
		}
	}
	if err == nil {
		var rt *router.Router
		opts := rl.opts
		opts.Previous = rl.holder.Current() // its cached answers carry over when they still hold
		if rt, err = router.New(cfg, opts); err == nil {
			// A config whose remote embedder does not answer is refused, as at start-up it
			// would only hold /ready at 503: the previous config keeps serving instead of
			// every replica leaving service at once. A reload once it answers applies it.
			if err = rt.Ready(context.Background()); err != nil {
				_ = rt.Close()
			}
		}
		if err == nil {
			drained := rl.holder.Swap(rt)
			rl.last = sum
			rl.count(reloadApplied)
			rl.log.Info("config reloaded", "config", rl.path, "models", len(cfg.Models))
			go func() {
				<-drained
				rl.log.Info("previous config drained and closed")
			}()
			if rl.onApplied != nil {
				rl.onApplied()
			}
			return true, nil
		}
	}
	rl.count(reloadInvalid)
	if ctx.Err() == nil { // a download cut short says nothing of the content
		rl.refused = sum
	}
	var problems config.Problems
	if errors.As(err, &problems) {
		for _, p := range problems {
			rl.log.Error("config problem", "config", rl.path, "problem", p.Error())
		}
	}
	rl.log.Error("config reload refused; the previous config keeps serving", "config", rl.path, "error", err.Error())
	return false, err
}

// watch reloads when the config file's directory changes in a way that may change the file
// (the directory, because a ConfigMap volume changes by swapping its ..data symlink, with no
// event on the file), and on SIGHUP, until ctx ends. Other files in the directory, such as a
// log written next to the config, are ignored. The reload runs reloadDebounce after the first
// event of a change; later events of the same change do not postpone it, so a stream of
// events cannot hold a change back.
func (rl *reloader) watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer func() { _ = w.Close() }()
	if err := w.Add(filepath.Dir(rl.path)); err != nil {
		return err
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	debounce := time.NewTimer(time.Hour)
	debounce.Stop()
	defer debounce.Stop()
	// Reloads run beside the loop, so that a change or a SIGHUP during a long download is
	// seen at once and replaces it.
	var running sync.WaitGroup
	defer running.Wait()
	applyAsync := func(explicit bool) {
		running.Go(func() { _, _ = rl.apply(ctx, explicit) })
	}
	pending := false
	arm := func() {
		if !pending {
			pending = true
			debounce.Reset(reloadDebounce)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-hup:
			rl.log.Info("SIGHUP: reloading the config", "config", rl.path)
			applyAsync(true)
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if rl.concerns(ev.Name) {
				arm()
			}
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			rl.log.Warn("watching the config", "config", rl.path, "error", err.Error())
			arm() // an overflow may have dropped the event that mattered
		case <-debounce.C:
			pending = false
			applyAsync(false)
		}
	}
}

// concerns reports whether a change to name, a file in the config file's directory, may
// change what the config path reads: the file itself (an editor saves by renaming onto it),
// the kubelet's ..data symlink and versioned ..directories, and the target of the file when it
// is a symlink into the same directory.
func (rl *reloader) concerns(name string) bool {
	base := filepath.Base(name)
	if base == filepath.Base(rl.path) || strings.HasPrefix(base, "..") {
		return true
	}
	target, err := os.Readlink(rl.path)
	if err != nil {
		return false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(rl.path), target)
	}
	return filepath.Clean(target) == filepath.Clean(name)
}

// accessRefNotes checks the client keys' and management tokens' references as refNote does.
func accessRefNotes(cfg *config.Config, secrets *secret.Store) (warnings, problems []string) {
	// seen holds the field of each value read so far, by its hash, within one set (client
	// keys, management tokens): two fields with one value are refused at start.
	check := func(seen map[[32]byte]string, path string, ref config.SecretRef) {
		src, err := secrets.OpenToken(string(ref))
		if err != nil {
			w, p := refNote(cfg, path, ref, err)
			warnings, problems = append(warnings, w...), append(problems, p...)
			return
		}
		v, err := src.Value()
		if err != nil {
			return
		}
		h := sha256.Sum256([]byte(v))
		if other, ok := seen[h]; ok {
			problems = append(problems, cfg.Note(path, "%s: holds the same value as %s; give each its own", ref, other))
			return
		}
		seen[h] = path
	}
	keys := map[[32]byte]string{}
	for i, k := range cfg.Admission.APIKeys {
		check(keys, fmt.Sprintf("admission.api_keys[%d].key", i), k.Key)
	}
	if m := cfg.Management; m != nil {
		tokens := map[[32]byte]string{}
		for i, t := range m.Tokens {
			check(tokens, fmt.Sprintf("management.tokens[%d].token", i), t.Token)
		}
	}
	return warnings, problems
}

// refNote says what -validate makes of a reference it could not open: a warning when this
// machine cannot read it (the machine that validates is often not the one that runs), a
// problem when it holds a value no credential can have, which would stop the router anywhere.
func refNote(cfg *config.Config, path string, ref config.SecretRef, err error) (warnings, problems []string) {
	if errors.Is(err, secret.ErrInvalid) {
		return nil, []string{cfg.Note(path, "%s: %v", ref, err)}
	}
	return []string{cfg.Note(path, "%s: %v (the router will refuse to start where it is missing)", ref, err)}, nil
}

type restartNote struct{ path, msg string }

// keepRestartOnly sets next's restart-only server settings (the listeners' timeouts and
// header limit, h2c, the shutdown delay and timeout) back to those in force, and says which changed.
// max_request_body_bytes and stream_keepalive are read per request and follow reloads.
func keepRestartOnly(started config.Server, next *config.Server) []restartNote {
	var notes []restartNote
	for _, f := range []struct {
		path      string
		now, want *config.Duration
	}{
		{"server.shutdown_timeout", &started.ShutdownTimeout, &next.ShutdownTimeout},
		{"server.shutdown_delay", &started.ShutdownDelay, &next.ShutdownDelay},
		{"server.read_header_timeout", &started.ReadHeaderTimeout, &next.ReadHeaderTimeout},
		{"server.read_timeout", &started.ReadTimeout, &next.ReadTimeout},
		{"server.write_timeout", &started.WriteTimeout, &next.WriteTimeout},
		{"server.idle_timeout", &started.IdleTimeout, &next.IdleTimeout},
	} {
		if *f.want != *f.now {
			notes = append(notes, restartNote{f.path, fmt.Sprintf("%s takes a restart; %s stays in force until then", *f.want, *f.now)})
			*f.want = *f.now
		}
	}
	if next.H2CEnabled() != started.H2CEnabled() {
		notes = append(notes, restartNote{"server.h2c", fmt.Sprintf("%t takes a restart; %t stays in force until then", next.H2CEnabled(), started.H2CEnabled())})
		next.H2C = started.H2C
	}
	if next.MaxHeaderBytes != started.MaxHeaderBytes {
		notes = append(notes, restartNote{"server.max_header_bytes", fmt.Sprintf("%d takes a restart; %d stays in force until then", next.MaxHeaderBytes, started.MaxHeaderBytes)})
		next.MaxHeaderBytes = started.MaxHeaderBytes
	}
	return notes
}
