// Package embedtest serves the OpenAI /v1/embeddings wire format for tests, with
// deterministic vectors, so that tests of the remote embedder's users run against a real
// HTTP server.
package embedtest

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"strings"
)

// Dimensions is the length of HashedVector's vectors.
const Dimensions = 64

// HashedVector is a bag-of-words vector over 64 hashed dimensions, unit length: texts that
// share words are similar, others are not.
func HashedVector(text string) []float32 {
	v := make([]float32, Dimensions)
	for _, w := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New32a()
		_, _ = h.Write([]byte(w))
		v[h.Sum32()%Dimensions]++
	}
	var n float32
	for _, x := range v {
		n += x * x
	}
	if n == 0 {
		v[0], n = 1, 1
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(float64(n)))
	}
	return v
}

// Answer answers one POST /v1/embeddings request with HashedVector of each input: 404 for
// another path or method, 400 for a body that is not an embeddings request.
func Answer(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var out struct {
		Data []item `json:"data"`
	}
	for i, text := range req.Input {
		out.Data = append(out.Data, item{Index: i, Embedding: HashedVector(text)})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}
