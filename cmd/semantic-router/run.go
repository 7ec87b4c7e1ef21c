package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/semantic-router/semantic-router/examples"
	"github.com/semantic-router/semantic-router/internal/artifact"
	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/extproc"
	"github.com/semantic-router/semantic-router/internal/heapfloor"
	"github.com/semantic-router/semantic-router/internal/logbuf"
	"github.com/semantic-router/semantic-router/internal/memlimit"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
	"github.com/semantic-router/semantic-router/internal/redact"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/secret"
	"github.com/semantic-router/semantic-router/internal/server"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = ""

// errUsage marks a command-line mistake; main exits 2 for it.
var errUsage = errors.New("usage")

// Default ports; an address flag given as a bare host keeps these.
const (
	defaultListenerPort = "8801"
	defaultAPIPort      = "8080"
	defaultGRPCPort     = "50051"
	defaultMetricsPort  = "9190"
)

type flags struct {
	config, gateway                              string
	listenerAddr, apiAddr, grpcAddr, metricsAddr string
	logLevel, logFormat                          string
	validate, version, offline                   bool
	// unused names the address flags given that the front door does not use.
	unused []string
}

func parseFlags(args []string, stderr io.Writer) (*flags, error) {
	f := &flags{}
	fs := flag.NewFlagSet("semantic-router", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.config, "config", "", "path of the router configuration (YAML); without it the embedded demo configuration runs")
	fs.StringVar(&f.gateway, "gateway", "standalone", "front door: standalone (own OpenAI-compatible listener) or extproc (Envoy external processor)")
	fs.StringVar(&f.listenerAddr, "listener-address", "0.0.0.0:"+defaultListenerPort, "OpenAI-compatible inference listener, host or host:port")
	fs.StringVar(&f.apiAddr, "api-address", "0.0.0.0:"+defaultAPIPort, "management API (health, readiness, models, config), host or host:port")
	fs.StringVar(&f.grpcAddr, "grpc-address", "0.0.0.0:"+defaultGRPCPort, "Envoy external processor (extproc mode), host or host:port")
	fs.StringVar(&f.metricsAddr, "metrics-address", "0.0.0.0:"+defaultMetricsPort, "Prometheus metrics, host or host:port")
	fs.StringVar(&f.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&f.logFormat, "log-format", "json", "log format: json or text")
	fs.BoolVar(&f.validate, "validate", false, "check the configuration, print every problem and exit (0 when valid)")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	fs.BoolVar(&f.offline, "offline", false, "download no model artifact: one missing from its cache directory stops start-up")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "semantic-router: unexpected argument %q\n", fs.Arg(0))
		return nil, errUsage
	}
	var problems []string
	for _, a := range []struct {
		flag string
		addr *string
		port string
	}{
		{"listener-address", &f.listenerAddr, defaultListenerPort},
		{"api-address", &f.apiAddr, defaultAPIPort},
		{"grpc-address", &f.grpcAddr, defaultGRPCPort},
		{"metrics-address", &f.metricsAddr, defaultMetricsPort},
	} {
		addr, err := withDefaultPort(*a.addr, a.port)
		if err != nil {
			problems = append(problems, fmt.Sprintf("-%s: %v", a.flag, err))
		}
		*a.addr = addr
	}
	if f.gateway != "standalone" && f.gateway != "extproc" {
		problems = append(problems, fmt.Sprintf("-gateway: must be standalone or extproc, got %q", f.gateway))
	}
	if f.logFormat != "json" && f.logFormat != "text" {
		problems = append(problems, fmt.Sprintf("-log-format: must be json or text, got %q", f.logFormat))
	}
	if _, err := parseLevel(f.logLevel); err != nil {
		problems = append(problems, "-log-level: "+err.Error())
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(stderr, "semantic-router:", p)
		}
		return nil, errUsage
	}
	fs.Visit(func(fl *flag.Flag) {
		switch {
		case fl.Name == "listener-address" && f.gateway == "extproc":
			f.unused = append(f.unused, "-listener-address is not used with -gateway extproc: clients connect to Envoy, which calls the processor on -grpc-address")
		case fl.Name == "grpc-address" && f.gateway == "standalone":
			f.unused = append(f.unused, "-grpc-address is used only with -gateway extproc; the standalone router serves clients on -listener-address")
		}
	})
	return f, nil
}

