package onnx

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"testing"

	"github.com/semantic-router/semantic-router/internal/embed"
)

// expected computes what the embedder must return for the token ids: the
// mean (or the first) of their rows in testTable, optionally normalised.
func expected(ids []int64, cls, normalize bool) []float32 {
	table := testTable()
	v := make([]float32, testDim)
	if cls {
		ids = ids[:1]
	}
	for _, id := range ids {
		for d := range testDim {
			v[d] += table[int(id)*testDim+d]
		}
	}
	for d := range v {
		v[d] *= 1 / float32(len(ids))
	}
	if normalize {
		embed.Normalize(v)
	}
	return v
}

func assertClose(t *testing.T, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d dimensions, want %d", what, len(got), len(want))
	}
	for i := range got {
		// Only summation order may differ from the reference.
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Fatalf("%s = %v\nwant %v", what, got, want)
		}
	}
}

func newTestEmbedder(t *testing.T, opts Options) *Embedder {
	t.Helper()
	opts.LibraryPath = libraryPath(t)
	if opts.ModelDir == "" {
		opts.ModelDir = writeModelDir(t, tokenModel(), testTokenizerJSON(t))
	}
	e, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	})
	return e
}

func TestEmbed(t *testing.T) {
	t.Parallel()
	off := false
	// Ids are positions in testVocab: 1 [UNK], 2 [CLS], 3 [SEP].
	texts := []struct {
		text string
		ids  []int64
	}{
		{"The cat sat.", []int64{2, 4, 5, 6, 13, 3}},
		{"dogs running!", []int64{2, 9, 12, 10, 11, 14, 3}},
		{"zebra", []int64{2, 1, 3}},
		{"Café", []int64{2, 15, 3}},
		{"", []int64{2, 3}},
		{"the cat sat on the mat the dog", []int64{2, 4, 5, 6, 7, 4, 8, 4, 9, 3}},
	}
	tests := []struct {
		name string
		opts Options
		cls  bool
		norm bool
		// maxLen cuts the reference ids like the tokenizer does.
		maxLen int
	}{
		{"mean normalised", Options{}, false, true, 0},
		{"mean raw", Options{Normalize: &off}, false, false, 0},
		{"cls", Options{Pooling: PoolingCLS}, true, true, 0},
		{"truncated", Options{MaxLength: 4}, false, true, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newTestEmbedder(t, tc.opts)
			if e.Dimensions() != testDim {
				t.Fatalf("Dimensions() = %d, want %d", e.Dimensions(), testDim)
			}
			all := make([]string, len(texts))
			for i, x := range texts {
				all[i] = x.text
			}
			// One batch of different lengths, so the shorter rows are padded.
			batch, err := e.Embed(context.Background(), all)
			if err != nil {
				t.Fatal(err)
			}
			if len(batch) != len(texts) {
				t.Fatalf("got %d vectors for %d texts", len(batch), len(texts))
			}
			for i, x := range texts {
				ids := x.ids
				if tc.maxLen > 0 && len(ids) > tc.maxLen {
					ids = append(append([]int64{}, ids[:tc.maxLen-1]...), 3)
				}
				want := expected(ids, tc.cls, tc.norm)
				assertClose(t, "batched "+x.text, batch[i], want)
				one, err := e.Embed(context.Background(), []string{x.text})
				if err != nil {
					t.Fatal(err)
				}
				assertClose(t, "alone "+x.text, one[0], want)
			}
		})
	}
}

// TestEmbedSentenceEmbeddingOutput checks that a model's own pooled output
// wins over the per-token one, whatever Pooling says, and that a model
// without token_type_ids is fed only what it declares.
func TestEmbedSentenceEmbeddingOutput(t *testing.T) {
	t.Parallel()
	off := false
	dir := writeModelDir(t, pooledModel(), testTokenizerJSON(t))
	e := newTestEmbedder(t, Options{ModelDir: dir, Pooling: PoolingCLS, Normalize: &off})
	got, err := e.Embed(context.Background(), []string{"The cat sat."})
	if err != nil {
		t.Fatal(err)
	}
	want := expected([]int64{2, 4, 5, 6, 13, 3}, false, false)
	for d := range want {
		want[d] *= 2
	}
	assertClose(t, "sentence_embedding", got[0], want)
}

