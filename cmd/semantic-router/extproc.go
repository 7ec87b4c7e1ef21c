package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"google.golang.org/grpc"

	"github.com/semantic-router/semantic-router/internal/extproc"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
)

// currentPlanner plans with the router that serves now, so a reloaded config applies to
// Envoy's requests as it does to the HTTP listener's.
type currentPlanner struct{ h *router.Holder }

// AdmitBearer admits on the current router and keeps it from being closed until done.
func (p currentPlanner) AdmitBearer(ctx context.Context, authorization, model string) (func(*openai.Usage), error) {
	rt, release := p.h.Acquire()
	done, err := rt.AdmitBearer(ctx, authorization, model)
	if err != nil {
		release()
		return nil, err
	}
	var once sync.Once
	return func(u *openai.Usage) { once.Do(func() { done(u); release() }) }, nil
}

func (p currentPlanner) Plan(ctx context.Context, req *openai.ChatRequest, h http.Header) (*openai.ChatRequest, router.Route, router.Target, error) {
	rt, release := p.h.Acquire()
	defer release()
	return rt.Plan(ctx, req, h)
}

// serveExtproc serves Envoy's external processor on addr. The returned stop lets in-flight
// streams finish for up to drain, then closes the rest.
func serveExtproc(log *slog.Logger, addr string, p *extproc.Server, drain time.Duration) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("extproc listener: %w", err)
	}
	srv := grpc.NewServer()
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
			srv.Stop()
		}
	}, nil
}
