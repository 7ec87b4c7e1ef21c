// Command semantic-router is the OpenAI-compatible routing gateway.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := stopContext()
	err := Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "semantic-router:", err)
		os.Exit(1)
	}
}

// stopContext returns a context that SIGINT or SIGTERM ends, which starts the shutdown. A
// second signal during the shutdown ends the process at once, with exit code 1: an operator
// who presses Ctrl-C twice does not wait out the drain.
func stopContext() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigs
		cancel()
		sig := <-sigs
		fmt.Fprintf(os.Stderr, "semantic-router: second signal (%s) during the shutdown: exiting now, without draining\n", sig)
		os.Exit(1)
	}()
	return ctx, func() { signal.Stop(sigs); cancel() }
}
