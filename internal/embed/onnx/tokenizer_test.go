package onnx

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func testTokenizer(t testing.TB) *Tokenizer {
	t.Helper()
	tok, err := ParseTokenizer(testTokenizerJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestEncode(t *testing.T) {
	t.Parallel()
	tok := testTokenizer(t)
	// Ids are positions in testVocab: 1 [UNK], 2 [CLS], 3 [SEP].
	tests := []struct {
		name   string
		text   string
		maxLen int
		want   []int64
	}{
		{"words", "the cat sat", 256, []int64{2, 4, 5, 6, 3}},
		{"lowercased", "The CAT Sat", 256, []int64{2, 4, 5, 6, 3}},
		{"punctuation is its own word", "cat.dog!", 256, []int64{2, 5, 13, 9, 14, 3}},
		{"continuation pieces", "dogs running", 256, []int64{2, 9, 12, 10, 11, 3}},
		{"accents stripped", "Café", 256, []int64{2, 15, 3}},
		{"unknown word is one UNK", "zebra cat", 256, []int64{2, 1, 5, 3}},
		{"partly known word is one UNK", "catx", 256, []int64{2, 1, 3}},
		{"each CJK ideograph is a word", "cat猫狗", 256, []int64{2, 5, 1, 1, 3}},
		{"whitespace and control characters", "\tthe\u00a0cat\x00\u200b\ue000\nsat ", 256, []int64{2, 4, 5, 6, 3}},
		{"empty", "", 256, []int64{2, 3}},
		{"only spaces", "   ", 256, []int64{2, 3}},
		{"truncated with SEP kept", "the cat sat on the mat", 4, []int64{2, 4, 5, 3}},
		{"truncation may split a word", "running", 3, []int64{2, 10, 3}},
		{"no room for words", "the cat", 2, []int64{2, 3}},
		{"no limit", "the cat sat on the mat", 0, []int64{2, 4, 5, 6, 7, 4, 8, 3}},
		{"word longer than the limit is UNK", strings.Repeat("a", 101) + " cat", 256, []int64{2, 1, 5, 3}},
		{"invalid UTF-8 is dropped", "cat \xff\xfe dog \xffsat", 256, []int64{2, 5, 9, 6, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tok.Encode(tc.text, tc.maxLen); !slices.Equal(got, tc.want) {
				t.Errorf("Encode(%q, %d) = %v, want %v", tc.text, tc.maxLen, got, tc.want)
			}
		})
	}
}

// TestNormalizerVariants covers the normalizer shapes other exports use.
func TestNormalizerVariants(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		normalizer any
		text       string
		want       []int64
	}{
		{"sequence NFD lowercase strip", map[string]any{"type": "Sequence", "normalizers": []any{
			map[string]any{"type": "NFD"}, map[string]any{"type": "Lowercase"}, map[string]any{"type": "StripAccents"},
		}}, "CAFÉ", []int64{2, 15, 3}},
		{"cased BERT keeps case and accents", map[string]any{"type": "BertNormalizer", "lowercase": false}, "Cat café", []int64{2, 1, 1, 3}},
		{"no normalizer", nil, "cat Cat", []int64{2, 5, 1, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tok, err := ParseTokenizer(editTokenizer(t, func(m map[string]any) { m["normalizer"] = tc.normalizer }))
			if err != nil {
				t.Fatal(err)
			}
			if got := tok.Encode(tc.text, 0); !slices.Equal(got, tc.want) {
				t.Errorf("Encode(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

// TestPostProcessors covers the ways tokenizer.json names the markers
// around a text.
func TestPostProcessors(t *testing.T) {
	t.Parallel()
	// MPNet-style markers that only added_tokens knows.
	added := []any{map[string]any{"id": 16, "content": "<s>"}, map[string]any{"id": 17, "content": "</s>"}}
	tests := []struct {
		name string
		pp   any
		want []int64
	}{
		{"none", nil, []int64{2, 5, 3}},
		{"BertProcessing", map[string]any{"type": "BertProcessing", "cls": []any{"[CLS]", 2}, "sep": []any{"[SEP]", 3}}, []int64{2, 5, 3}},
		{"RobertaProcessing", map[string]any{"type": "RobertaProcessing", "cls": []any{"<s>", 16}, "sep": []any{"</s>", 17}}, []int64{16, 5, 17}},
		{"template with two closing markers", map[string]any{"type": "TemplateProcessing", "single": []any{
			map[string]any{"SpecialToken": map[string]any{"id": "<s>"}},
			map[string]any{"Sequence": map[string]any{"id": "A"}},
			map[string]any{"SpecialToken": map[string]any{"id": "</s>"}},
			map[string]any{"SpecialToken": map[string]any{"id": "</s>"}},
		}}, []int64{16, 5, 17, 17}},
		{"sequence holding a template", map[string]any{"type": "Sequence", "processors": []any{
			map[string]any{"type": "ByteLevel"},
			map[string]any{"type": "RobertaProcessing", "cls": []any{"<s>", 16}, "sep": []any{"</s>", 17}},
		}}, []int64{16, 5, 17}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tok, err := ParseTokenizer(editTokenizer(t, func(m map[string]any) {
				m["post_processor"] = tc.pp
				m["added_tokens"] = added
			}))
			if err != nil {
				t.Fatal(err)
			}
			if got := tok.Encode("cat", 0); !slices.Equal(got, tc.want) {
				t.Errorf("Encode(cat) = %v, want %v", got, tc.want)
			}
			if got := tok.Encode("cat dog", 2); !slices.Equal(got, append(tc.want[:1:1], tc.want[2:]...)) {
				t.Errorf("Encode(cat dog, 2) = %v: the markers must stay", got)
			}
		})
	}
}

// editTokenizer returns the test tokenizer.json changed by edit.
func editTokenizer(t testing.TB, edit func(map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(testTokenizerJSON(t), &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseTokenizerErrors(t *testing.T) {
	t.Parallel()
	model := func(m map[string]any) map[string]any { return m["model"].(map[string]any) }
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"not JSON", []byte(`{"model": `), "invalid JSON at byte 10: unexpected end of JSON input"},
		{"no model", []byte(`{}`), "model: missing"},
		{"vocab of the wrong type", editTokenizer(t, func(m map[string]any) { model(m)["vocab"] = []any{"a"} }),
			"model.vocab: array is not map[string]int64"},
		{"vocab id of the wrong type", editTokenizer(t, func(m map[string]any) { model(m)["vocab"] = map[string]any{"a": "x"} }),
			"model.vocab: string is not int64"},
		{"Unigram", editTokenizer(t, func(m map[string]any) { model(m)["type"] = "Unigram" }),
			`model.type: "Unigram" is not supported (only WordPiece and BPE)`},
		{"BPE without merges or ByteLevel", editTokenizer(t, func(m map[string]any) { model(m)["type"] = "BPE" }),
			"model.merges: missing\n" + `pre_tokenizer.type: BPE is supported with the "ByteLevel" pre-tokenizer only`},
		{"empty vocab", editTokenizer(t, func(m map[string]any) { model(m)["vocab"] = map[string]any{} }),
			"model.vocab: empty"},
		{"unknown token and markers missing", editTokenizer(t, func(m map[string]any) {
			model(m)["vocab"] = map[string]any{"cat": 0}
		}), `model.unk_token: "[UNK]" is not in model.vocab` + "\n" +
			`post_processor.single[0].SpecialToken.id: "[CLS]" is not in model.vocab` + "\n" +
			`post_processor.single[2].SpecialToken.id: "[SEP]" is not in model.vocab`},
		{"BertProcessing names its markers", editTokenizer(t, func(m map[string]any) {
			m["post_processor"] = map[string]any{"type": "BertProcessing", "cls": []any{"<s>", 0}, "sep": []any{"[SEP]", 3}}
		}), `post_processor.cls: "<s>" is not in model.vocab`},
		{"template marker missing", editTokenizer(t, func(m map[string]any) {
			m["post_processor"].(map[string]any)["single"].([]any)[2] = map[string]any{"SpecialToken": map[string]any{"id": "</s>"}}
		}), `post_processor.single[2].SpecialToken.id: "</s>" is not in model.vocab`},
		{"no post-processor and no [CLS]", editTokenizer(t, func(m map[string]any) {
			delete(m, "post_processor")
			delete(model(m)["vocab"].(map[string]any), "[CLS]")
		}), `model.vocab: "[CLS]" is not in model.vocab`},
		{"unsupported normalizer in a sequence", editTokenizer(t, func(m map[string]any) {
			m["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{
				map[string]any{"type": "NFD"}, map[string]any{"type": "Replace"},
			}}
		}), `normalizer.normalizers[1].type: "Replace" is not supported`},
		{"unsupported pre-tokenizer", editTokenizer(t, func(m map[string]any) {
			m["pre_tokenizer"] = map[string]any{"type": "Metaspace"}
		}), `pre_tokenizer.type: "Metaspace" is not supported`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseTokenizer(tc.data)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error = %v\nwant    %s", err, tc.want)
			}
		})
	}
}

func TestLoadTokenizerNamesTheFile(t *testing.T) {
	t.Parallel()
	dir := writeModelDir(t, nil, []byte(`{"model": {"type": "Unigram"}}`))
	_, err := LoadTokenizer(dir + "/" + TokenizerFile)
	want := dir + `/tokenizer.json: model.type: "Unigram" is not supported (only WordPiece and BPE)`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}

// FuzzTokenizer checks that no input panics, that every id is in the
// vocabulary and the length limit holds, and that a text made of known
// words (picked by the second input) encodes to exactly their ids.
func FuzzTokenizer(f *testing.F) {
	f.Add("The cat sat on the mat.", []byte{4, 5, 6})
	f.Add("dogs running!! café 猫", []byte{9, 12, 200})
	f.Add("\x00\xff\u200b", []byte{})
	tok := testTokenizer(f)
	valid := map[int64]bool{}
	for i := range testVocab {
		valid[int64(i)] = true
	}
	// Whole words only: "##" pieces and markers cannot be typed as text.
	var words []int64
	for i, w := range testVocab {
		if !strings.HasPrefix(w, "[") && !strings.HasPrefix(w, "##") {
			words = append(words, int64(i))
		}
	}
	f.Fuzz(func(t *testing.T, text string, pick []byte) {
		// Long inputs add nothing that short ones do not reach, and they
		// make the fuzzer's minimisation slow.
		if len(text) > 1024 || len(pick) > 64 {
			t.Skip()
		}
		for _, maxLen := range []int{0, 2, 7} {
			ids := tok.Encode(text, maxLen)
			if maxLen >= 2 && len(ids) > maxLen {
				t.Fatalf("Encode(%q, %d) gave %d ids", text, maxLen, len(ids))
			}
			if ids[0] != 2 || ids[len(ids)-1] != 3 {
				t.Fatalf("Encode(%q) = %v: not framed by [CLS] and [SEP]", text, ids)
			}
			for _, id := range ids {
				if !valid[id] {
					t.Fatalf("Encode(%q) = %v: id %d is not in the vocabulary", text, ids, id)
				}
			}
		}
		var sb strings.Builder
		want := []int64{2}
		for _, p := range pick {
			id := words[int(p)%len(words)]
			sb.WriteString(testVocab[id])
			sb.WriteByte(' ')
			want = append(want, id)
		}
		want = append(want, 3)
		if got := tok.Encode(sb.String(), 0); !slices.Equal(got, want) {
			t.Fatalf("Encode(%q) = %v, want %v", sb.String(), got, want)
		}
	})
}

func BenchmarkTokenize(b *testing.B) {
	tok := testTokenizer(b)
	const prompt = "The cat sat on the mat, and the dogs running past it did not notice the café."
	b.ReportAllocs()
	for b.Loop() {
		tok.Encode(prompt, 256)
	}
}
