package config

import (
	"strings"
	"testing"
)

const artifactModels = `
models:
  - model_name: a
    provider: {type: sim}
`

func TestArtifactDefaultsAndReference(t *testing.T) {
	t.Parallel()
	cfg, err := Parse([]byte(artifactModels + `
signals:
  embedder:
    type: onnx
    model_dir: artifact:minilm
artifacts:
  - name: minilm
    repository: sentence-transformers/all-MiniLM-L6-v2
    token: env.HF_TOKEN
    files:
      - path: onnx/model.onnx
        save_as: model.onnx
        sha256: 6fd5d72fe4589f189f8ebc006442dbb529bb7ce38f8082112682524616046452
      - path: tokenizer.json
  - name: mirror
    repository: org/name
    revision: refs/pr/1
    base_url: https://mirror.example.com/hf
    dir: /data/mirror
    files: [{path: model.onnx}]
`))
	if err != nil {
		t.Fatal(err)
	}
	a := cfg.Artifacts[0]
	for _, c := range []struct{ what, got, want string }{
		{"revision", a.Revision, "main"},
		{"base_url", a.BaseURL, "https://huggingface.co"},
		{"dir", a.Dir, "/models/minilm"},
		{"files[0].save_as", a.Files[0].SaveAs, "model.onnx"},
		{"files[1].save_as", a.Files[1].SaveAs, "tokenizer.json"},
		{"embedder model_dir (artifact: resolved)", cfg.Signals.Embedder.ModelDir, "/models/minilm"},
		{"explicit dir", cfg.Artifact("mirror").Dir, "/data/mirror"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.what, c.got, c.want)
		}
	}
	if got := cfg.ArtifactForDir(cfg.Signals.Embedder.ModelDir); got == nil || got.Name != "minilm" {
		t.Errorf("ArtifactForDir(model_dir) = %v, want minilm", got)
	}
	if cfg.ArtifactForDir("/elsewhere") != nil || cfg.ArtifactForDir("") != nil {
		t.Error("ArtifactForDir found an artifact for a directory no artifact has")
	}
	if cfg.Artifact("nope") != nil {
		t.Error(`Artifact("nope") is not nil`)
	}
	cfg.ApplyDefaults()
	if got := cfg.Signals.Embedder.ModelDir; got != "/models/minilm" {
		t.Errorf("after a second ApplyDefaults model_dir = %q", got)
	}
}

func TestArtifactValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		yaml string
		want []string
	}{
		{
			name: "required fields",
			yaml: `
artifacts:
  - files: []
`,
			want: []string{
				`artifacts[0].name (line 7): is required`,
				`artifacts[0].repository (line 7): is required, as in "sentence-transformers/all-MiniLM-L6-v2"`,
				`artifacts[0].files (line 7): at least one file is required`,
			},
		},
		{
			name: "malformed values",
			yaml: `
artifacts:
  - name: MiniLM
    repository: all-MiniLM-L6-v2
    revision: "../main"
    base_url: huggingface.co/
    token: hf_abcdefghijklmnop
    ca_cert_pem: env.1BAD
    dir: models/minilm
    files:
      - path: /etc/passwd
      - path: onnx/../../x
        save_as: .artifact/x
      - path: model.onnx
        sha256: ABC
`,
			want: []string{
				`artifacts[0].name (line 7): must be lowercase letters, digits, '.', '_' or '-', starting and ending with a letter or digit, got "MiniLM"`,
				`artifacts[0].repository (line 8): must be "org/name", as in "sentence-transformers/all-MiniLM-L6-v2", got "all-MiniLM-L6-v2"`,
				`artifacts[0].revision (line 9): must be a branch, tag or commit of letters, digits, '.', '_', '-' and '/', got "../main"`,
				`artifacts[0].base_url (line 10): must be an absolute http(s) URL without a trailing slash, as in https://huggingface.co, got "huggingface.co/"`,
				`artifacts[0].token (line 11): must be a reference "env.VAR" or "file:/path"; inline credentials are not accepted`,
				`artifacts[0].ca_cert_pem (line 12): env reference "env.1BAD": variable name must match [A-Za-z_][A-Za-z0-9_]*`,
				`artifacts[0].dir (line 13): must be a clean absolute path, as in /models/minilm, got "models/minilm"`,
				`artifacts[0].files[0].path (line 15): must be a clean relative path without '..', a leading '/' or a name starting with '.', got "/etc/passwd"`,
				`artifacts[0].files[1].path (line 16): must be a clean relative path without '..', a leading '/' or a name starting with '.', got "onnx/../../x"`,
				`artifacts[0].files[1].save_as (line 17): must be a clean relative path without '..', a leading '/' or a name starting with '.', got ".artifact/x"`,
				`artifacts[0].files[2].sha256 (line 19): must be 64 lowercase hexadecimal digits, got "ABC"`,
			},
		},
		{
			name: "duplicates and credentials in the URL",
			yaml: `
artifacts:
  - name: m
    repository: org/m
    base_url: https://user:pw@mirror.example.com
    files:
      - path: model.onnx
      - path: onnx/model.onnx
        save_as: model.onnx
  - name: m
    repository: org/m
    dir: /models/m
    files: [{path: a}]
`,
			want: []string{
				`artifacts[0].base_url (line 9): must not carry credentials; use token with an env.VAR or file:/path reference, got "https://[redacted]@mirror.example.com"`,
				`artifacts[0].files[1] (line 12): saves to "model.onnx", as files[0] does`,
				`artifacts[1].name (line 14): duplicate artifact name "m" (first defined at artifacts[0])`,
				`artifacts[1].dir (line 16): "/models/m" is also the directory of artifacts[0]; give each artifact its own`,
			},
		},
		{
			name: "credentials in the URL are never echoed",
			yaml: `
artifacts:
  - name: a
    repository: org/m
    base_url: https://user:s3cretpw@mirror.corp/
    files: [{path: model.onnx}]
  - name: b
    repository: org/m
    base_url: https://mirror.corp/hf?access_token=hf_s3cret
    files: [{path: model.onnx}]
  - name: c
    repository: org/m
    base_url: mirror.corp/hf?x=hf_s3cret
    files: [{path: model.onnx}]
  - name: d
    repository: org/m
    base_url: https://mirror.corp/hf#hf_s3cret
    files: [{path: model.onnx}]
`,
			want: []string{
				`artifacts[0].base_url (line 9): must not carry credentials; use token with an env.VAR or file:/path reference, got "https://[redacted]@mirror.corp/"`,
				`artifacts[1].base_url (line 13): must not carry credentials in its query; use token with an env.VAR or file:/path reference, got "https://mirror.corp/hf?access_token=[redacted]"`,
				`artifacts[2].base_url (line 17): must be an absolute http(s) URL without a trailing slash, as in https://huggingface.co, got "mirror.corp/hf?x=[redacted]"`,
				`artifacts[3].base_url (line 21): must not have a query or fragment, got "https://mirror.corp/hf#[redacted]"`,
			},
		},
		{
			name: "layout clashes",
			yaml: `
artifacts:
  - name: a
    repository: org/m
    dir: /models/a
    files:
      - path: a
      - path: a/b
      - path: onnx/model.onnx
        save_as: model.onnx.part
      - path: c
      - path: d
        save_as: c.part/x
      - path: e
        save_as: e.json/x
      - path: e
      - path: f
        save_as: lock/x
  - name: b
    repository: org/m
    dir: /models/a/b
    files: [{path: a}]
  - name: c
    repository: org/m
    dir: /models
    files: [{path: a}]
  - name: d
    repository: org/m
    files: [{path: x.part}]
`,
			want: []string{
				`artifacts[0].files[1] (line 12): saves to "a/b", inside "a", which files[0] saves to`,
				`artifacts[0].files[2].save_as (line 14): must not end in ".part", the name a file has while it downloads, got "model.onnx.part"`,
				`artifacts[0].files[4] (line 16): saves to "c.part/x", whose download file "c.part/x" clashes with "c.part" of files[3]; choose another save_as`,
				`artifacts[0].files[6] (line 20): saves to "e", whose download file ".artifact/e.json" clashes with ".artifact/e.json/x.json" of files[5]; choose another save_as`,
				`artifacts[0].files[7] (line 21): saves to "lock/x", whose download file ".artifact/lock/x.json" would be inside the download lock ".artifact/lock"; choose another save_as`,
				`artifacts[1].dir (line 25): "/models/a/b" is inside the directory of artifacts[0] ("/models/a"); give each artifact its own`,
				`artifacts[2].dir (line 29): "/models" holds the directory of artifacts[0] ("/models/a"); give each artifact its own`,
				`artifacts[2].dir (line 29): "/models" holds the directory of artifacts[1] ("/models/a/b"); give each artifact its own`,
				`artifacts[3].dir (line 31): "/models/d" is inside the directory of artifacts[2] ("/models"); give each artifact its own`,
				`artifacts[3].files[0].path (line 33): must not end in ".part", the name a file has while it downloads, got "x.part"`,
			},
		},
		{
			name: "sizes",
			yaml: `
artifacts:
  - name: m
    repository: org/m
    files:
      - path: model.onnx
        size: 0
      - path: tokenizer.json
        size: -5
      - path: vocab.txt
        size: 231508
`,
			want: []string{
				`artifacts[0].files[0].size (line 11): must be the file's size in bytes, at least 1, got 0`,
				`artifacts[0].files[1].size (line 13): must be the file's size in bytes, at least 1, got -5`,
			},
		},
		{
			name: "unknown artifact reference with suggestion",
			yaml: `
signals:
  embedder:
    type: onnx
    model_dir: artifact:minlm
artifacts:
  - name: minilm
    repository: org/minilm
    files: [{path: model.onnx}]
`,
			want: []string{
				`signals.embedder.model_dir (line 9): unknown artifact "minlm"; did you mean "minilm"?`,
			},
		},
		{
			name: "artifact reference without artifacts",
			yaml: `
signals:
  embedder:
    type: onnx
    model_dir: artifact:minilm
`,
			want: []string{
				`signals.embedder.model_dir (line 9): unknown artifact "minilm" (no artifacts are configured)`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(artifactModels + tt.yaml))
			want := strings.Join(tt.want, "\n")
			if err == nil || err.Error() != want {
				t.Errorf("got error:\n%v\nwant:\n%s", err, want)
			}
		})
	}
}
