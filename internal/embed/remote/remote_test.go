package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// fakeServer speaks the OpenAI embeddings wire format: each vector is
// [len(text), index-in-batch, 1].
func fakeServer(t *testing.T, wantKey string, status int, override string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		if got := r.Header.Get("Authorization"); got != "Bearer "+wantKey && wantKey != "" {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`)
			return
		}
		if status != http.StatusOK {
			w.WriteHeader(status)
			fmt.Fprint(w, override)
			return
		}
		if override != "" {
			fmt.Fprint(w, override)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "bge-small" {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		resp := struct {
			Object string `json:"object"`
			Data   []item `json:"data"`
			Model  string `json:"model"`
		}{Object: "list", Model: req.Model}
		// Reply in reverse order: clients must use "index".
		for i := len(req.Input) - 1; i >= 0; i-- {
			resp.Data = append(resp.Data, item{"embedding", i, []float32{float32(len(req.Input[i])), float32(i), 1}})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestEmbedRoundTrip(t *testing.T) {
	t.Parallel()
	srv := fakeServer(t, "sk-test", http.StatusOK, "")
	c, err := New(Options{BaseURL: srv.URL + "/v1/", Model: "bge-small", APIKey: constant("sk-test"), MaxBatch: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c.Dimensions() != 0 {
		t.Errorf("Dimensions before first call = %d, want 0", c.Dimensions())
	}
	got, err := c.Embed(context.Background(), []string{"a", "bb", "ccc"})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float32{{1, 0, 1}, {2, 1, 1}, {3, 0, 1}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Embed = %v, want %v", got, want)
	}
	if c.Dimensions() != 3 {
		t.Errorf("Dimensions = %d, want 3", c.Dimensions())
	}
}

func TestEmbedErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		key      string
		status   int
		body     string
		dims     int
		wantTail string
	}{
		{"unauthorized", "wrong", http.StatusOK, "", 0, `status 401: Incorrect API key provided`},
		{"server error plain text", "sk-test", http.StatusBadGateway, "upstream down", 0, `status 502: upstream down`},
		{"count mismatch", "sk-test", http.StatusOK, `{"data":[]}`, 0, `got 0 embeddings for 1 inputs`},
		{"bad json", "sk-test", http.StatusOK, `{"data":`, 0, `decoding response: unexpected end of JSON input`},
		{"wrong dims", "sk-test", http.StatusOK, `{"data":[{"index":0,"embedding":[1,2]}]}`, 3, `embedding 0 has 2 dimensions, want 3`},
		{"bad index", "sk-test", http.StatusOK, `{"data":[{"index":4,"embedding":[1,2]}]}`, 0, `bad or duplicate embedding index 4`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := fakeServer(t, "sk-test", tt.status, tt.body)
			c, err := New(Options{BaseURL: srv.URL + "/v1", Model: "bge-small", APIKey: constant(tt.key), Dimensions: tt.dims})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Embed(context.Background(), []string{"x"})
			want := "remote embedder: POST " + srv.URL + "/v1/embeddings: " + tt.wantTail
			if err == nil || err.Error() != want {
				t.Errorf("err = %v\nwant  %s", err, want)
			}
			if err != nil && strings.Contains(err.Error(), tt.key) && tt.key != "" {
				t.Errorf("error leaks the API key: %v", err)
			}
		})
	}
}

func TestNewValidates(t *testing.T) {
	t.Parallel()
	_, err := New(Options{BaseURL: "localhost:8000", Dimensions: -1})
	want := "remote embedder: base URL \"localhost:8000\": must start with http:// or https://\nmodel is required\ndimensions -1: must not be negative"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
}

func TestConnectionRefusedNamesEndpoint(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c, err := New(Options{BaseURL: url + "/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.HasPrefix(err.Error(), "remote embedder: POST "+url+"/v1/embeddings: ") {
		t.Errorf("err = %v", err)
	}
}
