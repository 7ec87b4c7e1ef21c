package router

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
)

// serve sends req through the whole pipeline over r and returns the whole answer.
func serve(r *Router, req *openai.ChatRequest) (*provider.Response, Route, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, Route{}, err
	}
	p := NewPipeline(NewHolder(r), PipelineOptions{})
	res, trail, err := p.Serve(context.Background(), &Request{ID: "test", Header: http.Header{}, Body: bytes.NewReader(body)})
	if err != nil {
		return nil, trail.Route, err
	}
	defer res.Close()
	return res.Response, trail.Route, nil
}
