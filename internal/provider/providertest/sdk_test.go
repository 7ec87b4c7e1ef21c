package providertest_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/provider"
	"github.com/semantic-router/semantic-router/internal/provider/bedrock"
	"github.com/semantic-router/semantic-router/internal/provider/openaicompat"
	"github.com/semantic-router/semantic-router/internal/provider/providertest"
	"github.com/semantic-router/semantic-router/internal/provider/vertex"
)

// plainProviders builds each provider against its fake, all answering from script.
func plainProviders(t *testing.T, script *providertest.Script) map[string]provider.Provider {
	t.Helper()
	get := func(v string) func() (string, error) { return func() (string, error) { return v, nil } }
	oa := providertest.NewOpenAIFake(t, script, "k")
	p1, err := openaicompat.New(openaicompat.Options{Name: "m", BaseURL: oa.Server.URL + "/v1", Model: "x", APIKey: get("k")})
	if err != nil {
		t.Fatal(err)
	}
	bf := providertest.NewBedrockFake(t, script, "us-east-1", aws.Credentials{AccessKeyID: "AKID", SecretAccessKey: "s"})
	p2, err := bedrock.New(bedrock.Options{Name: "m", Model: "x", Region: "us-east-1", BaseURL: bf.Server.URL,
		AccessKeyID: get("AKID"), SecretAccessKey: get("s")})
	if err != nil {
		t.Fatal(err)
	}
	vf := providertest.NewVertexFake(t, script, "p", "us-central1")
	p3, err := vertex.New(vertex.Options{Name: "m", Model: "x", Project: "p", Location: "us-central1", BaseURL: vf.Server.URL,
		ServiceAccountKey: get(base64.StdEncoding.EncodeToString(vf.NewKey(t)))})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]provider.Provider{"openai_compatible": p1, "bedrock": p2, "vertex": p3}
}

// passThrough is the least a gateway does with a provider: decode the request, call the
// provider, write the answer or each chunk as it comes. It stands in for the router here,
// to check that what providers produce is what the official SDK reads.
func passThrough(p provider.Provider) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req openai.ChatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			openai.WriteError(w, openai.BadRequest("", err.Error()))
			return
		}
		if !req.Stream {
			resp, err := p.ChatCompletion(r.Context(), &req)
			if err != nil {
				openai.WriteError(w, &openai.APIError{Status: 502, Type: openai.TypeUpstream, Message: err.Error()})
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(resp.Body)
			return
		}
		st, err := p.ChatCompletionStream(r.Context(), &req)
		if err != nil {
			openai.WriteError(w, &openai.APIError{Status: 502, Type: openai.TypeUpstream, Message: err.Error()})
			return
		}
		defer st.Close()
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for {
			data, err := st.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				fmt.Fprintf(w, "data: {\"error\":{\"message\":%q}}\n\n", err.Error())
				return
			}
			fmt.Fprintf(w, "data: %s\n\n", data)
			_ = rc.Flush()
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	})
}

// TestOfficialSDKReadsProviderOutput streams text and a tool call through each provider to
// the official OpenAI Go SDK and accumulates them as a client would.
func TestOfficialSDKReadsProviderOutput(t *testing.T) {
	t.Parallel()
	script := providertest.NewScript()
	for name, p := range plainProviders(t, script) {
		srv := httptest.NewServer(passThrough(p))
		t.Cleanup(srv.Close)
		client := sdk.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("router-key"), option.WithMaxRetries(0))
		params := sdk.ChatCompletionNewParams{Model: "m", Messages: []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("Hi")},
			StreamOptions: sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)}}

		script.SetReply(providertest.Reply{Text: "Hello from the fake.", PromptTokens: 3, CompletionTokens: 4})
		acc := sdk.ChatCompletionAccumulator{}
		stream := client.Chat.Completions.NewStreaming(context.Background(), params)
		chunks := 0
		for stream.Next() {
			chunks++
			acc.AddChunk(stream.Current())
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("%s: stream: %v", name, err)
		}
		if len(acc.Choices) != 1 || acc.Choices[0].Message.Content != "Hello from the fake." || acc.Choices[0].FinishReason != "stop" || chunks < 4 {
			t.Fatalf("%s: accumulated %+v from %d chunks", name, acc.Choices, chunks)
		}
		if acc.Usage.PromptTokens != 3 || acc.Usage.CompletionTokens != 4 || acc.Usage.TotalTokens != 7 {
			t.Fatalf("%s: usage %+v", name, acc.Usage)
		}

		script.SetReply(providertest.Reply{Call: &providertest.Call{Name: "get_weather", Arguments: `{"city":"Paris"}`}})
		params.Tools = []sdk.ChatCompletionToolUnionParam{sdk.ChatCompletionFunctionTool(sdk.FunctionDefinitionParam{
			Name: "get_weather", Parameters: sdk.FunctionParameters{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}})}
		acc = sdk.ChatCompletionAccumulator{}
		stream = client.Chat.Completions.NewStreaming(context.Background(), params)
		for stream.Next() {
			acc.AddChunk(stream.Current())
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("%s: tool stream: %v", name, err)
		}
		calls := acc.Choices[0].Message.ToolCalls
		if len(calls) != 1 || calls[0].ID == "" || calls[0].Function.Name != "get_weather" || calls[0].Function.Arguments != `{"city":"Paris"}` || acc.Choices[0].FinishReason != "tool_calls" {
			t.Fatalf("%s: accumulated tool calls %+v, finish %q", name, calls, acc.Choices[0].FinishReason)
		}

		script.SetReply(providertest.Reply{Text: "Plain answer.", PromptTokens: 1, CompletionTokens: 2})
		params.Tools = nil
		resp, err := client.Chat.Completions.New(context.Background(), params)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if resp.Choices[0].Message.Content != "Plain answer." || resp.Usage.TotalTokens != 3 {
			t.Fatalf("%s: answer %+v", name, resp)
		}
	}
}
