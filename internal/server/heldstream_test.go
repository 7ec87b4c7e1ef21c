package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/semantic-router/semantic-router/internal/heaptest"
)

// A stream can last minutes, and its request is often a whole conversation: a router that
// kept the request while the answer streams would hold each stream's conversation two or
// three times over (decoded, and encoded for the model server). Once the model has sent its
// first event the request cannot be sent anywhere again, and a held stream costs what a
// short one costs.
func TestHeldStreamKeepsNotItsRequest(t *testing.T) {
	const (
		streams = 16
		prompt  = 1 << 20
	)
	release := make(chan struct{})
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(content string) {
			fmt.Fprintf(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%q}}]}\n\n", content)
			w.(http.Flusher).Flush()
		}
		chunk("first")
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		chunk(" and the rest")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer be.Close()
	f := newFixture(t, `
routing: {virtual_model: auto}
models:
  - model_name: m
    provider: {type: openai_compatible, base_url: `+be.URL+`/v1}
`, nil)

	// One body shared by every request: the client side holds it once.
	body, err := json.Marshal(map[string]any{"model": "auto", "stream": true,
		"messages": []map[string]string{{"role": "user", "content": strings.Repeat("Summarise this log line. ", prompt/25)}}})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: streams}}
	defer client.CloseIdleConnections()
	open := func() (*http.Response, error) {
		resp, err := client.Post(f.inference+"/v1/chat/completions", "application/json", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			return nil, fmt.Errorf("status %d: %s", resp.StatusCode, b)
		}
		return resp, nil
	}

	// A first stream, whole, builds what every request shares.
	close(release)
	resp, err := open()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(resp.Body); !strings.HasSuffix(string(b), "data: [DONE]\n\n") {
		t.Fatalf("the first stream did not end with [DONE]:\n%s", b)
	}
	resp.Body.Close()
	release = make(chan struct{})

	held := make([]*bufio.Reader, streams)
	bodies := make([]io.Closer, streams)
	errs := make(chan error, streams)
	perStream := heaptest.Each(streams, func() {
		var wg sync.WaitGroup
		for i := range streams {
			wg.Go(func() {
				resp, err := open()
				if err != nil {
					errs <- err
					return
				}
				bodies[i] = resp.Body
				held[i] = bufio.NewReader(resp.Body)
				line, err := held[i].ReadString('\n')
				if err != nil {
					errs <- fmt.Errorf("reading the first event: %w", err)
				} else if !strings.Contains(line, "first") {
					errs <- fmt.Errorf("the first event is %q", line)
				}
			})
		}
		wg.Wait()
	})
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	close(release)
	for i, r := range held {
		rest, err := io.ReadAll(r)
		if err != nil || !strings.HasSuffix(string(rest), "data: [DONE]\n\n") {
			t.Errorf("stream %d did not end with [DONE] (%v):\n%s", i, err, rest)
		}
		_ = bodies[i].Close()
	}

	t.Logf("%d bytes of live heap per held stream, for a request of %d bytes", perStream, len(body))
	if perStream > int64(len(body))/4 {
		t.Errorf("each held stream keeps %d bytes of heap, for a request of %d bytes: the request is kept while the answer streams", perStream, len(body))
	}
}
