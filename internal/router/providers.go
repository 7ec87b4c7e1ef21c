package router

import (
	"fmt"
	"os"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/openaicompat"
	"github.com/semantic-router/semantic-router/internal/provider/sim"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
)

// newProvider maps a model's configuration to its provider's own options: providers never see
// the config package.
func newProvider(m config.Model, lookupEnv func(string) (string, bool)) (provider.Provider, error) {
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	p := m.Provider
	switch p.Type {
	case config.ProviderSim:
		return sim.New(sim.Options{
			Model:             p.Model,
			FirstTokenLatency: p.Sim.FirstTokenLatency.D(),
			TokenLatency:      p.Sim.TokenLatency.D(),
			Reply:             p.Sim.Reply,
		}), nil
	case config.ProviderOpenAICompatible:
		topts := transport.Options{ConnectTimeout: m.ConnectTimeout.D()}
		if !p.CACertPEM.IsZero() {
			pem, err := p.CACertPEM.Resolve(lookupEnv)
			if err != nil {
				return nil, fmt.Errorf("provider.ca_cert_pem %s: %w", p.CACertPEM, err)
			}
			topts.CACertPEM = []byte(pem)
		}
		t, err := transport.New(topts)
		if err != nil {
			return nil, fmt.Errorf("provider.%w", err)
		}
		o := openaicompat.Options{
			Name: m.Name, BaseURL: p.BaseURL, Model: p.Model, Timeout: m.Timeout.D(), Transport: t,
		}
		if !p.APIKey.IsZero() {
			key, err := p.APIKey.Resolve(lookupEnv)
			if err != nil {
				return nil, fmt.Errorf("provider.api_key %s: %w", p.APIKey, err)
			}
			o.APIKey = func() (string, error) { return key, nil }
			o.APIKeySource = p.APIKey.String()
		}
		return openaicompat.New(o)
	default:
		return nil, fmt.Errorf("provider type %q is not supported", p.Type)
	}
}
