package onnx

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// testBPEJSON is a RoBERTa-style byte-level BPE tokenizer.json. "Ġ" is the
// mapped space, "Ċ" the mapped newline, and "Ã©" the two bytes of "é".
func testBPEJSON(t testing.TB, merges any) []byte {
	t.Helper()
	vocab := map[string]int{}
	for i, w := range []string{
		"<s>", "<pad>", "</s>", "<unk>", "a", "c", "s", "t", "Ġ", "at",
		"cat", "Ġc", "Ġcat", "Ġs", "Ġsat", "!", "Ã", "©", "Ã©", "Ċ", "1", "2", "12",
	} {
		vocab[w] = i
	}
	b, err := json.Marshal(map[string]any{
		"normalizer":     nil,
		"pre_tokenizer":  map[string]any{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
		"post_processor": map[string]any{"type": "RobertaProcessing", "sep": []any{"</s>", 2}, "cls": []any{"<s>", 0}},
		"model":          map[string]any{"type": "BPE", "unk_token": "<unk>", "vocab": vocab, "merges": merges},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var testMerges = []string{"a t", "c at", "Ġ c", "Ġc at", "Ġ s", "Ġs at", "Ã ©", "1 2"}

func TestEncodeBPE(t *testing.T) {
	t.Parallel()
	pairs := make([][]string, len(testMerges))
	for i, m := range testMerges {
		pairs[i] = strings.Fields(m)
	}
	// Both spellings of merges must give the same tokenizer.
	for name, merges := range map[string]any{"strings": testMerges, "pairs": pairs} {
		tok, err := ParseTokenizer(testBPEJSON(t, merges))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tests := []struct {
			text string
			want []int64
		}{
			// " cats": "a t" merges first, then "c at" outranks "Ġ c", so
			// "Ġcat" never forms.
			{"cat sat cats!", []int64{0, 10, 14, 8, 10, 6, 15, 2}},
			{"café", []int64{0, 5, 4, 3, 18, 2}},      // no "f": one <unk>; é is two bytes merged
			{"cat  sat", []int64{0, 10, 8, 14, 2}},    // the extra space is a piece of its own
			{"cat\nsat", []int64{0, 10, 19, 6, 9, 2}}, // no "Ġ" before sat: it followed a newline
			{"cat's", []int64{0, 10, 3, 6, 2}},        // "'s" is a piece; "'" is not in the vocabulary
			{"x12", []int64{0, 3, 22, 2}},
			{"cat ", []int64{0, 10, 8, 2}},
			{"", []int64{0, 2}},
		}
		for _, tc := range tests {
			if got := tok.Encode(tc.text, 0); !slices.Equal(got, tc.want) {
				t.Errorf("%s: Encode(%q) = %v, want %v", name, tc.text, got, tc.want)
			}
		}
		if got, want := tok.Encode("cat sat cats!", 4), []int64{0, 10, 14, 2}; !slices.Equal(got, want) {
			t.Errorf("%s: truncated = %v, want %v", name, got, want)
		}
		if tok.PadID() != 1 {
			t.Errorf("%s: PadID() = %d, want 1 (<pad>)", name, tok.PadID())
		}
	}
}

func TestSplitGPT2(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string
	}{
		{"Hello world", []string{"Hello", " world"}},
		{"I'll go", []string{"I", "'ll", " go"}},
		{"a   b", []string{"a", "  ", " b"}},
		{"a \n b", []string{"a", " \n", " b"}},
		{"x\n\ny", []string{"x", "\n", "\n", "y"}},
		{"end  ", []string{"end", "  "}},
		{"42 apples!?", []string{"42", " apples", "!?"}},
		{"né 3½", []string{"né", " 3½"}},
		{"a\xffb", []string{"a", "\xff", "b"}},
	}
	for _, tc := range tests {
		if got := splitGPT2(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("splitGPT2(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestParseBPEErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		merges any
		want   string
	}{
		{"not a list", "a b", "model.merges: not a list: json: cannot unmarshal string into Go value of type []json.RawMessage"},
		{"three symbols", []string{"a t", "a b c"}, `model.merges[1]: "a b c" is not two symbols separated by one space`},
		{"bad pair", []any{[]string{"a"}}, `model.merges[0]: want "a b" or ["a", "b"], got ["a"]`},
	}
	for _, tc := range tests {
		_, err := ParseTokenizer(testBPEJSON(t, tc.merges))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error = %v\nwant    %s", tc.name, err, tc.want)
		}
	}
}

func FuzzBPE(f *testing.F) {
	f.Add("cat sat cats! café\n12")
	f.Add("\xff\x00 's 'll")
	tok, err := ParseTokenizer(testBPEJSON(f, testMerges))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1024 {
			t.Skip()
		}
		ids := tok.Encode(text, 0)
		for _, id := range ids {
			if id < 0 || id > 22 {
				t.Fatalf("Encode(%q) = %v: id %d is not in the vocabulary", text, ids, id)
			}
		}
		// The split must keep every byte, in order.
		joined := ""
		for _, p := range splitGPT2(text) {
			if p == "" {
				t.Fatalf("splitGPT2(%q) has an empty piece", text)
			}
			joined += p
		}
		if joined != text {
			t.Fatalf("splitGPT2(%q) lost bytes: %q", text, joined)
		}
	})
}
