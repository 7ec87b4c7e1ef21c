module github.com/semantic-router/semantic-router

go 1.26.0

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/openai/openai-go/v3 v3.98.0 // indirect
	github.com/prometheus/client_golang v1.25.0 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
)
