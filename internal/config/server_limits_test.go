package config

import (
	"strings"
	"testing"
)

func TestServerLimits(t *testing.T) {
	t.Parallel()
	const models = `
models:
  - model_name: general
    provider: {type: sim}
`
	cfg, err := Parse([]byte(models))
	if err != nil {
		t.Fatal(err)
	}
	want := ServerLimits{ReadTimeout: Duration(DefaultReadTimeout), WriteTimeout: Duration(DefaultWriteTimeout),
		IdleTimeout: Duration(DefaultIdleTimeout), MaxHeaderBytes: DefaultMaxHeaderBytes}
	if cfg.Server.ServerLimits != want {
		t.Errorf("defaults: %+v, want %+v", cfg.Server.ServerLimits, want)
	}
	cfg, err = Parse([]byte(`
server: {read_timeout: 30s, write_timeout: 5s, idle_timeout: 1m, max_header_bytes: 8192}
` + models))
	if err != nil {
		t.Fatal(err)
	}
	want = ServerLimits{ReadTimeout: Duration(30e9), WriteTimeout: Duration(5e9), IdleTimeout: Duration(60e9), MaxHeaderBytes: 8192}
	if cfg.Server.ServerLimits != want {
		t.Errorf("set: %+v, want %+v", cfg.Server.ServerLimits, want)
	}

	_, err = Parse([]byte(`
server:
  read_header_timeout: 10s
  read_timeout: 5s
  write_timeout: -1s
  idle_timeout: -2s
  max_header_bytes: 100
admission: {max_in_flight: 1, queue_timeout: 5s}
` + models))
	wantErr := strings.Join([]string{
		`server.read_timeout (line 4): must be at least read_header_timeout (10s), got 5s`,
		`server.write_timeout (line 5): must not be negative, got -1s`,
		`server.idle_timeout (line 6): must not be negative, got -2s`,
		`server.max_header_bytes (line 7): must be between 4096 and 16777216, got 100`,
		`admission.queue_timeout (line 8): must be shorter than server.read_timeout (5s), which the wait for a slot counts against, got 5s`,
	}, "\n")
	if err == nil || err.Error() != wantErr {
		t.Errorf("error:\n%v\nwant:\n%s", err, wantErr)
	}
}

func TestShutdownDelay(t *testing.T) {
	t.Parallel()
	const models = `
models:
  - model_name: general
    provider: {type: sim}
`
	tests := []struct {
		name, server string
		want         Duration
		wantErr      string
	}{
		{name: "unset: none, for a router run by hand", want: 0},
		{name: "set", server: "server: {shutdown_delay: 5s}\n", want: Duration(5e9)},
		{name: "negative", server: "server:\n  shutdown_timeout: 10s\n  shutdown_delay: -1s\n",
			wantErr: "server.shutdown_delay (line 3): must not be negative, got -1s"},
		{name: "not a duration", server: "server:\n  shutdown_delay: soon\n",
			wantErr: `server.shutdown_delay (line 2): must be a duration such as "30s", not "soon"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := Parse([]byte(tt.server + models))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error:\n%v\nwant:\n%s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Server.ShutdownDelay != tt.want {
				t.Errorf("shutdown_delay = %s, want %s", cfg.Server.ShutdownDelay, tt.want)
			}
		})
	}
}
