package vertex_test

import (
	"encoding/base64"
	"testing"

	"github.com/semantic-router/semantic-router/internal/provider/providertest"
	"github.com/semantic-router/semantic-router/internal/provider/vertex"
)

func constant(v string) func() (string, error) { return func() (string, error) { return v, nil } }

func TestConformance(t *testing.T) {
	t.Parallel()
	providertest.Run(t, func(t *testing.T, c providertest.Config) providertest.Setup {
		fake := providertest.NewVertexFake(t, c.Script, "test-project", "europe-west4")
		key := fake.NewKey(t)
		if c.WrongCredential {
			key = fake.ForeignKey(t)
		}
		keyB64 := base64.StdEncoding.EncodeToString(key)
		p, err := vertex.New(vertex.Options{Name: "gemini", Model: "gemini-2.0-flash-001", Project: "test-project",
			Location: "europe-west4", BaseURL: fake.Server.URL, Timeout: c.Timeout,
			ServiceAccountKey: constant(keyB64), ServiceAccountKeySource: "env.VERTEX_SA_KEY_B64"})
		if err != nil {
			t.Fatal(err)
		}
		return providertest.Setup{Provider: p, Model: "gemini", CredentialRef: "env.VERTEX_SA_KEY_B64", Secrets: []string{keyB64, string(key)},
			Refuses: []string{"parallel_tool_calls false"}}
	})
}
