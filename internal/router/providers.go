package router

import (
	"fmt"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/bedrock"
	"github.com/semantic-router/semantic-router/internal/provider/openaicompat"
	"github.com/semantic-router/semantic-router/internal/provider/sim"
	"github.com/semantic-router/semantic-router/internal/provider/transport"
	"github.com/semantic-router/semantic-router/internal/provider/vertex"
)

// credential is a getter for a provider and the reference it reads, for error messages.
type credential struct {
	get func() (string, error)
	ref string
}

// newProvider maps a model's configuration to its provider's own options: providers never see
// the config package. Credentials come from secrets, so a file: reference that changes is
// picked up by the next request.
func (r *Router) newProvider(m config.Model) (provider.Provider, error) {
	secrets := r.secrets
	p := m.Provider
	open := func(field string, ref config.SecretRef) (credential, error) {
		if ref.IsZero() {
			return credential{}, nil
		}
		openRef := secrets.OpenToken
		if (config.ProviderRef{Field: field}).Document() {
			openRef = secrets.Open
		}
		src, err := openRef(string(ref))
		if err != nil {
			return credential{}, &config.RefError{Path: "provider." + field, Ref: ref, Err: err}
		}
		return credential{get: src.Value, ref: src.Ref()}, nil
	}
	if p.Type == config.ProviderSim {
		return sim.New(sim.Options{
			Model:             p.Model,
			FirstTokenLatency: p.Sim.FirstTokenLatency.D(),
			TokenLatency:      p.Sim.TokenLatency.D(),
			Reply:             p.Sim.Reply,
			Timeout:           m.Timeout.D(),
		}), nil
	}

	topts := transport.Options{ConnectTimeout: m.ConnectTimeout.D(), H2C: p.H2C}
	if ca, err := open("ca_cert_pem", p.CACertPEM); err != nil {
		return nil, err
	} else if ca.get != nil {
		// The bundle is read once: a transport's roots are fixed when it is built.
		pem, _ := ca.get()
		topts.CACertPEM = []byte(pem)
	}
	pooled, err := transport.New(topts)
	if err != nil {
		return nil, fmt.Errorf("provider.%w", err)
	}
	r.transports = append(r.transports, pooled)
	t := noteRetryAfter(transport.WithTracePropagation(pooled, r.prop))

	switch p.Type {
	case config.ProviderOpenAICompatible:
		key, err := open("api_key", p.APIKey)
		if err != nil {
			return nil, err
		}
		build := func(baseURL string) (provider.Provider, error) {
			return openaicompat.New(openaicompat.Options{
				Name: m.Name, BaseURL: baseURL, Model: p.Model, Timeout: m.Timeout.D(), Transport: t, MaxResponseBytes: m.MaxResponseBodyBytes,
				APIKey: key.get, APIKeySource: key.ref,
			})
		}
		if p.OutlierDetection == nil { // one base_url, no endpoint health
			return build(p.BaseURL)
		}
		return r.newBalanced(m, build, healthProbe{client: transport.NewClient(t), apiKey: key.get})
	case config.ProviderBedrock:
		var creds [3]credential
		for i, f := range []struct {
			name string
			ref  config.SecretRef
		}{{"access_key_id", p.AccessKeyID}, {"secret_access_key", p.SecretAccessKey}, {"session_token", p.SessionToken}} {
			if creds[i], err = open(f.name, f.ref); err != nil {
				return nil, err
			}
		}
		return bedrock.New(bedrock.Options{
			Name: m.Name, Model: p.Model, Region: p.Region, BaseURL: p.BaseURL, Timeout: m.Timeout.D(), Transport: t, MaxResponseBytes: m.MaxResponseBodyBytes,
			AccessKeyID: creds[0].get, SecretAccessKey: creds[1].get, SessionToken: creds[2].get,
			AccessKeyIDSource: creds[0].ref, SecretAccessKeySource: creds[1].ref, SessionTokenSource: creds[2].ref,
		})
	case config.ProviderVertex:
		key, err := open("service_account_key", p.ServiceAccountKey)
		if err != nil {
			return nil, err
		}
		return vertex.New(vertex.Options{
			Name: m.Name, Model: p.Model, Project: p.Project, Location: p.Location, BaseURL: p.BaseURL,
			Timeout: m.Timeout.D(), Transport: t, ServiceAccountKey: key.get, ServiceAccountKeySource: key.ref, MaxResponseBytes: m.MaxResponseBodyBytes,
		})
	default:
		return nil, fmt.Errorf("provider type %q is not supported", p.Type)
	}
}
