//go:build onnx && (linux || darwin || freebsd) && (amd64 || arm64)

package onnx

// This file binds the few functions of the ONNX Runtime C API that the
// embedder needs, through purego (dlopen without cgo), so that a router with
// ONNX support needs no C toolchain to build and cross-compiles like any Go
// program.
//
// It is behind the "onnx" build tag because importing purego turns even a
// CGO_ENABLED=0 binary into a dynamically linked one (it imports dlopen from
// libc), which would not start on the router's scratch image. ONNX Runtime
// needs glibc and libstdc++ anyway, so only an image that ships them should
// carry a binary built with -tags onnx.
//
// The C API is one struct of function pointers (OrtApi) obtained from
// OrtGetApiBase()->GetApi(version). The struct only ever grows at its end,
// so the slot numbers below, counted in onnxruntime_c_api.h, hold for every
// library that serves apiVersion or later.

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// apiVersion is the OrtApi version requested: 24 is ONNX Runtime 1.24.
// Every slot used here dates from version 1, but asking for a recent one
// keeps us off libraries too old to have been tested.
const apiVersion = 24

// Slots in struct OrtApi (0-based), from onnxruntime_c_api.h.
const (
	slotGetErrorMessage                = 2
	slotCreateEnv                      = 3
	slotDisableTelemetryEvents         = 6
	slotCreateSession                  = 7
	slotRun                            = 9
	slotCreateSessionOptions           = 10
	slotSetIntraOpNumThreads           = 24
	slotSessionGetInputCount           = 30
	slotSessionGetOutputCount          = 31
	slotSessionGetOutputTypeInfo       = 34
	slotSessionGetInputName            = 36
	slotSessionGetOutputName           = 37
	slotCreateTensorAsOrtValue         = 48
	slotGetTensorMutableData           = 51
	slotCastTypeInfoToTensorInfo       = 55
	slotGetTensorElementType           = 60
	slotGetDimensionsCount             = 61
	slotGetDimensions                  = 62
	slotGetTensorTypeAndShape          = 65
	slotAllocatorFree                  = 76
	slotGetAllocatorWithDefaultOptions = 78
	slotReleaseStatus                  = 93
	slotReleaseSession                 = 95
	slotReleaseValue                   = 96
	slotReleaseTypeInfo                = 98
	slotReleaseTensorTypeAndShapeInfo  = 99
	slotReleaseSessionOptions          = 100
)

// ONNX tensor element types (ONNXTensorElementDataType).
const (
	elemFloat = 1
	elemInt64 = 7
)

// ptr is a pointer to C memory (an ONNX Runtime object or buffer). It is an
// unsafe.Pointer rather than a uintptr so that reading through it needs no
// uintptr conversion; the Go collector ignores pointers outside its heap.
type ptr = unsafe.Pointer

type api struct {
	env   ptr
	alloc ptr // the default CPU allocator; never freed

	getErrorMessage           func(status ptr) ptr
	releaseStatus             func(status ptr)
	createEnv                 func(level int32, logID *byte, out *ptr) ptr
	disableTelemetry          func(env ptr) ptr
	createSessionOptions      func(out *ptr) ptr
	setIntraOpNumThreads      func(opts ptr, n int32) ptr
	releaseSessionOptions     func(opts ptr)
	createSession             func(env ptr, path *byte, opts ptr, out *ptr) ptr
	releaseSession            func(s ptr)
	sessionGetInputCount      func(s ptr, out *uintptr) ptr
	sessionGetOutputCount     func(s ptr, out *uintptr) ptr
	sessionGetInputName       func(s ptr, i uintptr, alloc ptr, out *ptr) ptr
	sessionGetOutputName      func(s ptr, i uintptr, alloc ptr, out *ptr) ptr
	sessionGetOutputTypeInfo  func(s ptr, i uintptr, out *ptr) ptr
	releaseTypeInfo           func(ti ptr)
	castTypeInfoToTensorInfo  func(ti ptr, out *ptr) ptr
	getTensorElementType      func(info ptr, out *int32) ptr
	getDimensionsCount        func(info ptr, out *uintptr) ptr
	getDimensions             func(info ptr, dims *int64, n uintptr) ptr
	getTensorTypeAndShape     func(v ptr, out *ptr) ptr
	releaseTensorTypeAndShape func(info ptr)
	allocatorFree             func(alloc ptr, p ptr) ptr
	getDefaultAllocator       func(out *ptr) ptr
	createTensor              func(alloc ptr, shape *int64, n uintptr, elem int32, out *ptr) ptr
	getTensorMutableData      func(v ptr, out *ptr) ptr
	releaseValue              func(v ptr)
	run                       func(s ptr, runOpts ptr, inNames **byte, in *ptr, nIn uintptr, outNames **byte, nOut uintptr, out *ptr) ptr
}