// withDefaultPort accepts "host:port", ":port", "host" or "[v6]" and returns host:port.
func withDefaultPort(addr, port string) (string, error) {
	if addr == "" {
		return "", errors.New("must not be empty")
	}
	if strings.ContainsAny(addr, "/ ") {
		return "", fmt.Errorf("%q is not a host or host:port", addr)
	}
	if h, p, err := net.SplitHostPort(addr); err == nil {
		if p == "" {
			p = port
		}
		if n, err := strconv.Atoi(p); err != nil || n < 0 || n > 65535 {
			return "", fmt.Errorf("%q: port must be a number from 0 to 65535", addr)
		}
		return net.JoinHostPort(h, p), nil
	}
	host := strings.TrimSuffix(strings.TrimPrefix(addr, "["), "]")
	return net.JoinHostPort(host, port), nil
}

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("must be debug, info, warn or error, got %q", s)
	}
	return l, nil
}

func newLogger(f *flags, w io.Writer) *slog.Logger {
	level, _ := parseLevel(f.logLevel)
	opts := &slog.HandlerOptions{Level: level}
	if f.logFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// loadConfig reads the -config file, or the embedded demo configuration, and returns the
// bytes it read too: the reloader compares later contents with them.
func loadConfig(path string) (*config.Config, string, []byte, error) {
	if path == "" {
		cfg, err := config.Parse(examples.Demo)
		if err != nil {
			return nil, "", nil, fmt.Errorf("embedded demo config:\n%w", err)
		}
		return cfg, "embedded demo config (examples/demo.yaml)", examples.Demo, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, path, nil, fmt.Errorf("reading config: %w", err)
	}
	cfg, err := config.Parse(raw)
	if err != nil {
		return nil, path, nil, fmt.Errorf("config %s:\n%w", path, err)
	}
	return cfg, path, raw, nil
}

// Run is the whole program: it returns when ctx is done and every listener has drained, or at
// the first error.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "eval" {
		return runEval(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "models" {
		return runModels(ctx, args[1:], stdout, stderr)
	}
	f, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if f.version {
		fmt.Fprintln(stdout, "semantic-router", buildVersion())
		return nil
	}
	cfg, source, raw, err := loadConfig(f.config)
	if f.validate {
		if err := validate(cfg, source, err, stdout); err != nil {
			return err
		}
		if f.gateway == "extproc" {
			for _, w := range cfg.ExtprocWarnings() {
				fmt.Fprintln(stdout, "warning:", w)
			}
		}
		for _, w := range f.unused {
			fmt.Fprintln(stdout, "warning:", w)
		}
		return nil
	}
	if err != nil {
		return err
	}
	// Every credential value the routers hold is redacted from every log line. Lines are
	// written in batches (a line per request would otherwise cost a write each); a warning
	// or an error is written at once, and everything is written before Run returns.
	redactor := redact.New()
	logOut := logbuf.New(stderr, logbuf.DefaultDelay)
	defer func() { _ = logOut.Flush() }()
	log := slog.New(redact.Handler(logbuf.Handler(newLogger(f, logOut).Handler(), logOut, slog.LevelWarn), redactor))
	log.Info("starting", "version", buildVersion(), "config", source, "gateway", f.gateway, "models", len(cfg.Models))
	for _, w := range f.unused {
		log.Warn("flag not used", "warning", w)
	}
	// In a container with a memory limit, the garbage collector works harder as memory
	// nears it rather than letting garbage get the process killed.
	soft, err := memlimit.Apply("/sys/fs/cgroup", os.LookupEnv)
	if err != nil {
		log.Warn("no Go memory limit from the container's", "error", err.Error())
	} else if soft > 0 {
		log.Info("Go memory limit from the container's", "limit_bytes", soft, "fraction", memlimit.Fraction)
	}
	// The router keeps little live: without a floor it would collect every few megabytes
	// under load. A GOGC in the environment turns the floor off.
	floor := heapfloor.Under(soft)
	if stopFloor, started := heapfloor.Start(floor, os.LookupEnv); started {
		defer stopFloor()
		log.Info("Go heap target floor", "floor_bytes", floor)
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(telemetry.NewRuntimeCollectors()...)
	metrics := telemetry.NewMetrics(reg)
	metrics.BuildInfo.WithLabelValues(buildVersion()).Set(1)

	tracing, err := telemetry.NewTracing(ctx, cfg.Observability.Tracing, buildVersion(), stdout, log)
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tracing.Shutdown(sctx); err != nil {
			log.Warn("flushing traces", "error", err.Error())
		}
	}()
	if cfg.Observability.Tracing.Enabled {
		log.Info("tracing", "exporter", cfg.Observability.Tracing.Exporter.Type, "endpoint", cfg.Observability.Tracing.Exporter.Endpoint,
			"sampling", cfg.Observability.Tracing.Sampling.Type)
	}

	// The management API and the metrics listen before the model artifacts are pulled, so
	// that /ready answers 503 with the reason (which file, how far) while they download.
	var ready server.Readiness
	var artifacts artifact.Status
	ready.SetCheck(artifacts.Check)
	mgmt := server.NewLateManagement(&ready, log)
	ls := &listeners{log: log, limits: cfg.Server}
	defer ls.stop() // on an early return; serve stops them in order otherwise
	if err := ls.start(
		&namedServer{name: "management", addr: f.apiAddr, handler: mgmt},
		&namedServer{name: "metrics", addr: f.metricsAddr, handler: server.NewMetrics(promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))},
	); err != nil {
		return err
	}
	// Artifacts download while the router serves: requests whose signals need a model still
	// downloading get its reason, the others are served, and /ready says 503 until every
	// model is loaded. A download that fails stops the router with the cause. With -offline
	// the cache is only checked, at once.
	// A reload that applies has pulled its own config's artifacts first: the start-up
	// download, for a config no longer serving, then stops, and neither readiness nor the
	// policies wait for it any more.
	ctx, failed := context.WithCancelCause(ctx)
	defer failed(nil)
	var reloaded atomic.Bool
	download, stopDownload := context.WithCancel(ctx)
	defer stopDownload()
	if f.offline {
		if err := pullArtifacts(ctx, cfg, true, log, &artifacts); err != nil {
			return err
		}
	} else if len(cfg.Artifacts) > 0 {
		// Registered before the download starts, so that /ready is never 200 in between.
		for _, a := range cfg.Artifacts {
			artifacts.Register(a.Name)
		}
		go func() {
			if err := pullArtifacts(download, cfg, false, log, &artifacts); err != nil && download.Err() == nil {
				failed(err)
			}
		}()
	}

	// In extproc mode Envoy calls the models; the router plans, so it needs no provider,
	// only each model's api_key to give Envoy.
	extprocMode := f.gateway == "extproc"
	if extprocMode {
		for _, w := range cfg.ExtprocWarnings() {
			log.Warn("setting not applied in extproc mode", "warning", w)
		}
	}
	ropts := router.Options{Logger: log, Metrics: metrics, LookupEnv: os.LookupEnv, Tracing: tracing, PlanOnly: extprocMode, Redactor: redactor,
		LocalModelReady: func(dir string) error {
			if a := cfg.ArtifactForDir(dir); a != nil && !reloaded.Load() {
				if ok, why := artifacts.ArtifactReady(a.Name); !ok {
					return errors.New(why)
				}
			}
			return nil
		}}
	rt, err := router.New(cfg, ropts)
	if err != nil {
		return fmt.Errorf("registering models:\n%w", err)
	}
	holder := router.NewHolder(rt)
	defer func() { _ = holder.Close() }()
	pipeline := router.NewPipeline(holder, router.PipelineOptions{Logger: log, Tracing: tracing})
	// An artifact still downloading, or a remote embedder that has not answered yet, keeps
	// /ready at 503, with the reason.
	ready.SetCheck(func(ctx context.Context) error {
		if reloaded.Load() {
			return holder.Current().Ready(ctx)
		}
		if err := artifacts.Check(ctx); err != nil {
			return err
		}
		return holder.Current().Ready(ctx)
	})
	if cfg.Management == nil {
		log.Warn("the management API is open to anyone who reaches it; add a management section with tokens, or say management: {auth: disabled}")
	}

	var reload server.Reloader
	if f.config != "" { // the embedded demo config has no file to watch
		rl := &reloader{path: f.config, holder: holder, opts: ropts, offline: f.offline, log: log, metrics: metrics, last: sha256.Sum256(raw),
			started: cfg.Server, onApplied: func() { reloaded.Store(true); stopDownload() }}
		reload = rl.reload
		for _, result := range reloadResults {
			metrics.ConfigReloads.WithLabelValues(result)
		}
		wctx, stopWatch := context.WithCancel(ctx)
		watched := make(chan struct{})
		go func() {
			defer close(watched)
			if err := rl.watch(wctx); err != nil {
				log.Warn("not watching the config file; reload with SIGHUP or POST /api/v1/config/reload", "config", f.config, "error", err.Error())
			}
		}()
		defer func() { stopWatch(); <-watched }()
	}

	mgmt.Set(server.NewManagement(holder, &ready, f.listenerAddr, log, reload))
	if extprocMode { // Envoy is the front door: no OpenAI listener of our own
		stop, err := serveExtproc(log, f.grpcAddr, extproc.New(pipeline, log, metrics), cfg.Server.ShutdownTimeout.D(),
			cfg.Server.MaxRequestBodyBytes)
		if err != nil {
			return err
		}
		ls.drainFirst = stop // before the probes stop, which answer to the end
	} else if err := ls.start(&namedServer{name: "inference", addr: f.listenerAddr, handler: server.NewInference(pipeline, log, metrics),
		drain: cfg.Server.ShutdownTimeout.D(), h2c: cfg.Server.H2CEnabled()}); err != nil {
		return err
	}
	err = ls.serve(ctx, &ready)
	if cause := context.Cause(ctx); err == nil && cause != nil && !errors.Is(cause, context.Canceled) {
		return cause // an artifact could not be downloaded
	}
	return err
}

