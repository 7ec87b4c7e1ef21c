package bedrock_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/semantic-router/semantic-router/internal/provider/bedrock"
	"github.com/semantic-router/semantic-router/internal/provider/providertest"
)

var testCreds = aws.Credentials{AccessKeyID: "AKIDTESTCONFORMANCE", SecretAccessKey: "conformance-secret-key", SessionToken: "conformance-session-token"}

func constant(v string) func() (string, error) { return func() (string, error) { return v, nil } }

func TestConformance(t *testing.T) {
	t.Parallel()
	providertest.Run(t, func(t *testing.T, c providertest.Config) providertest.Setup {
		fake := providertest.NewBedrockFake(t, c.Script, "eu-west-1", testCreds)
		secret := testCreds.SecretAccessKey
		if c.WrongCredential {
			secret = "not-the-secret"
		}
		p, err := bedrock.New(bedrock.Options{Name: "claude", Model: "anthropic.claude-3-5-haiku-20241022-v1:0",
			Region: "eu-west-1", BaseURL: fake.Server.URL, Timeout: c.Timeout,
			AccessKeyID: constant(testCreds.AccessKeyID), SecretAccessKey: constant(secret), SessionToken: constant(testCreds.SessionToken),
			AccessKeyIDSource: "env.AWS_ACCESS_KEY_ID", SecretAccessKeySource: "env.AWS_SECRET_ACCESS_KEY", SessionTokenSource: "env.AWS_SESSION_TOKEN"})
		if err != nil {
			t.Fatal(err)
		}
		return providertest.Setup{Provider: p, Model: "claude", NoReasoningCount: true, CredentialRef: "env.AWS_SECRET_ACCESS_KEY",
			Secrets: []string{testCreds.SecretAccessKey, testCreds.SessionToken, secret},
			Refuses: []string{"seed", "seed 0", "parallel_tool_calls false", "presence_penalty", "frequency_penalty", "logprobs", "top_logprobs", "n", "json_object"}}
	})
}
