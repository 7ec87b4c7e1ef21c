// Package harness starts what the load harnesses measure, in their own process on loopback:
// plain HTTP servers and the router's real inference handler.
package harness

import (
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/router"
	"github.com/semantic-router/semantic-router/internal/server"
	"github.com/semantic-router/semantic-router/internal/telemetry"
)

// Listen serves h on a free loopback port until the process ends and returns its base URL.
// Server errors (such as connections a fault injector drops) are not logged.
func Listen(h http.Handler) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(slog.DiscardHandler, slog.LevelError)}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), nil
}

// Router serves the router's inference handler for the configuration yaml, with logs
// discarded and metrics on a registry of its own, and returns its base URL.
func Router(yaml []byte) (string, error) {
	cfg, err := config.Parse(yaml)
	if err != nil {
		return "", err
	}
	log := slog.New(slog.DiscardHandler)
	metrics := telemetry.NewMetrics(prometheus.NewRegistry())
	rt, err := router.New(cfg, router.Options{Logger: log, Metrics: metrics})
	if err != nil {
		return "", err
	}
	return Listen(server.NewInference(router.NewPipeline(router.NewHolder(rt), router.PipelineOptions{Logger: log}), log, metrics))
}
