package extproc

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"
)

// Envoy's ORIGINAL_DST cluster connects to the address in x-vsr-destination-endpoint as it
// stands and resolves no names, while base URLs name hosts (a Kubernetes Service, a vLLM
// server's DNS name). The processor resolves them, so that the header always holds an IP
// address and a port.
const (
	resolveTTL     = 10 * time.Second // how long an answer is reused
	resolveTimeout = 2 * time.Second  // how long a lookup may take
)

// resolver resolves the hosts of destinations, caching each answer for resolveTTL. It is
// safe for concurrent use.
type resolver struct {
	lookup func(ctx context.Context, host string) ([]string, error)
	now    func() time.Time

	mu    sync.Mutex
	cache map[string]resolved
}

type resolved struct {
	ip      string
	expires time.Time
}

func newResolver() *resolver {
	return &resolver{lookup: net.DefaultResolver.LookupHost, now: time.Now, cache: map[string]resolved{}}
}

// destination returns hostPort with its host replaced by an IP address.
func (r *resolver) destination(ctx context.Context, hostPort string) (string, error) {
	host, port, err := net.SplitHostPort(hostPort)
	if err != nil {
		return "", fmt.Errorf("destination %q: %w", hostPort, err)
	}
	if net.ParseIP(host) != nil {
		return hostPort, nil
	}
	now := r.now()
	r.mu.Lock()
	e, ok := r.cache[host]
	r.mu.Unlock()
	if ok && now.Before(e.expires) {
		return net.JoinHostPort(e.ip, port), nil
	}
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	addrs, err := r.lookup(ctx, host)
	if err != nil {
		return "", fmt.Errorf("resolving %q: %w", host, err)
	}
	if len(addrs) == 0 {
		return "", fmt.Errorf("resolving %q: no addresses", host)
	}
	r.mu.Lock()
	r.cache[host] = resolved{ip: addrs[0], expires: now.Add(resolveTTL)}
	r.mu.Unlock()
	return net.JoinHostPort(addrs[0], port), nil
}
