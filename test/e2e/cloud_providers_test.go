package e2e

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/openai/openai-go/v3"

	"github.com/semantic-router/semantic-router/internal/provider/providertest"
)

// TestSDKStreamsBedrockAndVertexModels points the official OpenAI Go SDK at the router and
// streams from a Bedrock-backed and a Vertex-backed model. The fakes verify what the real
// services verify: the Bedrock fake checks the SigV4 signature with the configured secret,
// the Vertex fake checks the bearer token it minted for the service-account key.
func TestSDKStreamsBedrockAndVertexModels(t *testing.T) {
	t.Parallel()
	script := providertest.NewScript()
	script.SetReply(providertest.Reply{Text: "Streamed through the router, word by word.", PromptTokens: 9, CompletionTokens: 8})
	bf := providertest.NewBedrockFake(t, script, "eu-west-1", aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "bedrock-secret-value"})
	vf := providertest.NewVertexFake(t, script, "router-tests-1", "europe-west4")
	saKey := base64.StdEncoding.EncodeToString(vf.NewKey(t))

	r := startRouter(t, fmt.Sprintf(`
models:
  - model_name: claude
    provider:
      type: bedrock
      region: eu-west-1
      model: anthropic.claude-3-5-haiku-20241022-v1:0
      base_url: %s
      access_key_id: env.AWS_ACCESS_KEY_ID
      secret_access_key: env.AWS_SECRET_ACCESS_KEY
  - model_name: gemini
    provider:
      type: vertex
      project: router-tests-1
      location: europe-west4
      model: gemini-2.0-flash-001
      base_url: %s
      service_account_key: env.VERTEX_SA_KEY_B64
`, bf.Server.URL, vf.Server.URL),
		"AWS_ACCESS_KEY_ID=AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY=bedrock-secret-value", "VERTEX_SA_KEY_B64="+saKey)
	client := sdk(r)

	for _, model := range []string{"claude", "gemini"} {
		t.Run(model, func(t *testing.T) {
			stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
				Model:         model,
				Messages:      []openai.ChatCompletionMessageParamUnion{openai.SystemMessage("be brief"), openai.UserMessage("say something")},
				StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
			})
			var text strings.Builder
			chunks, finish, completionTokens := 0, "", int64(0)
			for stream.Next() {
				c := stream.Current()
				chunks++
				for _, ch := range c.Choices {
					text.WriteString(ch.Delta.Content)
					if ch.FinishReason != "" {
						finish = ch.FinishReason
					}
				}
				completionTokens += c.Usage.CompletionTokens
			}
			if err := stream.Err(); err != nil {
				t.Fatal(err)
			}
			if text.String() != "Streamed through the router, word by word." || finish != "stop" || chunks < 3 || completionTokens != 8 {
				t.Errorf("%d chunks, finish %q, %d completion tokens, text %q", chunks, finish, completionTokens, text.String())
			}
			resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
				Model:    model,
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("and once more, whole")},
			})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Choices[0].Message.Content != "Streamed through the router, word by word." || resp.Usage.TotalTokens != 17 {
				t.Errorf("non-streamed answer %+v", resp)
			}
		})
	}
	r.Stop()
	for _, secret := range []string{"bedrock-secret-value", saKey[:40]} {
		if strings.Contains(r.logs.String(), secret) {
			t.Errorf("a credential appears in the logs")
		}
	}
}
