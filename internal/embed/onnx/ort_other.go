//go:build !((linux || darwin || freebsd) && (amd64 || arm64))

package onnx

import (
	"errors"
	"fmt"
	"runtime"
)

// purego cannot load libraries on this platform, so the embedder reports
// that instead of failing the build for everyone else.

type api struct{}

func loadAPI(string) (*api, error) {
	return nil, fmt.Errorf("%w: not supported on %s/%s", errNoLibrary, runtime.GOOS, runtime.GOARCH)
}

type session struct {
	inputs, outputs []string
	outShapes       [][]int64
}

func openSession(*api, string, int) (*session, error) { return nil, errors.New("unreachable") }

func (*session) run(map[string][]int64, int, int, string) (tensor, error) {
	return tensor{}, errors.New("unreachable")
}

func (*session) close() {}
