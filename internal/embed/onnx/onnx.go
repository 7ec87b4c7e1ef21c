// Package onnx embeds text with a sentence-transformers model exported to
// ONNX, run by the ONNX Runtime shared library loaded at run time.
//
// The library is opened with dlopen through purego, not cgo, so no C
// toolchain is needed, and only a deployment that configures this embedder
// needs libonnxruntime.so (hack/onnxruntime.sh fetches one). Loading it is
// compiled in only with the "onnx" build tag, because purego makes the binary
// link libc dynamically; without the tag New reports how to rebuild. The
// tokenizer is pure Go, always built, and reads the model's HuggingFace
// tokenizer.json.
package onnx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/semantic-router/semantic-router/internal/embed"
)

// Files expected in Options.ModelDir, as optimum-cli writes them.
const (
	ModelFile     = "model.onnx"
	TokenizerFile = "tokenizer.json" //nolint:gosec // G101: a file name, not a credential
)

// Pooling strategies for models whose output is per token.
const (
	PoolingMean = "mean"
	PoolingCLS  = "cls"
)

// batchSize caps the texts per session run: larger batches pad more and
// gain little on CPU.
const batchSize = 32

// ErrClosed is returned by Embed after Close.
var ErrClosed = errors.New("onnx embedder: closed")

// errNoLibrary marks a library that could not be loaded, so that callers can
// tell it from a bad model.
var errNoLibrary = errors.New("cannot load ONNX Runtime")

// Options configure an Embedder.
type Options struct {
	// ModelDir holds model.onnx and tokenizer.json. Required.
	ModelDir string
	// LibraryPath is the ONNX Runtime shared library (libonnxruntime.so);
	// empty means $ONNXRUNTIME_LIB.
	LibraryPath string
	// MaxLength caps the tokens per text, [CLS] and [SEP] included; longer
	// texts are cut. 0 means 256. It must not exceed what the model was
	// trained on (512 for BERT-family models).
	MaxLength int
	// Pooling turns per-token outputs into one vector: "mean" (the default,
	// what sentence-transformers uses for MiniLM and E5) averages over the
	// attention mask; "cls" takes the first token (BGE). Models with a 2-D
	// output are already pooled and ignore it.
	Pooling string
	// Normalize scales each vector to unit length; nil means true. Cosine
	// similarity does not care, but dot-product indexes do.
	Normalize *bool
	// Threads caps ONNX Runtime's threads per run; 0 leaves its default
	// (one per core).
	Threads int
}

// Embedder is an embed.Embedder backed by an ONNX model. It is safe for
// concurrent use; Close releases the model.
type Embedder struct {
	tok       *Tokenizer
	maxLen    int
	cls       bool
	normalize bool
	output    string
	pooled    bool // the output is [batch, dim], not [batch, seq, dim]
	dims      int

	mu   sync.RWMutex // held for reading by runs, for writing by Close
	sess *session
}

// New loads the tokenizer and the model and checks that the model's output
// is usable. Every problem with the options is reported at once.
func New(opts Options) (*Embedder, error) {
	if opts.LibraryPath == "" {
		opts.LibraryPath = os.Getenv("ONNXRUNTIME_LIB")
	}
	if opts.MaxLength == 0 {
		opts.MaxLength = 256
	}
	if opts.Pooling == "" {
		opts.Pooling = PoolingMean
	}
	var errs []error
	if opts.ModelDir == "" {
		errs = append(errs, errors.New("model dir is required"))
	}
	if opts.LibraryPath == "" {
		errs = append(errs, errors.New("library path is required (set ONNXRUNTIME_LIB; make onnxruntime fetches one)"))
	}
	if opts.MaxLength < 2 {
		errs = append(errs, fmt.Errorf("max length %d: must be at least 2", opts.MaxLength))
	}
	if opts.Pooling != PoolingMean && opts.Pooling != PoolingCLS {
		errs = append(errs, fmt.Errorf("pooling %q: must be %q or %q", opts.Pooling, PoolingMean, PoolingCLS))
	}
	if opts.Threads < 0 {
		errs = append(errs, fmt.Errorf("threads %d: must not be negative", opts.Threads))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("onnx embedder: %w", err)
	}
	modelPath := filepath.Join(opts.ModelDir, ModelFile)
	// Files first: a wrong directory is the likeliest mistake and needs no
	// library to report.
	if _, err := os.Stat(modelPath); err != nil {
		return nil, fmt.Errorf("onnx embedder: model: %w", err)
	}
	tok, err := LoadTokenizer(filepath.Join(opts.ModelDir, TokenizerFile))
	if err != nil {
		return nil, fmt.Errorf("onnx embedder: tokenizer: %w", err)
	}
	a, err := loadAPI(opts.LibraryPath)
	if err != nil {
		return nil, fmt.Errorf("onnx embedder: %w", err)
	}
	sess, err := openSession(a, modelPath, opts.Threads)
	if err != nil {
		return nil, fmt.Errorf("onnx embedder: loading %s: %w", modelPath, err)
	}
	e := &Embedder{
		tok:       tok,
		maxLen:    opts.MaxLength,
		cls:       opts.Pooling == PoolingCLS,
		normalize: opts.Normalize == nil || *opts.Normalize,
		sess:      sess,
	}
	if err := e.pickOutput(); err != nil {
		sess.close()
		return nil, fmt.Errorf("onnx embedder: %s: %w", modelPath, err)
	}
	return e, nil
}

