package admission

import (
	"context"
	"testing"

	"github.com/semantic-router/semantic-router/internal/config"
)

// BenchmarkAdmit is the admission of one request with a key, a key's and a model's rate
// limits and the in-flight cap: Authenticate, Admit, Done.
func BenchmarkAdmit(b *testing.B) {
	p, err := NewPolicy(config.Admission{
		APIKeys: []config.APIKey{
			{Name: "team-a", Key: "env.TEAM_A", RateLimit: config.RateLimit{RequestsPerMinute: 1 << 30, TokensPerMinute: 1 << 30}},
			{Name: "other", Key: "env.OTHER"},
		},
		ModelLimits: []config.ModelLimit{{Model: "general", RateLimit: config.RateLimit{RequestsPerMinute: 1 << 30}}},
		MaxInFlight: 1000,
	}, nil, Options{LookupEnv: env(map[string]string{"TEAM_A": teamKey, "OTHER": otherKey})})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = p.Close() })
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c, err := p.Authenticate(teamKey)
		if err != nil {
			b.Fatal(err)
		}
		t, err := p.Admit(ctx, c, "general")
		if err != nil {
			b.Fatal(err)
		}
		t.Done(2)
	}
}
