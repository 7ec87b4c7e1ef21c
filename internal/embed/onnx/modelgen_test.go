package onnx

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/semantic-router/semantic-router/internal/testtool"
)

// The tests build their own tiny ONNX models, writing the few protobuf
// fields of onnx.proto that ONNX Runtime needs, so nothing is downloaded and
// no ONNX package is imported. Field numbers are from onnx/onnx.proto.

const (
	onnxFloat = 1 // TensorProto.DataType
	onnxInt64 = 7
)

// dim is one axis of a declared shape: a fixed size, or a named dynamic one.
type dim struct {
	value int64
	param string
}

func valueInfo(name string, elem int, shape ...dim) []byte {
	var shp []byte
	for _, d := range shape {
		var db []byte
		if d.param != "" {
			db = protowire.AppendTag(db, 2, protowire.BytesType) // dim_param
			db = protowire.AppendString(db, d.param)
		} else {
			db = protowire.AppendTag(db, 1, protowire.VarintType) // dim_value
			db = protowire.AppendVarint(db, uint64(d.value))
		}
		shp = protowire.AppendTag(shp, 1, protowire.BytesType) // TensorShapeProto.dim
		shp = protowire.AppendBytes(shp, db)
	}
	var tt []byte
	tt = protowire.AppendTag(tt, 1, protowire.VarintType) // elem_type
	tt = protowire.AppendVarint(tt, uint64(elem))
	tt = protowire.AppendTag(tt, 2, protowire.BytesType) // shape
	tt = protowire.AppendBytes(tt, shp)
	var typ []byte
	typ = protowire.AppendTag(typ, 1, protowire.BytesType) // TypeProto.tensor_type
	typ = protowire.AppendBytes(typ, tt)
	var vi []byte
	vi = protowire.AppendTag(vi, 1, protowire.BytesType) // name
	vi = protowire.AppendString(vi, name)
	vi = protowire.AppendTag(vi, 2, protowire.BytesType) // type
	return protowire.AppendBytes(vi, typ)
}

func floatTensor(name string, data []float32, dims ...int64) []byte {
	var b []byte
	for _, d := range dims {
		b = protowire.AppendTag(b, 1, protowire.VarintType) // dims
		b = protowire.AppendVarint(b, uint64(d))
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType) // data_type
	b = protowire.AppendVarint(b, onnxFloat)
	var packed []byte
	for _, x := range data {
		packed = protowire.AppendFixed32(packed, math.Float32bits(x))
	}
	b = protowire.AppendTag(b, 4, protowire.BytesType) // float_data, packed
	b = protowire.AppendBytes(b, packed)
	b = protowire.AppendTag(b, 8, protowire.BytesType) // name
	return protowire.AppendString(b, name)
}

func node(op string, inputs []string, output string) []byte {
	var b []byte
	for _, in := range inputs {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, in)
	}
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendString(b, output)
	b = protowire.AppendTag(b, 4, protowire.BytesType) // op_type
	return protowire.AppendString(b, op)
}

// withInts adds an INTS attribute to an encoded node.
func withInts(n []byte, name string, values ...int64) []byte {
	var a []byte
	a = protowire.AppendTag(a, 1, protowire.BytesType) // name
	a = protowire.AppendString(a, name)
	for _, v := range values {
		a = protowire.AppendTag(a, 8, protowire.VarintType) // ints
		a = protowire.AppendVarint(a, uint64(v))
	}
	a = protowire.AppendTag(a, 20, protowire.VarintType) // type
	a = protowire.AppendVarint(a, 7)                     // AttributeProto.INTS
	n = protowire.AppendTag(n, 5, protowire.BytesType)   // NodeProto.attribute
	return protowire.AppendBytes(n, a)
}