// TestEmbedManyBatches crosses the batch size and runs concurrently, which
// the race detector checks.
func TestEmbedManyBatches(t *testing.T) {
	t.Parallel()
	e := newTestEmbedder(t, Options{Threads: 1})
	texts := make([]string, 2*batchSize+5)
	for i := range texts {
		texts[i] = [...]string{"the cat", "dogs running", "mat"}[i%3]
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			vecs, err := e.Embed(context.Background(), texts)
			if err != nil {
				errs <- err
				return
			}
			if len(vecs) != len(texts) {
				errs <- errors.New("wrong number of vectors")
				return
			}
			for i := range vecs {
				if embed.Cosine(vecs[i], vecs[i%3]) < 0.999999 {
					errs <- fmt.Errorf("vector %d differs from vector %d for the same text", i, i%3)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestEmbedAfterCloseAndCancel(t *testing.T) {
	t.Parallel()
	e := newTestEmbedder(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, []string{"cat"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error = %v, want context.Canceled", err)
	}
	if vecs, err := e.Embed(ctx, nil); err != nil || len(vecs) != 0 {
		t.Errorf("no texts: %v, %v; want no vectors and no error", vecs, err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := e.Embed(context.Background(), []string{"cat"}); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: error = %v, want ErrClosed", err)
	}
}

// TestNewErrors covers the mistakes that need no library: they must be
// reported the same on a machine without ONNX Runtime.
func TestNewErrors(t *testing.T) {
	t.Setenv("ONNXRUNTIME_LIB", "")
	noModel := writeModelDir(t, nil, testTokenizerJSON(t))
	noTokenizer := writeModelDir(t, tokenModel(), nil)
	badTokenizer := writeModelDir(t, tokenModel(), []byte(`{"model": {"type": "WordPiece", "vocab": {"a": "b"}}}`))
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"nothing", Options{MaxLength: 1, Pooling: "max", Threads: -1},
			"onnx embedder: model dir is required\n" +
				"library path is required (set ONNXRUNTIME_LIB; make onnxruntime fetches one)\n" +
				"max length 1: must be at least 2\n" +
				`pooling "max": must be "mean" or "cls"` + "\n" +
				"threads -1: must not be negative"},
		{"missing model file", Options{ModelDir: noModel, LibraryPath: "/lib/libonnxruntime.so"},
			"onnx embedder: model: stat " + filepath.Join(noModel, "model.onnx") + ": no such file or directory"},
		{"missing tokenizer", Options{ModelDir: noTokenizer, LibraryPath: "/lib/libonnxruntime.so"},
			"onnx embedder: tokenizer: open " + filepath.Join(noTokenizer, "tokenizer.json") + ": no such file or directory"},
		{"bad tokenizer", Options{ModelDir: badTokenizer, LibraryPath: "/lib/libonnxruntime.so"},
			"onnx embedder: tokenizer: " + filepath.Join(badTokenizer, "tokenizer.json") + ": model.vocab: string is not int64"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.opts)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error = %v\nwant    %s", err, tc.want)
			}
		})
	}
}

// TestLibraryErrors needs the onnx build tag but no library.
func TestLibraryErrors(t *testing.T) {
	t.Parallel()
	requireRuntime(t)
	good := writeModelDir(t, tokenModel(), testTokenizerJSON(t))
	tests := []struct {
		name, lib, want string
	}{
		{"missing library", "/nonexistent/libonnxruntime.so",
			"onnx embedder: cannot load ONNX Runtime: /nonexistent/libonnxruntime.so: cannot open shared object file: No such file or directory"},
		{"not a library", filepath.Join(good, "model.onnx"),
			"onnx embedder: cannot load ONNX Runtime: " + filepath.Join(good, "model.onnx") + ": invalid ELF header"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := New(Options{ModelDir: good, LibraryPath: tc.lib})
			if err == nil || err.Error() != tc.want {
				t.Errorf("error = %v\nwant    %s", err, tc.want)
			}
		})
	}
}

