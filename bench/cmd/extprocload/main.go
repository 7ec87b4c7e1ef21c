// Command extprocload measures the router's Envoy external processor (-gateway extproc) as
// Envoy's ext_proc filter drives it with the configuration of docs/extproc.md: for each HTTP
// request one gRPC stream carrying the request headers, the buffered request body and the
// response headers (and with -response-body the response body too), each answered before the
// next is sent. It prints one JSON line (measure.Result) on stdout:
//
//	extprocload -mode latency    -addr HOST:PORT -body F -n N         # sequential exchanges: p50, p99
//	extprocload -mode throughput -addr HOST:PORT -body F -c 32 -d 3s  # exchanges per second at concurrency c
//
// Concurrent exchanges share -conns HTTP/2 connections, as Envoy's worker threads do (one
// connection each; Envoy runs one worker per core by default).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/semantic-router/semantic-router/bench/internal/measure"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "extprocload:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("extprocload", flag.ContinueOnError)
	mode := fs.String("mode", "latency", "latency or throughput")
	addr := fs.String("addr", "", "host:port of the router's external processor")
	bodyFile := fs.String("body", "", "file holding the JSON request body")
	n := fs.Int("n", 1000, "exchanges of a latency run")
	c := fs.Int("c", 32, "concurrency of a throughput run")
	conns := fs.Int("conns", 2, "gRPC connections shared by a throughput run")
	warmup := fs.Int("warmup", 50, "exchanges sent first and not counted")
	dur := fs.Duration("d", 3*time.Second, "duration of a throughput run")
	timeout := fs.Duration("timeout", 3*time.Minute, "bound of the whole run")
	respBody := fs.Bool("response-body", false, "also send the response body (response_body_mode BUFFERED)")
	rewrite := fs.Bool("expect-rewrite", true, "fail an exchange whose request body phase does not rewrite the body (false for a pass-through processor)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *addr == "" || *bodyFile == "" {
		return errors.New("-addr and -body are required")
	}
	body, err := os.ReadFile(*bodyFile)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	nconns := 1
	if *mode == "throughput" {
		nconns = max(1, min(*conns, *c))
	}
	var clients []extprocv3.ExternalProcessorClient
	for range nconns {
		cc, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return err
		}
		defer func() { _ = cc.Close() }()
		clients = append(clients, extprocv3.NewExternalProcessorClient(cc))
	}
	ex := newExchange(body, *respBody)
	ex.expectRewrite = *rewrite

	var res measure.Result
	switch *mode {
	case "latency":
		res, err = measure.Sequential(ctx, *n, *warmup, func(ctx context.Context, _ int) (time.Duration, error) { return ex.do(ctx, clients[0]) })
	case "throughput":
		res, err = measure.Throughput(ctx, *c, *warmup, *dur, func(ctx context.Context, w int) (time.Duration, error) { return ex.do(ctx, clients[w%len(clients)]) })
	default:
		return fmt.Errorf("-mode: unknown mode %q", *mode)
	}
	if err != nil {
		return err
	}
	return measure.Print(os.Stdout, res)
}

// exchange is the fixed sequence of messages of one HTTP request.
type exchange struct {
	msgs          []*extprocv3.ProcessingRequest
	expectRewrite bool
}

func newExchange(body []byte, withResponseBody bool) exchange {
	hv := func(k, v string) *corev3.HeaderValue { return &corev3.HeaderValue{Key: k, RawValue: []byte(v)} }
	msgs := []*extprocv3.ProcessingRequest{
		{Request: &extprocv3.ProcessingRequest_RequestHeaders{RequestHeaders: &extprocv3.HttpHeaders{
			Headers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{
				hv(":method", "POST"), hv(":path", "/v1/chat/completions"), hv(":authority", "gateway.local"),
				hv(":scheme", "http"), hv("content-type", "application/json"), hv("content-length", strconv.Itoa(len(body))),
				hv("user-agent", "extprocload"), hv("x-request-id", "bench"),
			}}}}},
		{Request: &extprocv3.ProcessingRequest_RequestBody{RequestBody: &extprocv3.HttpBody{Body: body, EndOfStream: true}}},
		{Request: &extprocv3.ProcessingRequest_ResponseHeaders{ResponseHeaders: &extprocv3.HttpHeaders{
			Headers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{
				hv(":status", "200"), hv("content-type", "application/json"), hv("content-length", "240"),
			}}}}},
	}
	if withResponseBody {
		msgs = append(msgs, &extprocv3.ProcessingRequest{Request: &extprocv3.ProcessingRequest_ResponseBody{ResponseBody: &extprocv3.HttpBody{
			Body: []byte(`{"id":"chatcmpl-mock","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Paris."},"finish_reason":"stop"}]}`), EndOfStream: true}}})
	}
	return exchange{msgs: msgs}
}

// do runs one exchange on a new stream and checks that no phase answered at once and, with
// expectRewrite, that the body phase routed the request (a body mutation).
func (e exchange) do(ctx context.Context, c extprocv3.ExternalProcessorClient) (time.Duration, error) {
	start := time.Now()
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s, err := c.Process(sctx)
	if err != nil {
		return 0, err
	}
	for i, m := range e.msgs {
		if err := s.Send(m); err != nil {
			return 0, err
		}
		resp, err := s.Recv()
		if err != nil {
			return 0, err
		}
		if ir := resp.GetImmediateResponse(); ir != nil {
			return 0, fmt.Errorf("immediate response %d: %s", ir.GetStatus().GetCode(), ir.GetBody())
		}
		if i == 1 && e.expectRewrite && len(resp.GetRequestBody().GetResponse().GetBodyMutation().GetBody()) == 0 {
			return 0, errors.New("the request body phase did not rewrite the body")
		}
	}
	if err := s.CloseSend(); err != nil {
		return 0, err
	}
	if _, err := s.Recv(); !errors.Is(err, io.EOF) {
		return 0, fmt.Errorf("the processor did not end the stream: %w", err)
	}
	return time.Since(start), nil
}