// builtWithRuntime tells the tests that this build can load the library.
const builtWithRuntime = true

// A library is loaded at most once per path and never unloaded: ONNX
// Runtime keeps process-wide state (its environment and thread pools) that
// does not survive dlclose, and sessions from several embedders share it.
var (
	apisMu sync.Mutex
	apis   = map[string]*api{}
)

func loadAPI(path string) (*api, error) {
	apisMu.Lock()
	defer apisMu.Unlock()
	if a, ok := apis[path]; ok {
		return a, nil
	}
	// dlopen and dlsym report failures through dlerror, which is per thread, and purego
	// calls it separately: on another thread it would say nothing of why loading failed.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNoLibrary, err)
	}
	sym, err := purego.Dlsym(h, "OrtGetApiBase")
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not ONNX Runtime: %w", errNoLibrary, path, err)
	}
	var getAPIBase func() ptr
	purego.RegisterFunc(&getAPIBase, sym)
	base := getAPIBase()
	// struct OrtApiBase { GetApi(uint32_t); GetVersionString(void); }
	var getAPI func(uint32) ptr
	var getVersion func() ptr
	purego.RegisterFunc(&getAPI, *(*uintptr)(base))
	purego.RegisterFunc(&getVersion, *(*uintptr)(unsafe.Add(base, unsafe.Sizeof(uintptr(0)))))
	table := getAPI(apiVersion)
	if table == nil {
		return nil, fmt.Errorf("%w: %s is version %s; version 1.%d or later is needed", errNoLibrary, path, goString(getVersion()), apiVersion)
	}
	a := &api{}
	a.bind(table)
	// Warnings and errors only: info-level logging would go to stderr.
	logID := cString("semantic-router")
	if err := a.check(a.createEnv(2, &logID[0], &a.env)); err != nil {
		return nil, fmt.Errorf("creating environment: %w", err)
	}
	if err := a.check(a.disableTelemetry(a.env)); err != nil {
		return nil, fmt.Errorf("disabling telemetry: %w", err)
	}
	if err := a.check(a.getDefaultAllocator(&a.alloc)); err != nil {
		return nil, fmt.Errorf("getting allocator: %w", err)
	}
	apis[path] = a
	return a, nil
}