func validate(cfg *config.Config, source string, err error, stdout io.Writer) error {
	if err != nil {
		return err
	}
	secrets := secret.NewStore(secret.Options{PollInterval: time.Hour}) // read once, watch nothing
	defer secrets.Close()
	// A reference this machine cannot read is a warning: the machine that validates is often
	// not the one that runs. One that it reads and that would stop the router is a problem.
	var warnings, problems []string
	for i, m := range cfg.Models {
		for _, f := range m.Provider.Refs() {
			if f.Ref.IsZero() {
				continue
			}
			path := fmt.Sprintf("models[%d].provider.%s", i, f.Field)
			openRef := secrets.OpenToken
			if f.Document() {
				openRef = secrets.Open
			}
			src, err := openRef(string(f.Ref))
			if err != nil {
				w, p := refNote(cfg, path, f.Ref, err)
				warnings, problems = append(warnings, w...), append(problems, p...)
				continue
			}
			if f.Field == "ca_cert_pem" {
				if msg := caBundleProblem(src); msg != "" {
					problems = append(problems, cfg.Note(path, "%s: %s", f.Ref, msg))
				}
			}
		}
	}
	w, p := accessRefNotes(cfg, secrets)
	warnings, problems = append(warnings, w...), append(problems, p...)
	warnings = append(warnings, cfg.Warnings()...)
	if len(problems) > 0 {
		return fmt.Errorf("config %s:\n%s", source, strings.Join(problems, "\n"))
	}
	fmt.Fprintf(stdout, "%s: valid, %d models, virtual model %q, default model %q\n",
		source, len(cfg.Models), cfg.Routing.VirtualModel, cfg.Routing.DefaultModel)
	for _, w := range warnings {
		fmt.Fprintln(stdout, "warning:", w)
	}
	return nil
}

