package signal

import (
	"context"
	"fmt"
)

// EmbedText embeds one text with the set's embedder, within the embedder's request timeout,
// for the router's semantic cache. A nil Set has no embedder.
func (s *Set) EmbedText(ctx context.Context, text string) ([]float32, error) {
	if s == nil || s.embedder == nil {
		return nil, fmt.Errorf("no embedder")
	}
	vs, err := s.embedList(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}
