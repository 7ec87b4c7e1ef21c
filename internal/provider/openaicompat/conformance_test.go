package openaicompat_test

import (
	"testing"

	"github.com/semantic-router/semantic-router/internal/provider/openaicompat"
	"github.com/semantic-router/semantic-router/internal/provider/providertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	providertest.Run(t, func(t *testing.T, c providertest.Config) providertest.Setup {
		const key, wrong = "sk-test-conformance", "sk-test-wrong"
		fake := providertest.NewOpenAIFake(t, c.Script, key)
		use := key
		if c.WrongCredential {
			use = wrong
		}
		p, err := openaicompat.New(openaicompat.Options{Name: "gpt-test", BaseURL: fake.Server.URL + "/v1",
			Model: "upstream-model", APIKey: func() (string, error) { return use, nil },
			APIKeySource: "env.TEST_API_KEY", Timeout: c.Timeout})
		if err != nil {
			t.Fatal(err)
		}
		return providertest.Setup{Provider: p, Model: "gpt-test", CredentialRef: "env.TEST_API_KEY", Secrets: []string{key, wrong}}
	})
}
