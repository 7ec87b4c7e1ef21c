package config

import (
	"strings"
	"testing"

	"github.com/semantic-router/semantic-router/examples"
)

// FuzzParse checks that no input makes the loader panic, that whatever it accepts is valid
// and has its defaults applied, and that what it refuses is refused by the field walk, which
// names paths and goes on, never by the decoder's first error.
func FuzzParse(f *testing.F) {
	f.Add(examples.Demo)
	f.Add([]byte("models:\n  - model_name: a\n    provider: {type: sim}\n"))
	f.Add([]byte("models: [{model_name: a, provider: {type: openai_compatible, base_url: 'http://x/v1', api_key: env.K}}]"))
	f.Add([]byte("a: &x [*x]"))
	f.Add([]byte("models: []\nmodels:\n  - {model_name: a, model_name: b, provider: {type: sim}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data)
		if err != nil {
			if strings.Contains(err.Error(), "unmarshal errors") {
				t.Fatalf("refused by the decoder, not the walk: %v", err)
			}
			return
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("accepted config does not validate: %v", err)
		}
		if cfg.Routing.VirtualModel == "" || cfg.Server.MaxRequestBodyBytes == 0 {
			t.Fatalf("accepted config lacks defaults: %+v", cfg)
		}
	})
}