// TestBuiltWithoutRuntime checks what a router built without -tags onnx
// says when configured for this embedder.
func TestBuiltWithoutRuntime(t *testing.T) {
	t.Parallel()
	if builtWithRuntime {
		t.Skip("built with -tags onnx")
	}
	dir := writeModelDir(t, tokenModel(), testTokenizerJSON(t))
	_, err := New(Options{ModelDir: dir, LibraryPath: "/usr/lib/libonnxruntime.so"})
	want := "onnx embedder: cannot load ONNX Runtime: this binary was built without ONNX Runtime support (build with -tags onnx, for linux, darwin or freebsd on amd64 or arm64)"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}

// TestNewModelErrors covers models that ONNX Runtime loads but the embedder
// cannot use, and one it cannot load at all.
func TestNewModelErrors(t *testing.T) {
	t.Parallel()
	lib := libraryPath(t)
	tok := testTokenizerJSON(t)
	tests := []struct {
		name  string
		model []byte
		want  string // after "onnx embedder: <dir>/model.onnx"
	}{
		{"four-axis output", badShapeModel(),
			`: output "out" has shape [-1 -1 2 4]; want [batch, seq, dim] or [batch, dim] with a fixed dim`},
		{"unknown input", graph{
			nodes:        [][]byte{node("Gather", []string{"table", "pixels"}, "out")},
			initializers: [][]byte{floatTensor("table", testTable(), int64(len(testVocab)), testDim)},
			inputs:       [][]byte{valueInfo("pixels", onnxInt64, batchDim, seqDim)},
			outputs:      [][]byte{valueInfo("out", onnxFloat, batchDim, seqDim, dim{value: testDim})},
		}.model(), `: input "pixels": not one of input_ids, attention_mask, token_type_ids`},
		{"one number per token", graph{
			nodes:        [][]byte{node("Gather", []string{"table", "input_ids"}, "out")},
			initializers: [][]byte{floatTensor("table", make([]float32, len(testVocab)), int64(len(testVocab)))},
			inputs:       [][]byte{valueInfo("input_ids", onnxInt64, batchDim, seqDim)},
			outputs:      [][]byte{valueInfo("out", onnxFloat, batchDim, seqDim)},
		}.model(), `: output "out" has shape [-1 -1]; want [batch, seq, dim] or [batch, dim] with a fixed dim`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writeModelDir(t, tc.model, tok)
			_, err := New(Options{ModelDir: dir, LibraryPath: lib})
			want := "onnx embedder: " + filepath.Join(dir, "model.onnx") + tc.want
			if err == nil || err.Error() != want {
				t.Errorf("error = %v\nwant    %s", err, want)
			}
		})
	}
	t.Run("not a model", func(t *testing.T) {
		t.Parallel()
		dir := writeModelDir(t, []byte("not protobuf"), tok)
		_, err := New(Options{ModelDir: dir, LibraryPath: lib})
		prefix := "onnx embedder: loading " + filepath.Join(dir, "model.onnx") + ": "
		if err == nil || len(err.Error()) <= len(prefix) || err.Error()[:len(prefix)] != prefix {
			t.Errorf("error = %v\nwant it to start with %s", err, prefix)
		}
	})
}

func BenchmarkEmbedOne(b *testing.B) {
	lib := libraryPath(b)
	dir := writeModelDir(b, tokenModel(), testTokenizerJSON(b))
	e, err := New(Options{ModelDir: dir, LibraryPath: lib})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := e.Close(); err != nil {
			b.Error(err)
		}
	})
	ctx := context.Background()
	texts := []string{"The cat sat on the mat, and the dogs running past it did not notice the café."}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
}