// caBundleProblem checks a CA bundle as the model's transport does at start (no certificate,
// a block that does not parse, a certificate out of its validity), or says it is unreadable.
func caBundleProblem(src *secret.Source) string {
	pemText, err := src.Value()
	if err != nil {
		return err.Error()
	}
	if _, err := transport.CertPool([]byte(pemText), time.Now()); err != nil {
		return strings.TrimPrefix(err.Error(), "ca_cert_pem: ")
	}
	return ""
}

type namedServer struct {
	name    string
	addr    string
	handler http.Handler
	drain   time.Duration
	h2c     bool // HTTP/2 without TLS beside HTTP/1.1 (server.h2c; the inference listener)
	srv     *server.HTTPServer
	ln      net.Listener
}

// listeners are the router's HTTP servers. They start in two steps (management and metrics
// first, inference once the router is built) and stop together, in the reverse order: the
// inference listener drains first, the probes answer to the end.
type listeners struct {
	log    *slog.Logger
	limits config.Server
	srvs   []*namedServer
	errc   chan error // the first listener failure
	// drainFirst, when set, stops a server of another kind (the external processor's
	// gRPC server) before the HTTP servers.
	drainFirst func()
}

// start listens on every address and serves; on a failure it closes the listeners it opened.
func (l *listeners) start(srvs ...*namedServer) error {
	if l.errc == nil {
		l.errc = make(chan error, 1)
	}
	for i, s := range srvs {
		ln, err := net.Listen("tcp", s.addr)
		if err != nil {
			for _, o := range srvs[:i] {
				_ = o.ln.Close()
			}
			return fmt.Errorf("%s listener: %w", s.name, err)
		}
		s.ln = ln
		s.srv = server.NewHTTPServer(s.handler, l.limits, l.log)
		if s.h2c {
			s.srv.AllowH2C()
		}
	}
	for _, s := range srvs {
		l.log.Info("listening", "server", s.name, "address", s.ln.Addr().String())
		go func() {
			if err := s.srv.Serve(s.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				select {
				case l.errc <- fmt.Errorf("%s listener: %w", s.name, err):
				default:
				}
			}
		}()
		l.srvs = append(l.srvs, s)
	}
	return nil
}