func (a *api) bind(table ptr) {
	slot := func(fn any, i uintptr) {
		purego.RegisterFunc(fn, *(*uintptr)(unsafe.Add(table, i*unsafe.Sizeof(uintptr(0)))))
	}
	slot(&a.getErrorMessage, slotGetErrorMessage)
	slot(&a.releaseStatus, slotReleaseStatus)
	slot(&a.createEnv, slotCreateEnv)
	slot(&a.disableTelemetry, slotDisableTelemetryEvents)
	slot(&a.createSessionOptions, slotCreateSessionOptions)
	slot(&a.setIntraOpNumThreads, slotSetIntraOpNumThreads)
	slot(&a.releaseSessionOptions, slotReleaseSessionOptions)
	slot(&a.createSession, slotCreateSession)
	slot(&a.releaseSession, slotReleaseSession)
	slot(&a.sessionGetInputCount, slotSessionGetInputCount)
	slot(&a.sessionGetOutputCount, slotSessionGetOutputCount)
	slot(&a.sessionGetInputName, slotSessionGetInputName)
	slot(&a.sessionGetOutputName, slotSessionGetOutputName)
	slot(&a.sessionGetOutputTypeInfo, slotSessionGetOutputTypeInfo)
	slot(&a.releaseTypeInfo, slotReleaseTypeInfo)
	slot(&a.castTypeInfoToTensorInfo, slotCastTypeInfoToTensorInfo)
	slot(&a.getTensorElementType, slotGetTensorElementType)
	slot(&a.getDimensionsCount, slotGetDimensionsCount)
	slot(&a.getDimensions, slotGetDimensions)
	slot(&a.getTensorTypeAndShape, slotGetTensorTypeAndShape)
	slot(&a.releaseTensorTypeAndShape, slotReleaseTensorTypeAndShapeInfo)
	slot(&a.allocatorFree, slotAllocatorFree)
	slot(&a.getDefaultAllocator, slotGetAllocatorWithDefaultOptions)
	slot(&a.createTensor, slotCreateTensorAsOrtValue)
	slot(&a.getTensorMutableData, slotGetTensorMutableData)
	slot(&a.releaseValue, slotReleaseValue)
	slot(&a.run, slotRun)
}

// check turns an OrtStatus into an error and frees it; NULL means success.
func (a *api) check(status ptr) error {
	if status == nil {
		return nil
	}
	msg := goString(a.getErrorMessage(status))
	a.releaseStatus(status)
	return errors.New(msg)
}

// session is one loaded model with the names and output shape it declares.
type session struct {
	api     *api
	handle  ptr
	inputs  []string
	outputs []string
	// outShapes[i] is output i's declared shape; -1 marks a dynamic axis.
	outShapes [][]int64
}

