package cache

import "testing"

func TestNoOpposites(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, prompt, cached string
		want                 bool
	}{
		{"maximum vs minimum", "What is the minimum dose of paracetamol?", "What is the maximum dose of paracetamol?", false},
		{"largest vs smallest", "What is the smallest planet?", "What is the largest planet?", false},
		{"encrypt vs decrypt", "How do I decrypt a file with gpg?", "How do I encrypt a file with gpg?", false},
		{"upload vs download", "How do I download a file from S3?", "How do I upload a file to S3?", false},
		{"buy vs sell", "Should I sell Tesla stock?", "Should I buy Tesla stock?", false},
		{"increase vs decrease", "How to decrease the volume?", "How to increase the volume?", false},
		{"before vs after", "What happened after the war?", "What happened before the war?", false},
		{"true vs false", "Is it false that cats are mammals?", "Is it true that cats are mammals?", false},
		{"add vs remove", "How do I remove a user in linux?", "How do I add a user in linux?", false},
		{"import vs export", "How do I export data from postgres?", "How do I import data into postgres?", false},
		{"love vs hate", "I hate this product, write a review", "I love this product, write a review", false},
		{"dark vs light", "enable light mode", "enable dark mode", false},
		{"inflected forms", "Why is my disk usage increasing?", "Why is my disk usage decreasing?", false},
		{"a negating prefix", "Is this certificate invalid?", "Is this certificate valid?", false},
		{"a negating prefix, the other way", "how to compress a folder", "how to decompress a folder", false},
		{"client vs server", "client-side validation in react", "server-side validation in react", false},

		{"identical", "What is the maximum dose?", "What is the maximum dose?", true},
		{"a paraphrase", "What is the highest dose I can take?", "what's the highest dose one can take", true},
		{"the same word, inflected", "How do I increase the font size?", "increasing the font size", true},
		{"both words in one", "What is the difference between encrypt and decrypt?", "explain encrypt vs decrypt", true},
		{"both words against one", "Compare buying and selling a house", "What should I know about buying a house?", true},
		{"no opposites", "explain how binary trees work", "how do binary trees work", true},
		{"empty", "", "", true},
	}
	for _, tt := range tests {
		if got := NoOpposites(tt.prompt, tt.cached); got != tt.want {
			t.Errorf("%s: NoOpposites(%q, %q) = %v, want %v", tt.name, tt.prompt, tt.cached, got, tt.want)
		}
		if got := Guard(tt.prompt, tt.cached); tt.want == false && got {
			t.Errorf("%s: Guard(%q, %q) = true, want false", tt.name, tt.prompt, tt.cached)
		}
	}
}
