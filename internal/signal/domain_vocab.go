package signal

import (
	_ "embed" // WordNet-derived domain vocabulary
	"strings"
	"sync"
)

//go:generate go run ./internal/domainvocab -wordnet /usr/share/wordnet -o domain_vocab.txt

// domainVocabText is general subject vocabulary per built-in category,
// derived from Princeton WordNet 3.0's topic domains (see
// internal/domainvocab and domain_vocab_LICENSE.txt).
//
//go:embed domain_vocab.txt
var domainVocabText string

// domainVocab holds one category's WordNet words: the lemmas of its topic
// tree and the definition words of those synsets.
type domainVocab struct {
	lemmas, glosses []string
}

// builtinDomainVocab parses domainVocabText once; the map is shared and
// must not be modified.
var builtinDomainVocab = sync.OnceValue(func() map[string]domainVocab {
	out := map[string]domainVocab{}
	for line := range strings.Lines(domainVocabText) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		name, rest, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		source, words, _ := strings.Cut(rest, "\t")
		v := out[name]
		switch source {
		case "lemma":
			v.lemmas = strings.Fields(words)
		case "gloss":
			v.glosses = strings.Fields(words)
		}
		out[name] = v
	}
	return out
})
