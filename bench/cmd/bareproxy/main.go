// Command bareproxy is the baseline of the out-of-process benchmark: the standard library's
// httputil.ReverseProxy in front of one backend, with full duplex enabled (without it Go's
// server can cut a response written while the request body is still being read, which cuts
// SSE streams) and the router's own upstream transport (internal/provider/transport: the same
// pool sizes, timeouts and HTTP/2 setting), so that the router-to-proxy ratio measures the
// gateway's own work and not a different connection pool. It copies bytes and reads nothing.
//
// Like the router it serves Prometheus metrics (go_goroutines, process_*) on a listener of its
// own, and logs {"msg":"listening","server":...,"address":...} and {"msg":"ready"} on stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/semantic-router/semantic-router/internal/provider/transport"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bareproxy:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("bareproxy", flag.ContinueOnError)
	addr := fs.String("address", "127.0.0.1:0", "proxy listen address")
	metricsAddr := fs.String("metrics-address", "127.0.0.1:0", "Prometheus metrics listen address")
	backend := fs.String("backend", "", "base URL of the backend, such as http://127.0.0.1:9000")
	h2c := fs.Bool("h2c", false, "also serve HTTP/2 without TLS (prior knowledge), as the router does by default")
	upstreamH2C := fs.Bool("upstream-h2c", false, "speak HTTP/2 without TLS to the backend, as the router does with provider.h2c")
	if err := fs.Parse(args); err != nil {
		return err
	}
	u, err := url.Parse(*backend)
	if err != nil || u.Host == "" {
		return fmt.Errorf("-backend: %q is not a URL", *backend)
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	t, err := transport.New(transport.Options{H2C: *upstreamH2C})
	if err != nil {
		return err
	}
	proxy := &httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(u) },
		Transport: t,
		ErrorLog:  slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).EnableFullDuplex()
		proxy.ServeHTTP(w, r)
	})
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))

	servers := map[string]struct {
		addr string
		h    http.Handler
	}{
		"inference": {*addr, handler},
		"metrics":   {*metricsAddr, promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})},
	}
	errc := make(chan error, len(servers))
	var running []*http.Server
	for _, name := range []string{"inference", "metrics"} {
		s := servers[name]
		ln, err := net.Listen("tcp", s.addr)
		if err != nil {
			return fmt.Errorf("%s listener: %w", name, err)
		}
		srv := &http.Server{Handler: s.h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
		if *h2c && name == "inference" {
			srv.Protocols = new(http.Protocols)
			srv.Protocols.SetHTTP1(true)
			srv.Protocols.SetUnencryptedHTTP2(true)
		}
		running = append(running, srv)
		log.Info("listening", "server", name, "address", ln.Addr().String())
		go func() { errc <- srv.Serve(ln) }()
	}
	log.Info("ready")
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	for _, srv := range running {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			cancel()
			return err
		}
		cancel()
	}
	return nil
}
