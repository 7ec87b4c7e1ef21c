// Package memlimit gives the Go runtime a soft memory limit below the container's.
//
// Go's garbage collector lets the heap grow to about twice what is live (and the stacks count
// towards that growth), so a router holding thousands of streams in a container with a
// memory limit can be killed for garbage it would have collected. With a soft limit the
// collector works harder as memory nears it instead.
package memlimit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
)

// Fraction is the share of the container's limit given to the Go runtime; the rest is for
// memory the runtime does not manage (the ONNX runtime, thread stacks, page cache).
const Fraction = 0.9

// unlimited is the value at or above which a cgroup v1 limit means none.
const unlimited = int64(1) << 62

// Limit reads the memory limit of the cgroup mounted at root (/sys/fs/cgroup): cgroup v2's
// memory.max or cgroup v1's memory/memory.limit_in_bytes. ok is false when there is none.
func Limit(root string) (limit int64, ok bool, err error) {
	for _, name := range []string{"memory.max", filepath.Join("memory", "memory.limit_in_bytes")} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, false, fmt.Errorf("reading the cgroup memory limit: %w", err)
		}
		v := strings.TrimSpace(string(b))
		if v == "max" {
			return 0, false, nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return 0, false, fmt.Errorf("reading the cgroup memory limit: %s holds %q", name, v)
		}
		if n >= unlimited {
			return 0, false, nil
		}
		return n, true, nil
	}
	return 0, false, nil
}

// Apply sets the runtime's soft memory limit to Fraction of the cgroup's at root, unless
// GOMEMLIMIT is set (lookupEnv) or there is no limit. It returns the limit it set, 0 for
// none.
func Apply(root string, lookupEnv func(string) (string, bool)) (int64, error) {
	if v, ok := lookupEnv("GOMEMLIMIT"); ok && v != "" {
		return 0, nil // the runtime has applied it already
	}
	limit, ok, err := Limit(root)
	if err != nil || !ok {
		return 0, err
	}
	soft := int64(float64(limit) * Fraction)
	debug.SetMemoryLimit(soft)
	return soft, nil
}