// serve marks the router ready and, on ctx.Done or a listener failure, shuts down: not
// ready first, for server.shutdown_delay while every listener still serves (so that
// Kubernetes takes the pod out of its Services before it refuses a connection), then every
// server stops, the inference listener draining its in-flight requests and streams.
func (l *listeners) serve(ctx context.Context, ready *server.Readiness) error {
	ready.Set(true)
	announce, stopAnnounce := context.WithCancel(ctx)
	announced := make(chan struct{})
	go func() { defer close(announced); announceReady(announce, ready, l.log, time.Second) }()
	defer func() { stopAnnounce(); <-announced }()
	var runErr error
	select {
	case <-ctx.Done():
		l.log.Info("shutting down")
		ready.Stop(shuttingDownReason(l.limits.ShutdownDelay.D(), l.limits.ShutdownTimeout.D()))
	case runErr = <-l.errc:
		l.log.Error("listener failed", "error", runErr.Error())
		ready.Stop("shutting down: a listener failed: " + runErr.Error())
	}
	if d := l.limits.ShutdownDelay.D(); d > 0 && runErr == nil {
		l.log.Info("not ready; serving on until the drain starts", "shutdown_delay", d.String())
		time.Sleep(d)
	}
	l.stop()
	l.log.Info("stopped")
	return runErr
}

// shuttingDownReason is what /ready answers once the router was told to stop: that it is
// shutting down, and for how long it still serves and drains.
func shuttingDownReason(delay, drain time.Duration) string {
	return fmt.Sprintf("shutting down: serving on for server.shutdown_delay (%s), then draining requests in flight for up to server.shutdown_timeout (%s)", delay, drain)
}

// announceReady logs "ready" once the router is, as /ready would answer: at once, or, while
// a model artifact downloads or a remote embedder has not answered, after a line that says
// why not, checking every interval until it is or ctx ends.
func announceReady(ctx context.Context, ready *server.Readiness, log *slog.Logger, interval time.Duration) {
	why := ready.Reason(ctx)
	if why == "" {
		log.Info("ready")
		return
	}
	log.Info("serving; not ready yet", "reason", why)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if ready.Reason(ctx) == "" {
				log.Info("ready")
				return
			}
		}
	}
}

// stop shuts the servers down, the last started first; a second call does nothing.
func (l *listeners) stop() {
	if l.drainFirst != nil {
		l.drainFirst()
		l.drainFirst = nil
	}
	for i := len(l.srvs) - 1; i >= 0; i-- {
		s := l.srvs[i]
		drain := s.drain
		if drain <= 0 {
			drain = 5 * time.Second
		}
		sctx, cancel := context.WithTimeout(context.Background(), drain)
		if err := s.srv.Shutdown(sctx); err != nil {
			l.log.Warn("the drain deadline passed: the requests still running were told the router is shutting down and ended",
				"server", s.name, "drain", drain.String())
		}
		cancel()
	}
	l.srvs = nil
}