// withInt adds an INT attribute to an encoded node.
func withInt(n []byte, name string, value int64) []byte {
	var a []byte
	a = protowire.AppendTag(a, 1, protowire.BytesType)
	a = protowire.AppendString(a, name)
	a = protowire.AppendTag(a, 3, protowire.VarintType) // i
	a = protowire.AppendVarint(a, uint64(value))
	a = protowire.AppendTag(a, 20, protowire.VarintType)
	a = protowire.AppendVarint(a, 2) // AttributeProto.INT
	n = protowire.AppendTag(n, 5, protowire.BytesType)
	return protowire.AppendBytes(n, a)
}

// pooledModel has the two outputs of a sentence-transformers export that
// kept its pooling layer: per-token states first, then sentence_embedding,
// here the plain mean over all tokens scaled by 2 so that it cannot be
// mistaken for the embedder's own pooling of the first output.
func pooledModel() []byte {
	mean := withInt(withInts(node("ReduceMean", []string{"last_hidden_state"}, "mean"), "axes", 1), "keepdims", 0)
	return graph{
		nodes: [][]byte{
			node("Gather", []string{"table", "input_ids"}, "last_hidden_state"),
			mean,
			node("Add", []string{"mean", "mean"}, "sentence_embedding"),
		},
		initializers: [][]byte{floatTensor("table", testTable(), int64(len(testVocab)), testDim)},
		inputs: [][]byte{
			valueInfo("input_ids", onnxInt64, batchDim, seqDim),
			valueInfo("attention_mask", onnxInt64, batchDim, seqDim),
		},
		outputs: [][]byte{
			valueInfo("last_hidden_state", onnxFloat, batchDim, seqDim, dim{value: testDim}),
			valueInfo("sentence_embedding", onnxFloat, batchDim, dim{value: testDim}),
		},
	}.model()
}

// graph holds the encoded parts of a GraphProto.
type graph struct {
	nodes, initializers, inputs, outputs [][]byte
}

func (g graph) model() []byte {
	var gb []byte
	add := func(field protowire.Number, parts [][]byte) {
		for _, p := range parts {
			gb = protowire.AppendTag(gb, field, protowire.BytesType)
			gb = protowire.AppendBytes(gb, p)
		}
	}
	add(1, g.nodes)
	gb = protowire.AppendTag(gb, 2, protowire.BytesType)
	gb = protowire.AppendString(gb, "test")
	add(5, g.initializers)
	add(11, g.inputs)
	add(12, g.outputs)

	var opset []byte
	opset = protowire.AppendTag(opset, 2, protowire.VarintType) // version; domain "" is ai.onnx
	opset = protowire.AppendVarint(opset, 13)
	var m []byte
	m = protowire.AppendTag(m, 1, protowire.VarintType) // ir_version
	m = protowire.AppendVarint(m, 7)
	m = protowire.AppendTag(m, 8, protowire.BytesType) // opset_import
	m = protowire.AppendBytes(m, opset)
	m = protowire.AppendTag(m, 7, protowire.BytesType) // graph
	return protowire.AppendBytes(m, gb)
}

// The test vocabulary: ids are the row numbers of testTable.
var testVocab = []string{
	"[PAD]", "[UNK]", "[CLS]", "[SEP]",
	"the", "cat", "sat", "on", "mat", "dog", "run", "##ning", "##s", ".", "!", "cafe",
}

const testDim = 4

// testTable is the embedding table [len(testVocab), testDim]: row i holds
// distinct values so that any wrong id or wrong pooling shows.
func testTable() []float32 {
	t := make([]float32, len(testVocab)*testDim)
	for i := range len(testVocab) {
		for d := range testDim {
			t[i*testDim+d] = float32(math.Sin(float64(i*testDim+d+1))) + float32(d)*0.25
		}
	}
	return t
}

var (
	batchDim = dim{param: "batch"}
	seqDim   = dim{param: "seq"}
)

