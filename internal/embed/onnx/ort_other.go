//go:build !(onnx && (linux || darwin || freebsd) && (amd64 || arm64))

package onnx

import (
	"errors"
	"fmt"
)

// Without the "onnx" build tag (see ort.go for why it is opt-in), or on a
// platform purego cannot load libraries on, everything but loading the
// library works, and New says what to rebuild with.

const builtWithRuntime = false

type api struct{}

func loadAPI(string) (*api, error) {
	return nil, fmt.Errorf("%w: this binary was built without ONNX Runtime support (build with -tags onnx, for linux, darwin or freebsd on amd64 or arm64)", errNoLibrary)
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
