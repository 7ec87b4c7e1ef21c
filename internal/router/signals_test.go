package router

import (
	"slices"
	"testing"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/signal"
)

// TestConfigVocabulariesMatchTheSignals keeps the names the config validates against in step
// with what the extractors know.
func TestConfigVocabulariesMatchTheSignals(t *testing.T) {
	var domains []string
	for _, d := range signal.BuiltinDomains() {
		domains = append(domains, d.Name)
	}
	slices.Sort(domains)
	if !slices.Equal(domains, config.BuiltinDomains) {
		t.Errorf("config.BuiltinDomains = %v, signal knows %v", config.BuiltinDomains, domains)
	}
	var types []string
	for _, p := range signal.PIITypes() {
		types = append(types, string(p))
	}
	slices.Sort(types)
	if !slices.Equal(types, config.PIITypes) {
		t.Errorf("config.PIITypes = %v, signal knows %v", config.PIITypes, types)
	}
}
