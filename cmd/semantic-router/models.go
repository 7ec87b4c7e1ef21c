package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/semantic-router/semantic-router/internal/artifact"
	"github.com/semantic-router/semantic-router/internal/config"
)

const modelsUsage = "usage: semantic-router models pull [-config C] [-offline] [-log-level L] [-log-format json|text]"

// runModels is "semantic-router models". Its one command, pull, downloads every artifact the
// configuration names into its cache directory and exits: 0 when all are complete, 1 with
// each failure's cause otherwise. It is what an init container runs before the router.
func runModels(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "pull" {
		fmt.Fprintln(stderr, modelsUsage)
		return errUsage
	}
	fs := flag.NewFlagSet("semantic-router models pull", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &flags{}
	fs.StringVar(&f.config, "config", "", "router configuration (default: the embedded demo configuration, which names no artifact)")
	offline := fs.Bool("offline", false, "download nothing: only check that every file is in the cache and complete")
	fs.StringVar(&f.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&f.logFormat, "log-format", "json", "log format: json or text")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if _, err := parseLevel(f.logLevel); err != nil || fs.NArg() > 0 || (f.logFormat != "json" && f.logFormat != "text") {
		fmt.Fprintln(stderr, modelsUsage)
		return errUsage
	}
	cfg, source, _, err := loadConfig(f.config)
	if err != nil {
		return err
	}
	if len(cfg.Artifacts) == 0 {
		fmt.Fprintf(stdout, "%s names no artifacts; nothing to download\n", source)
		return nil
	}
	d := artifact.New(artifact.Options{Logger: newLogger(f, stderr), LookupEnv: os.LookupEnv, Offline: *offline})
	var failed []error
	for _, a := range cfg.Artifacts {
		res, err := d.Ensure(ctx, a)
		if err != nil {
			failed = append(failed, err)
			fmt.Fprintf(stdout, "%s: FAILED: %v\n", a.Name, err)
			if ctx.Err() != nil {
				break
			}
			continue
		}
		fmt.Fprintf(stdout, "%s: ready in %s (%d downloaded, %d already cached, %d bytes received)\n",
			a.Name, a.Dir, res.Downloaded, res.Cached, res.Bytes)
	}
	if len(failed) > 0 {
		return fmt.Errorf("models pull: %d of %d artifacts not available:\n%w", len(failed), len(cfg.Artifacts), errors.Join(failed...))
	}
	return nil
}

// pullArtifacts makes the configuration's artifacts available before a router is built on
// it (at start-up and on each reload), since its signals load the model files: it downloads
// what is missing, or with offline only checks the cache, and returns every failure with its
// cause. status, when not nil, follows the downloads, so that the management API, already
// listening, answers /ready with 503 and the reason. A configuration without artifacts
// returns at once, without any I/O; a warm cache makes no request.
func pullArtifacts(ctx context.Context, cfg *config.Config, offline bool, log *slog.Logger, status *artifact.Status) error {
	if len(cfg.Artifacts) == 0 {
		return nil
	}
	d := artifact.New(artifact.Options{Logger: log, LookupEnv: os.LookupEnv, Offline: offline, Status: status})
	if err := d.EnsureAll(ctx, cfg.Artifacts); err != nil {
		return fmt.Errorf("model artifacts:\n%w", err)
	}
	return nil
}