// tokenModel is a "transformer" whose last_hidden_state is the embedding row
// of each token plus a token-type row (zero for type 0), so the embedder's
// pooling can be checked exactly against the table.
func tokenModel() []byte {
	table := testTable()
	types := make([]float32, 2*testDim)
	for d := range testDim {
		types[testDim+d] = 100 // type 1 would show; the embedder sends 0
	}
	return graph{
		nodes: [][]byte{
			node("Gather", []string{"table", "input_ids"}, "tok"),
			node("Gather", []string{"types", "token_type_ids"}, "typ"),
			node("Add", []string{"tok", "typ"}, "last_hidden_state"),
		},
		initializers: [][]byte{
			floatTensor("table", table, int64(len(testVocab)), testDim),
			floatTensor("types", types, 2, testDim),
		},
		inputs: [][]byte{
			valueInfo("input_ids", onnxInt64, batchDim, seqDim),
			valueInfo("attention_mask", onnxInt64, batchDim, seqDim),
			valueInfo("token_type_ids", onnxInt64, batchDim, seqDim),
		},
		outputs: [][]byte{valueInfo("last_hidden_state", onnxFloat, batchDim, seqDim, dim{value: testDim})},
	}.model()
}

// badShapeModel's output has four axes, which no sentence model produces.
func badShapeModel() []byte {
	return graph{
		nodes:        [][]byte{node("Gather", []string{"table", "input_ids"}, "out")},
		initializers: [][]byte{floatTensor("table", make([]float32, len(testVocab)*2*testDim), int64(len(testVocab)), 2, testDim)},
		inputs:       [][]byte{valueInfo("input_ids", onnxInt64, batchDim, seqDim)},
		outputs:      [][]byte{valueInfo("out", onnxFloat, batchDim, seqDim, dim{value: 2}, dim{value: testDim})},
	}.model()
}

// testTokenizerJSON is a BERT-style tokenizer.json over testVocab.
func testTokenizerJSON(t testing.TB) []byte {
	t.Helper()
	vocab := map[string]int{}
	for i, w := range testVocab {
		vocab[w] = i
	}
	b, err := json.Marshal(map[string]any{
		"version":       "1.0",
		"normalizer":    map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": nil, "lowercase": true},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"post_processor": map[string]any{
			"type": "TemplateProcessing",
			"single": []any{
				map[string]any{"SpecialToken": map[string]any{"id": "[CLS]", "type_id": 0}},
				map[string]any{"Sequence": map[string]any{"id": "A", "type_id": 0}},
				map[string]any{"SpecialToken": map[string]any{"id": "[SEP]", "type_id": 0}},
			},
		},
		"padding": map[string]any{"pad_id": 0, "pad_token": "[PAD]"},
		"model": map[string]any{
			"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
			"max_input_chars_per_word": 100, "vocab": vocab,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeModelDir writes model (if not nil) and tokenizer into a new directory.
func writeModelDir(t testing.TB, model, tokenizer []byte) string {
	t.Helper()
	dir := t.TempDir()
	if model != nil {
		if err := os.WriteFile(filepath.Join(dir, ModelFile), model, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if tokenizer != nil {
		if err := os.WriteFile(filepath.Join(dir, TokenizerFile), tokenizer, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// libraryPath returns $ONNXRUNTIME_LIB, skipping the test without it unless
// CI=true, where a missing library is a broken setup rather than a choice.
func libraryPath(t testing.TB) string {
	t.Helper()
	requireRuntime(t)
	p := os.Getenv("ONNXRUNTIME_LIB")
	if p == "" {
		testtool.Missing(t, "ONNXRUNTIME_LIB is not set; run `make onnxruntime` and export ONNXRUNTIME_LIB=<the path it prints>")
	}
	return p
}

// requireRuntime skips a test that loads a library when the build has no
// ONNX Runtime support (no -tags onnx), failing instead when CI=true.
func requireRuntime(t testing.TB) {
	t.Helper()
	if !builtWithRuntime {
		testtool.Missing(t, "built without -tags onnx; run go test -tags onnx with ONNXRUNTIME_LIB set (make test-onnx)")
	}
}