// pickOutput chooses the output to read: "sentence_embedding" when the
// export kept the pooling layer, otherwise the first output, which for a
// transformer export is last_hidden_state.
func (e *Embedder) pickOutput() error {
	s := e.sess
	hasIDs := false
	for _, in := range s.inputs {
		switch in {
		case "input_ids":
			hasIDs = true
		case "attention_mask", "token_type_ids":
		default:
			return fmt.Errorf("input %q: not one of input_ids, attention_mask, token_type_ids", in)
		}
	}
	if !hasIDs {
		return fmt.Errorf("inputs %q: input_ids is missing", s.inputs)
	}
	if len(s.outputs) == 0 {
		return errors.New("the model has no outputs")
	}
	i := 0
	for j, name := range s.outputs {
		if name == "sentence_embedding" && len(s.outShapes[j]) == 2 {
			i = j
		}
	}
	shape := s.outShapes[i]
	if len(shape) != 2 && len(shape) != 3 || shape[len(shape)-1] <= 0 {
		return fmt.Errorf("output %q has shape %v; want [batch, seq, dim] or [batch, dim] with a fixed dim", s.outputs[i], shape)
	}
	e.output = s.outputs[i]
	e.pooled = len(shape) == 2
	e.dims = int(shape[len(shape)-1])
	return nil
}

// Dimensions implements embed.Embedder.
func (e *Embedder) Dimensions() int { return e.dims }

// Embed implements embed.Embedder. Texts are run in batches of up to 32;
// the context is checked between batches (a run in progress is not
// interrupted).
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.sess == nil {
		return nil, ErrClosed
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += batchSize {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("onnx embedder: %w", err)
		}
		vecs, err := e.embedBatch(texts[start:min(start+batchSize, len(texts))])
		if err != nil {
			return nil, fmt.Errorf("onnx embedder: %w", err)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (e *Embedder) embedBatch(texts []string) ([][]float32, error) {
	rows := make([][]int64, len(texts))
	seq := 0
	for i, t := range texts {
		rows[i] = e.tok.Encode(t, e.maxLen)
		seq = max(seq, len(rows[i]))
	}
	n := len(texts) * seq
	ids, mask, types := make([]int64, n), make([]int64, n), make([]int64, n)
	for i, row := range rows {
		for j := range seq {
			k := i*seq + j
			if j < len(row) {
				ids[k], mask[k] = row[j], 1
			} else {
				ids[k] = e.tok.PadID()
			}
		}
	}
	inputs := map[string][]int64{"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
	t, err := e.sess.run(inputs, len(texts), seq, e.output)
	if err != nil {
		return nil, err
	}
	want := []int64{int64(len(texts)), int64(seq), int64(e.dims)}
	if e.pooled {
		want = []int64{want[0], want[2]}
	}
	if !equalShape(t.shape, want) {
		return nil, fmt.Errorf("output %q has shape %v; want %v", e.output, t.shape, want)
	}
	out := make([][]float32, len(texts))
	for i, row := range rows {
		v := make([]float32, e.dims)
		switch {
		case e.pooled:
			copy(v, t.data[i*e.dims:])
		case e.cls:
			copy(v, t.data[i*seq*e.dims:])
		default:
			// Mean over the real tokens only: padding must not move a
			// text's vector, or batching would change results.
			base := t.data[i*seq*e.dims:]
			for j := range len(row) {
				for d, x := range base[j*e.dims : (j+1)*e.dims] {
					v[d] += x
				}
			}
			inv := 1 / float32(len(row))
			for d := range v {
				v[d] *= inv
			}
		}
		if e.normalize {
			embed.Normalize(v)
		}
		out[i] = v
	}
	return out, nil
}

// tensor is an output: its shape and its float32 data, copied to Go memory.
type tensor struct {
	shape []int64
	data  []float32
}

func equalShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Close releases the model; it waits for runs in progress. Later calls to
// Embed return ErrClosed. The library itself stays loaded for the process.
func (e *Embedder) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.sess != nil {
		e.sess.close()
		e.sess = nil
	}
	return nil
}

var _ embed.Embedder = (*Embedder)(nil)
