package onnx

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenizer is a tokenizer read from a HuggingFace tokenizer.json: WordPiece,
// which BERT-family sentence-transformers models (MiniLM, BGE, E5, MPNet)
// ship, or byte-level BPE (RoBERTa, GPT-2). It is immutable after loading and
// safe for concurrent use.
type Tokenizer struct {
	vocab map[string]int64
	unk   int64
	// prefix and suffix frame every text: [CLS] and [SEP] for BERT,
	// <s> and </s> for MPNet, from the post-processor.
	prefix, suffix []int64
	pad            int64
	contPrefix     string // continuing-subword prefix, "##" for BERT
	maxWordRunes   int
	bpe            *bpe // nil for WordPiece
	normalize      []func(string) string
	split          func(string) []string
}

// The parts of tokenizer.json that matter here. Pointers tell "absent" from
// "false"; json.RawMessage defers sections whose shape depends on "type".
type tokenizerFile struct {
	Normalizer    *normalizerSpec    `json:"normalizer"`
	PreTokenizer  *preTokenizerSpec  `json:"pre_tokenizer"`
	PostProcessor *postProcessorSpec `json:"post_processor"`
	AddedTokens   []struct {
		ID      int64  `json:"id"`
		Content string `json:"content"`
	} `json:"added_tokens"`
	Padding *struct {
		PadID int64 `json:"pad_id"`
	} `json:"padding"`
	Model *struct {
		Type                    string           `json:"type"`
		UnkToken                string           `json:"unk_token"`
		ContinuingSubwordPrefix *string          `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    int              `json:"max_input_chars_per_word"`
		Vocab                   map[string]int64 `json:"vocab"`
		Merges                  json.RawMessage  `json:"merges"`
	} `json:"model"`
}

type normalizerSpec struct {
	Type               string           `json:"type"`
	CleanText          *bool            `json:"clean_text"`
	HandleChineseChars *bool            `json:"handle_chinese_chars"`
	StripAccents       *bool            `json:"strip_accents"`
	Lowercase          *bool            `json:"lowercase"`
	Normalizers        []normalizerSpec `json:"normalizers"`
}

type preTokenizerSpec struct {
	Type           string             `json:"type"`
	AddPrefixSpace bool               `json:"add_prefix_space"`
	UseRegex       *bool              `json:"use_regex"`
	PreTokenizers  []preTokenizerSpec `json:"pretokenizers"`
}

type postProcessorSpec struct {
	Type string `json:"type"`
	// BertProcessing and RobertaProcessing: ["[CLS]", 101].
	CLS []any `json:"cls"`
	SEP []any `json:"sep"`
	// TemplateProcessing: the template for one sequence, a list of
	// {"SpecialToken": {"id": "[CLS]"}} and {"Sequence": {"id": "A"}}.
	Single []map[string]struct {
		ID string `json:"id"`
	} `json:"single"`
	// Sequence of processors (a ByteLevel step and a template, say).
	Processors []postProcessorSpec `json:"processors"`
}

// LoadTokenizer reads a tokenizer.json. Errors name the JSON path of the
// offending field.
func LoadTokenizer(path string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := ParseTokenizer(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// ParseTokenizer parses the contents of a tokenizer.json.
func ParseTokenizer(data []byte) (*Tokenizer, error) {
	var f tokenizerFile
	if err := json.Unmarshal(data, &f); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return nil, fmt.Errorf("invalid JSON at byte %d: %w", syn.Offset, err)
		case errors.As(err, &typ):
			return nil, fmt.Errorf("%s: %s is not %s", typ.Field, typ.Value, typ.Type)
		}
		return nil, err
	}
	if f.Model == nil {
		return nil, errors.New("model: missing")
	}
	m := f.Model
	if m.Type != "WordPiece" && m.Type != "BPE" {
		return nil, fmt.Errorf("model.type: %q is not supported (only WordPiece and BPE)", m.Type)
	}
	if len(m.Vocab) == 0 {
		return nil, errors.New("model.vocab: empty")
	}
	t := &Tokenizer{vocab: m.Vocab, contPrefix: "##", maxWordRunes: 100}
	if m.ContinuingSubwordPrefix != nil {
		t.contPrefix = *m.ContinuingSubwordPrefix
	}
	if m.MaxInputCharsPerWord > 0 {
		t.maxWordRunes = m.MaxInputCharsPerWord
	}
	var errs []error
	// Special tokens may live in added_tokens rather than the vocabulary.
	added := map[string]int64{}
	for _, a := range f.AddedTokens {
		added[a.Content] = a.ID
	}
	lookup := func(field, tok string) int64 {
		id, ok := m.Vocab[tok]
		if !ok {
			id, ok = added[tok]
		}
		if !ok {
			errs = append(errs, fmt.Errorf("%s: %q is not in model.vocab", field, tok))
		}
		return id
	}
	if m.Type == "BPE" {
		t.bpe = &bpe{}
		if ranks, err := parseMerges(m.Merges); err != nil {
			errs = append(errs, err)
		} else {
			t.bpe.ranks = ranks
		}
		// Byte-level vocabularies cover every byte and often name no
		// unknown token.
		if m.UnkToken != "" {
			t.bpe.unk, t.bpe.hasUnk = lookup("model.unk_token", m.UnkToken), true
		}
		if pt := f.PreTokenizer; pt == nil || pt.Type != "ByteLevel" {
			errs = append(errs, errors.New(`pre_tokenizer.type: BPE is supported with the "ByteLevel" pre-tokenizer only`))
		}
	} else {
		unk := m.UnkToken
		if unk == "" {
			unk = "[UNK]"
		}
		t.unk = lookup("model.unk_token", unk)
	}
	t.prefix, t.suffix = frame(f.PostProcessor, "post_processor", lookup)
	if f.Padding != nil {
		t.pad = f.Padding.PadID
	} else if id, ok := m.Vocab["[PAD]"]; ok {
		t.pad = id
	} else if id, ok := m.Vocab["<pad>"]; ok {
		t.pad = id
	}
	if n, err := buildNormalizer(f.Normalizer, "normalizer"); err != nil {
		errs = append(errs, err)
	} else {
		t.normalize = n
	}
	if s, err := buildSplitter(f.PreTokenizer, "pre_tokenizer"); err != nil {
		errs = append(errs, err)
	} else {
		t.split = s
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return t, nil
}

// frame returns the ids that the post-processor puts before and after a
// single text. Without one, BERT's [CLS] and [SEP] are assumed, which is
// what WordPiece sentence-transformers models use.
func frame(pp *postProcessorSpec, path string, lookup func(field, tok string) int64) (prefix, suffix []int64) {
	marker := func(v []any, def string) string {
		if len(v) > 0 {
			if s, ok := v[0].(string); ok {
				return s
			}
		}
		return def
	}
	switch {
	case pp == nil:
	case pp.Type == "BertProcessing" || pp.Type == "RobertaProcessing":
		return []int64{lookup(path+".cls", marker(pp.CLS, "[CLS]"))}, []int64{lookup(path+".sep", marker(pp.SEP, "[SEP]"))}
	case pp.Type == "TemplateProcessing" && len(pp.Single) > 0:
		seen := false
		for i, item := range pp.Single {
			if _, ok := item["Sequence"]; ok {
				seen = true
				continue
			}
			if tok, ok := item["SpecialToken"]; ok {
				id := lookup(fmt.Sprintf("%s.single[%d].SpecialToken.id", path, i), tok.ID)
				if seen {
					suffix = append(suffix, id)
				} else {
					prefix = append(prefix, id)
				}
			}
		}
		return prefix, suffix
	case pp.Type == "Sequence":
		for i := range pp.Processors {
			p := &pp.Processors[i]
			if p.Type == "BertProcessing" || p.Type == "RobertaProcessing" || p.Type == "TemplateProcessing" {
				return frame(p, fmt.Sprintf("%s.processors[%d]", path, i), lookup)
			}
		}
	}
	return []int64{lookup("model.vocab", "[CLS]")}, []int64{lookup("model.vocab", "[SEP]")}
}

func buildSplitter(spec *preTokenizerSpec, path string) (func(string) []string, error) {
	if spec == nil {
		return splitBert, nil
	}
	switch spec.Type {
	case "BertPreTokenizer", "Whitespace":
		// Whitespace splits \w+|[^\w\s]+, which differs from BERT's split
		// only on runs of punctuation; WordPiece vocabularies hold single
		// punctuation marks, so BERT's rule is the safer one for them.
		return splitBert, nil
	case "WhitespaceSplit":
		return strings.Fields, nil
	case "ByteLevel":
		return byteLevelSplitter(spec.AddPrefixSpace, spec.UseRegex == nil || *spec.UseRegex), nil
	case "Sequence":
		if len(spec.PreTokenizers) == 1 {
			return buildSplitter(&spec.PreTokenizers[0], path+".pretokenizers[0]")
		}
	}
	return nil, fmt.Errorf("%s.type: %q is not supported", path, spec.Type)
}

// Encode turns text into token ids: [CLS], the word pieces, [SEP], at most
// maxLen ids in all (the pieces are cut to fit; maxLen <= 0 means no limit,
// and the markers are kept even when they alone exceed maxLen).
func (t *Tokenizer) Encode(text string, maxLen int) []int64 {
	for _, f := range t.normalize {
		text = f(text)
	}
	ids := append([]int64(nil), t.prefix...)
	limit := -1
	if maxLen > 0 {
		limit = max(maxLen-len(t.suffix), len(t.prefix))
	}
	for _, w := range t.split(text) {
		if t.bpe != nil {
			ids = t.bpe.appendWord(t.vocab, ids, w)
		} else {
			ids = t.appendWord(ids, w)
		}
		if limit >= 0 && len(ids) >= limit {
			ids = ids[:limit]
			break
		}
	}
	return append(ids, t.suffix...)
}

// appendWord adds the WordPiece ids of one word: the longest vocabulary
// entry at each point, later pieces with the continuation prefix. A word
// that cannot be covered entirely becomes a single [UNK], as in BERT.
func (t *Tokenizer) appendWord(ids []int64, w string) []int64 {
	if utf8.RuneCountInString(w) > t.maxWordRunes {
		return append(ids, t.unk)
	}
	start := len(ids)
	var buf strings.Builder
	for pos := 0; pos < len(w); {
		end := len(w)
		found := false
		for end > pos {
			piece := w[pos:end]
			if pos > 0 {
				buf.Reset()
				buf.WriteString(t.contPrefix)
				buf.WriteString(piece)
				piece = buf.String()
			}
			if id, ok := t.vocab[piece]; ok {
				ids = append(ids, id)
				found = true
				break
			}
			_, size := utf8.DecodeLastRuneInString(w[pos:end])
			end -= size
		}
		if !found {
			return append(ids[:start], t.unk)
		}
		pos = end
	}
	return ids
}

// PadID is the id that fills a batch's shorter rows.
func (t *Tokenizer) PadID() int64 { return t.pad }

// VocabSize is the number of vocabulary entries.
func (t *Tokenizer) VocabSize() int { return len(t.vocab) }

// splitBert splits on whitespace and makes each punctuation mark a word of
// its own, as BERT's basic tokenizer does.
func splitBert(s string) []string {
	var words []string
	start := -1
	for i, r := range s {
		switch {
		case unicode.IsSpace(r):
			if start >= 0 {
				words = append(words, s[start:i])
				start = -1
			}
		case isPunct(r):
			if start >= 0 {
				words = append(words, s[start:i])
				start = -1
			}
			words = append(words, s[i:i+utf8.RuneLen(r)])
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	return words
}

// isPunct follows BERT: all non-alphanumeric ASCII symbols (so "$" and "^"
// count) plus Unicode punctuation.
func isPunct(r rune) bool {
	if r >= 33 && r <= 47 || r >= 58 && r <= 64 || r >= 91 && r <= 96 || r >= 123 && r <= 126 {
		return true
	}
	return unicode.IsPunct(r)
}
