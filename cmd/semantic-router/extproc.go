package main

import (
	"fmt"
	"log/slog"
	"net"
	"time"

	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"google.golang.org/grpc"

	"github.com/semantic-router/semantic-router/internal/extproc"
)

// serveExtproc serves Envoy's external processor on addr. The returned stop lets in-flight
// streams finish for up to drain, then closes the rest.
// maxBody is server.max_request_body_bytes at start: Envoy sends a buffered body in one
// message, which the server must take.
func serveExtproc(log *slog.Logger, addr string, p *extproc.Server, drain time.Duration, maxBody int64) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("extproc listener: %w", err)
	}
	srv := grpc.NewServer(extproc.ServerOptions(maxBody)...)
	extprocv3.RegisterExternalProcessorServer(srv, p)
	log.Info("listening", "server", "extproc", "address", ln.Addr().String())
	go func() {
		if err := srv.Serve(ln); err != nil {
			log.Error("extproc listener failed", "error", err.Error())
		}
	}()
	return func() {
		done := make(chan struct{})
		go func() { srv.GracefulStop(); close(done) }()
		select {
		case <-done:
		case <-time.After(drain):
			// Envoy gets no answer on a cut stream (the protocol has none to give unasked);
			// its filter's failure mode decides what the client sees. The log says why.
			log.Warn("the drain deadline passed: the exchanges still running were cut", "server", "extproc", "drain", drain.String())
			p.EndingAll()
			srv.Stop()
			p.Wait(time.Second) // for the cut exchanges' access lines
		}
	}, nil
}