func openSession(a *api, modelPath string, threads int) (*session, error) {
	var opts ptr
	if err := a.check(a.createSessionOptions(&opts)); err != nil {
		return nil, err
	}
	defer a.releaseSessionOptions(opts)
	if threads > 0 {
		if err := a.check(a.setIntraOpNumThreads(opts, int32(threads))); err != nil {
			return nil, err
		}
	}
	p := cString(modelPath)
	s := &session{api: a}
	if err := a.check(a.createSession(a.env, &p[0], opts, &s.handle)); err != nil {
		return nil, err
	}
	if err := s.describe(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *session) describe() error {
	a := s.api
	var nIn, nOut uintptr
	if err := a.check(a.sessionGetInputCount(s.handle, &nIn)); err != nil {
		return err
	}
	if err := a.check(a.sessionGetOutputCount(s.handle, &nOut)); err != nil {
		return err
	}
	for i := range nIn {
		name, err := s.name(a.sessionGetInputName, i)
		if err != nil {
			return err
		}
		s.inputs = append(s.inputs, name)
	}
	for i := range nOut {
		name, err := s.name(a.sessionGetOutputName, i)
		if err != nil {
			return err
		}
		s.outputs = append(s.outputs, name)
		var ti, info ptr
		if err := a.check(a.sessionGetOutputTypeInfo(s.handle, i, &ti)); err != nil {
			return err
		}
		// The tensor info belongs to the type info: release only the latter.
		err = a.check(a.castTypeInfoToTensorInfo(ti, &info))
		var dims []int64
		if err == nil && info != nil {
			dims, err = a.shape(info)
		}
		a.releaseTypeInfo(ti)
		if err != nil {
			return fmt.Errorf("output %q: %w", name, err)
		}
		s.outShapes = append(s.outShapes, dims)
	}
	return nil
}

func (s *session) name(get func(ptr, uintptr, ptr, *ptr) ptr, i uintptr) (string, error) {
	var p ptr
	if err := s.api.check(get(s.handle, i, s.api.alloc, &p)); err != nil {
		return "", err
	}
	name := goString(p)
	s.api.allocatorFree(s.api.alloc, p)
	return name, nil
}

func (a *api) shape(info ptr) ([]int64, error) {
	var n uintptr
	if err := a.check(a.getDimensionsCount(info, &n)); err != nil {
		return nil, err
	}
	dims := make([]int64, n)
	if n == 0 {
		return dims, nil
	}
	if err := a.check(a.getDimensions(info, &dims[0], n)); err != nil {
		return nil, err
	}
	return dims, nil
}

// run feeds int64 tensors of shape [batch, seq] by input name and returns
// the named output. The input tensors are allocated by ONNX Runtime and
// filled by copy, so no Go memory is held by C across the call.
func (s *session) run(inputs map[string][]int64, batch, seq int, output string) (tensor, error) {
	a := s.api
	shape := []int64{int64(batch), int64(seq)}
	names := make([]*byte, 0, len(s.inputs))
	values := make([]ptr, 0, len(s.inputs))
	defer func() {
		for _, v := range values {
			a.releaseValue(v)
		}
	}()
	for _, name := range s.inputs {
		data, ok := inputs[name]
		if !ok {
			return tensor{}, fmt.Errorf("model input %q: not one of input_ids, attention_mask, token_type_ids", name)
		}
		var v ptr
		if err := a.check(a.createTensor(a.alloc, &shape[0], 2, elemInt64, &v)); err != nil {
			return tensor{}, fmt.Errorf("input %q: %w", name, err)
		}
		values = append(values, v)
		var p ptr
		if err := a.check(a.getTensorMutableData(v, &p)); err != nil {
			return tensor{}, fmt.Errorf("input %q: %w", name, err)
		}
		copy(unsafe.Slice((*int64)(p), len(data)), data) //nolint:gosec // p is ONNX Runtime's buffer of batch*seq int64s
		b := cString(name)
		names = append(names, &b[0])
	}
	outName := cString(output)
	outNames := []*byte{&outName[0]}
	var out ptr
	if err := a.check(a.run(s.handle, nil, &names[0], &values[0], uintptr(len(values)), &outNames[0], 1, &out)); err != nil {
		return tensor{}, err
	}
	defer a.releaseValue(out)
	var info ptr
	if err := a.check(a.getTensorTypeAndShape(out, &info)); err != nil {
		return tensor{}, err
	}
	var elem int32
	err := a.check(a.getTensorElementType(info, &elem))
	var dims []int64
	if err == nil {
		dims, err = a.shape(info)
	}
	a.releaseTensorTypeAndShape(info)
	if err != nil {
		return tensor{}, err
	}
	if elem != elemFloat {
		return tensor{}, fmt.Errorf("output %q: element type %d, want float32", output, elem)
	}
	n := 1
	for _, d := range dims {
		n *= int(d)
	}
	var p ptr
	if err := a.check(a.getTensorMutableData(out, &p)); err != nil {
		return tensor{}, err
	}
	t := tensor{shape: dims, data: make([]float32, n)}
	if n > 0 {
		copy(t.data, unsafe.Slice((*float32)(p), n)) //nolint:gosec // p is ONNX Runtime's buffer of n float32s
	}
	return t, nil
}

func (s *session) close() {
	if s.handle != nil {
		s.api.releaseSession(s.handle)
		s.handle = nil
	}
}

func cString(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}

// goString copies a NUL-terminated C string.
func goString(p ptr) string {
	if p == nil {
		return ""
	}
	var n int
	for *(*byte)(unsafe.Add(p, n)) != 0 {
		n++
	}
	return string(unsafe.Slice((*byte)(p), n)) //nolint:gosec // G103: the n bytes just walked
}
