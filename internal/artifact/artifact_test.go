package artifact

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/semantic-router/semantic-router/internal/config"
)

// repo puts a two-file model repository on h and returns the artifact that names it, with
// the model's checksum and the tokenizer's left out (so both cache checks are exercised).
func repo(t *testing.T, h *hub) (config.Artifact, []byte, []byte) {
	model := bytes.Repeat([]byte("onnx-weights-"), 5000) // 65000 bytes
	tok := bytes.Repeat([]byte(`{"model":"WordPiece"}`), 100)
	sum := h.add("org/minilm", "main", "onnx/model.onnx", model)
	h.add("org/minilm", "main", "tokenizer.json", tok)
	a := config.Artifact{
		Name: "minilm", Repository: "org/minilm", Revision: "main", BaseURL: h.srv.URL,
		Dir: filepath.Join(t.TempDir(), "minilm"),
		Files: []config.ArtifactFile{
			{Path: "onnx/model.onnx", SaveAs: "model.onnx", SHA256: sum},
			{Path: "tokenizer.json", SaveAs: "tokenizer.json"},
		},
	}
	return a, model, tok
}

func instant(int) time.Duration { return 0 }

func requireFile(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: %d bytes, not the %d served", path, len(got), len(want))
	}
}

func requireNoFile(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s exists (err %v); it should not", path, err)
	}
}

func TestFreshDownloadThenWarmCacheMakesNoRequest(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	h.token = "hf_right"
	a, model, tok := repo(t, h)
	a.Token = "env.HF_TOKEN"
	lookup := env(map[string]string{"HF_TOKEN": "hf_right"})

	var st Status
	res, err := New(Options{LookupEnv: lookup, Status: &st}).Ensure(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	if res.Downloaded != 2 || res.Cached != 0 || res.Bytes != int64(len(model)+len(tok)) {
		t.Fatalf("first run: %+v", res)
	}
	requireFile(t, filepath.Join(a.Dir, "model.onnx"), model)
	requireFile(t, filepath.Join(a.Dir, "tokenizer.json"), tok)
	requireNoFile(t, filepath.Join(a.Dir, "model.onnx.part"))
	if ok, why := st.Ready(); !ok {
		t.Fatalf("not ready after the download: %s", why)
	}
	want := "/org/minilm/resolve/main/onnx/model.onnx range=\"\" if-range=false auth=true\n" +
		"/org/minilm/resolve/main/tokenizer.json range=\"\" if-range=false auth=true\n"
	if got := paths(h.seen()); got != want {
		t.Fatalf("requests:\n%s\nwant:\n%s", got, want)
	}

	// A restart with a warm cache, online then offline, asks the server nothing and does
	// not even need the token.
	for _, offline := range []bool{false, true} {
		res, err := New(Options{LookupEnv: env(nil), Offline: offline}).Ensure(context.Background(), a)
		if err != nil {
			t.Fatalf("offline=%t: %v", offline, err)
		}
		if res.Downloaded != 0 || res.Cached != 2 {
			t.Fatalf("offline=%t: %+v", offline, res)
		}
	}
	if n := len(h.seen()); n != 2 {
		t.Fatalf("the warm runs made %d requests", n-2)
	}
}

func TestResumeAfterCutConnection(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	h.cutAfter = 1000
	a, model, tok := repo(t, h)
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	res, err := New(Options{Backoff: instant, Logger: log}).Ensure(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	requireFile(t, filepath.Join(a.Dir, "model.onnx"), model)
	requireFile(t, filepath.Join(a.Dir, "tokenizer.json"), tok)
	if res.Bytes != int64(len(model)+len(tok)) {
		t.Fatalf("received %d bytes; a resumed download asks only for the rest (%d)", res.Bytes, len(model)+len(tok))
	}
	want := "/org/minilm/resolve/main/onnx/model.onnx range=\"\" if-range=false auth=false\n" +
		"/org/minilm/resolve/main/onnx/model.onnx range=\"bytes=1000-\" if-range=true auth=false\n" +
		"/org/minilm/resolve/main/tokenizer.json range=\"\" if-range=false auth=false\n" +
		"/org/minilm/resolve/main/tokenizer.json range=\"bytes=1000-\" if-range=true auth=false\n"
	if got := paths(h.seen()); got != want {
		t.Fatalf("requests:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(logs.String(), `"msg":"download attempt failed; retrying"`) {
		t.Fatalf("no retry logged:\n%s", logs.String())
	}
}

func TestAFlakyConnectionThatAdvancesIsNotGivenUp(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	h.cutAfter, h.cutEvery = 16000, true
	a, model, _ := repo(t, h)
	a.Files = a.Files[:1]
	// Every response is cut, yet each brings 16000 more bytes: five tries in all, with two
	// allowed without progress.
	if _, err := New(Options{Backoff: instant, MaxAttempts: 2}).Ensure(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	requireFile(t, filepath.Join(a.Dir, "model.onnx"), model)
	if n := len(h.seen()); n != 5 {
		t.Fatalf("%d requests, want 5", n)
	}
}

func TestADownloadCutAtTheSamePointIsGivenUp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(h *hub, a *config.Artifact)
		want  string // the requests the server saw
	}{
		{
			// Without an ETag or a sha256 a part cannot be resumed safely: every try starts
			// over and is cut at byte 1000 again.
			name: "no ETag and no sha256",
			setup: func(h *hub, a *config.Artifact) {
				h.noETag = true
				a.Files = a.Files[1:]
			},
			want: strings.Repeat("/org/minilm/resolve/main/tokenizer.json range=\"\" if-range=false auth=false\n", 3),
		},
		{
			name: "a server that ignores Range",
			setup: func(h *hub, a *config.Artifact) {
				h.ignoreRange = true
				a.Files = a.Files[:1]
			},
			want: "/org/minilm/resolve/main/onnx/model.onnx range=\"\" if-range=false auth=false\n" +
				strings.Repeat("/org/minilm/resolve/main/onnx/model.onnx range=\"bytes=1000-\" if-range=true auth=false\n", 2),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHub(t, false)
			h.cutAfter, h.cutEvery = 1000, true
			a, _, _ := repo(t, h)
			tt.setup(h, &a)
			// The first try takes the part to byte 1000, the two others no further. The
			// deadline only bounds a downloader that would retry forever.
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := New(Options{Backoff: instant, MaxAttempts: 3}).Ensure(ctx, a)
			var e *Error
			if !errors.As(err, &e) || e.Kind != KindConnect || !strings.HasSuffix(e.Message, " (gave up after 3 attempts)") {
				t.Fatalf("got %v, want a connection error given up after 3 attempts", err)
			}
			if got := paths(h.seen()); got != tt.want {
				t.Fatalf("requests:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestAStalledResponseIsCut(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	h.hold = make(chan struct{})
	t.Cleanup(func() { close(h.hold) }) // before the server's Close, which waits for the handler
	a, _, _ := repo(t, h)
	_, err := New(Options{MaxAttempts: 1, StallTimeout: 20 * time.Millisecond}).Ensure(context.Background(), a)
	want := `artifact "minilm": onnx/model.onnx: no data from ` + h.srv.URL + ` for too long; the connection stalled`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	st, err := os.Stat(filepath.Join(a.Dir, "model.onnx.part"))
	if err != nil || st.Size() != 32500 {
		t.Fatalf("the part kept for resuming: %v, %v", st, err)
	}
}

func TestResumeStartsOverWhenTheFileChanged(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	a, model, _ := repo(t, h)
	a.Files = a.Files[:1]
	// A part left by an earlier run of another version of the file: its ETag no longer
	// matches, so the server answers the range request with the whole file.
	if err := os.MkdirAll(filepath.Join(a.Dir, metaDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a.Dir, "model.onnx.part"), []byte("stale bytes of an old version"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := New(Options{Backoff: instant})
	j := &job{d: d, cfg: a}
	raw, _ := json.Marshal(partState{URL: j.fileURL(a.Files[0]), ETag: `"old"`})
	if err := os.WriteFile(j.partStatePath(a.Files[0]), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Ensure(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	requireFile(t, filepath.Join(a.Dir, "model.onnx"), model)
	want := "/org/minilm/resolve/main/onnx/model.onnx range=\"bytes=29-\" if-range=true auth=false\n"
	if got := paths(h.seen()); got != want {
		t.Fatalf("requests:\n%s\nwant:\n%s", got, want)
	}
}

func TestAResumeAnsweredWithAnotherVersionStartsOver(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(h *hub)
		cause string // the retry's message; {base} is the server's URL
	}{
		{
			name:  "a 206 with another ETag than If-Range named",
			setup: func(h *hub) { h.ignoreIfRange = true },
			cause: `{base} answered a resumed download with another version of the file (ETag {etag}, not "old"); starting over`,
		},
		{
			name:  "a 206 that does not start at the offset asked",
			setup: func(h *hub) { h.rangeFromStart = true },
			cause: `{base} answered a resumed download with an unexpected Content-Range "bytes 0-2099/2100"; starting over`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHub(t, false)
			a, _, tok := repo(t, h)
			tt.setup(h)
			// The tokenizer has no sha256 to catch a file mixed from two versions. A part
			// left by an earlier run of another version of it: its ETag no longer matches.
			a.Files = a.Files[1:]
			if err := os.MkdirAll(filepath.Join(a.Dir, metaDir), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(a.Dir, "tokenizer.json.part"), []byte("stale bytes of an old version"), 0o644); err != nil {
				t.Fatal(err)
			}
			var logs bytes.Buffer
			d := New(Options{Backoff: instant, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
			j := &job{d: d, cfg: a}
			raw, _ := json.Marshal(partState{URL: j.fileURL(a.Files[0]), ETag: `"old"`})
			if err := os.WriteFile(j.partStatePath(a.Files[0]), raw, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := d.Ensure(context.Background(), a); err != nil {
				t.Fatal(err)
			}
			requireFile(t, filepath.Join(a.Dir, "tokenizer.json"), tok)
			want := "/org/minilm/resolve/main/tokenizer.json range=\"bytes=29-\" if-range=true auth=false\n" +
				"/org/minilm/resolve/main/tokenizer.json range=\"\" if-range=false auth=false\n"
			if got := paths(h.seen()); got != want {
				t.Fatalf("requests:\n%s\nwant:\n%s", got, want)
			}
			sum := sha256.Sum256(tok)
			cause := strings.NewReplacer("{base}", h.srv.URL, "{etag}", `"`+hex.EncodeToString(sum[:])+`"`).Replace(tt.cause)
			if line, _ := json.Marshal(cause); !strings.Contains(logs.String(), `"error":`+string(line)) {
				t.Fatalf("the retry does not say %s:\n%s", cause, logs.String())
			}
		})
	}
}

func TestChecksumMismatchIsRefused(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	a, _, _ := repo(t, h)
	got := a.Files[0].SHA256
	a.Files[0].SHA256 = strings.Repeat("ab", 32)
	var st Status
	_, err := New(Options{Backoff: instant, Status: &st}).Ensure(context.Background(), a)
	want := `artifact "minilm": onnx/model.onnx: checksum mismatch: expected sha256 ` + a.Files[0].SHA256 + `, got ` + got +
		`; the download was discarded (check files[].sha256 and the revision)`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindChecksum {
		t.Fatalf("kind: %#v", err)
	}
	requireNoFile(t, filepath.Join(a.Dir, "model.onnx"))
	requireNoFile(t, filepath.Join(a.Dir, "model.onnx.part"))
	if n := len(h.seen()); n != 1 {
		t.Fatalf("%d requests; a checksum mismatch is not retried", n)
	}
	if ok, why := st.Ready(); ok || why != want {
		t.Fatalf("ready %t, reason %q", ok, why)
	}
}

func TestHTTPFailuresNameTheCause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		setup    func(h *hub, a *config.Artifact)
		env      map[string]string
		kind     Kind
		want     string // {base} is the server's URL
		requests int
		ok       bool
	}{
		{
			name:  "wrong token",
			setup: func(h *hub, a *config.Artifact) { h.token = "hf_right"; a.Token = "env.HF_TOKEN" },
			env:   map[string]string{"HF_TOKEN": "hf_wrong_secret_value"},
			kind:  KindAuth,
			want: `artifact "minilm": onnx/model.onnx: 401 Unauthorized from {base} (the server says: Invalid credentials in Authorization header): ` +
				`the token from env.HF_TOKEN was refused; check that it is valid and may read "org/minilm" (for a gated model, accept its terms on the model's page)`,
			requests: 1,
		},
		{
			name:  "no token",
			setup: func(h *hub, a *config.Artifact) { h.token = "hf_right" },
			kind:  KindAuth,
			want: `artifact "minilm": onnx/model.onnx: 401 Unauthorized from {base} (the server says: Invalid credentials in Authorization header): ` +
				`the repository "org/minilm" needs a token; set the artifact's token to an env.VAR or file:/path reference (Hugging Face also answers 401 for a repository that does not exist)`,
			requests: 1,
		},
		{
			name:  "token reference not set",
			setup: func(h *hub, a *config.Artifact) { a.Token = "env.HF_TOKEN" },
			kind:  KindConfig,
			want: `artifact "minilm": token env.HF_TOKEN: environment variable HF_TOKEN is not set ` +
				`(names are case-sensitive and must match the Secret key exactly): secret not found`,
		},
		{
			name:  "wrong revision",
			setup: func(h *hub, a *config.Artifact) { a.Revision = "v9" },
			kind:  KindNotFound,
			want: `artifact "minilm": onnx/model.onnx: 404 Not Found from {base} (the server says: Entry not found): ` +
				`no file "onnx/model.onnx" at revision "v9" of repository "org/minilm"; check the repository, the revision and the file's path`,
			requests: 1,
		},
		{
			name:     "unavailable until the attempts run out",
			setup:    func(h *hub, a *config.Artifact) { h.fail = 100 },
			kind:     KindHTTP,
			want:     `artifact "minilm": onnx/model.onnx: 503 Service Unavailable from {base} (the server says: try again later) (gave up after 3 attempts)`,
			requests: 3,
		},
		{
			name:     "unavailable twice, then served",
			setup:    func(h *hub, a *config.Artifact) { h.fail = 2 },
			requests: 4, // 3 for the model, 1 for the tokenizer
			ok:       true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHub(t, false)
			a, _, _ := repo(t, h)
			tt.setup(h, &a)
			_, err := New(Options{Backoff: instant, MaxAttempts: 3, LookupEnv: env(tt.env)}).Ensure(context.Background(), a)
			if n := len(h.seen()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
			if tt.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			want := strings.ReplaceAll(tt.want, "{base}", h.srv.URL)
			if err == nil || err.Error() != want {
				t.Fatalf("got  %v\nwant %s", err, want)
			}
			if strings.Contains(err.Error(), "hf_wrong_secret_value") {
				t.Fatal("the error shows the token")
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != tt.kind {
				t.Fatalf("kind %q, want %q", e.Kind, tt.kind)
			}
		})
	}
}

func TestAWebPageIsNotCachedAsTheModel(t *testing.T) {
	t.Parallel()
	// A captive portal that every request is sent to, its login page answered with 200.
	portal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, "<html><body>Please log in</body></html>")
	}))
	t.Cleanup(portal.Close)
	tests := []struct {
		name  string
		setup func(h *hub)
		want  string // {base} is the hub's URL, {portal} the portal's
	}{
		{
			name:  "a proxy answers with its login page",
			setup: func(h *hub) { h.contentType = "text/html; charset=utf-8" },
			want: `artifact "minilm": onnx/model.onnx: {base}/org/minilm/resolve/main/onnx/model.onnx sent a web page (Content-Type text/html), not the file: ` +
				`a proxy's login page or a captive portal, or a base_url that is not a model repository; check the base_url and egress from the router`,
		},
		{
			name:  "a redirect to a captive portal",
			setup: func(h *hub) { h.redirect = portal.URL + "/login?session=s3cret&next=x" },
			want: `artifact "minilm": onnx/model.onnx: {portal}/login?session=[redacted]&next=[redacted] (redirected from {base}/org/minilm/resolve/main/onnx/model.onnx) ` +
				`sent a web page (Content-Type text/html), not the file: a proxy's login page or a captive portal, or a base_url that is not a model repository; check the base_url and egress from the router`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHub(t, false)
			a, _, _ := repo(t, h)
			a.Files[0].SHA256 = "" // nothing else would tell the page from the model
			tt.setup(h)
			_, err := New(Options{Backoff: instant}).Ensure(context.Background(), a)
			want := strings.NewReplacer("{base}", h.srv.URL, "{portal}", portal.URL).Replace(tt.want)
			if err == nil || err.Error() != want {
				t.Fatalf("got  %v\nwant %s", err, want)
			}
			requireNoFile(t, filepath.Join(a.Dir, "model.onnx"))
		})
	}
}

func TestTLSTrustFollowsCACertPEM(t *testing.T) {
	t.Parallel()
	h := newHub(t, true)
	a, model, _ := repo(t, h)

	_, err := New(Options{Backoff: instant}).Ensure(context.Background(), a)
	want := `artifact "minilm": onnx/model.onnx: TLS: the certificate of ` + h.srv.URL +
		` is signed by an unknown authority; set the artifact's ca_cert_pem to a reference to the CA bundle (a mirror's CA, or a TLS-inspecting proxy's)`
	if err == nil || err.Error() != want {
		t.Fatalf("without ca_cert_pem:\ngot  %v\nwant %s", err, want)
	}
	if n := len(h.seen()); n != 0 {
		t.Fatalf("%d requests got through an untrusted TLS handshake", n)
	}

	a.CACertPEM = "env.HUB_CA_PEM"
	if _, err := New(Options{LookupEnv: env(map[string]string{"HUB_CA_PEM": h.caPEM()})}).Ensure(context.Background(), a); err != nil {
		t.Fatalf("with ca_cert_pem: %v", err)
	}
	requireFile(t, filepath.Join(a.Dir, "model.onnx"), model)
}

func TestRedirectToAnotherHostDropsTheToken(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	h.token = "hf_right"
	h.cdn = newCDN(t)
	a, model, _ := repo(t, h)
	a.Token = config.SecretRef("file:" + filepath.Join(t.TempDir(), "token"))
	if err := os.WriteFile(strings.TrimPrefix(string(a.Token), "file:"), []byte("hf_right"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{}).Ensure(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	requireFile(t, filepath.Join(a.Dir, "model.onnx"), model)
	for _, s := range h.seen() {
		if s.auth != "Bearer hf_right" {
			t.Errorf("the hub got %q", s.auth)
		}
	}
	cdn := h.cdn.seen()
	if len(cdn) != 2 {
		t.Fatalf("the CDN got %d requests", len(cdn))
	}
	for _, s := range cdn {
		if s.auth != "" {
			t.Errorf("the token went to the CDN: %q", s.auth)
		}
	}
}

func TestRedirectToPlainHTTPIsRefused(t *testing.T) {
	t.Parallel()
	h := newHub(t, true)
	h.cdn = newCDN(t)
	a, _, _ := repo(t, h)
	a.CACertPEM = "env.HUB_CA_PEM"
	_, err := New(Options{Backoff: instant, LookupEnv: env(map[string]string{"HUB_CA_PEM": h.caPEM()})}).Ensure(context.Background(), a)
	want := `artifact "minilm": onnx/model.onnx: refusing a redirect from ` + h.srv.URL + ` to plain HTTP (` + h.cdn.srv.URL + `)`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	if n, m := len(h.seen()), len(h.cdn.seen()); n != 1 || m != 0 {
		t.Fatalf("%d requests to the hub (want 1, no retry), %d to the CDN (want 0)", n, m)
	}
}

func TestOfflineWithAColdCacheFailsWithoutARequest(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	a, _, _ := repo(t, h)
	a.Token = "env.HF_TOKEN" // not set: offline never reads it
	_, err := New(Options{Offline: true}).Ensure(context.Background(), a)
	want := `artifact "minilm": onnx/model.onnx: not in the cache (` + filepath.Join(a.Dir, "model.onnx") +
		`) and downloads are off (-offline): run "semantic-router models pull" first, or start without -offline`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	if n := len(h.seen()); n != 0 {
		t.Fatalf("%d requests in offline mode", n)
	}
}

func TestOfflineWithAStaleCachedFileSaysSo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(a *config.Artifact, model []byte) []byte // returns the cached file's bytes
		kind  Kind
		want  string // {target} is the cached file, {sum} the model's sha256
	}{
		{
			name:  "does not match its sha256",
			setup: func(a *config.Artifact, model []byte) []byte { return append([]byte("X"), model[1:]...) },
			kind:  KindChecksum,
			want: `artifact "minilm": onnx/model.onnx: the cached file {target} does not match its sha256 (expected {sum}, got {got}), and downloads are off (-offline): ` +
				`run "semantic-router models pull" to download it again, or start without -offline`,
		},
		{
			name: "is not of its size",
			setup: func(a *config.Artifact, model []byte) []byte {
				a.Files[0].Size = int64(len(model))
				return model[:100]
			},
			kind: KindSize,
			want: `artifact "minilm": onnx/model.onnx: the cached file {target} is 100 bytes, not the 65000 of files[].size, and downloads are off (-offline): ` +
				`run "semantic-router models pull" to download it again, or start without -offline`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHub(t, false)
			a, model, _ := repo(t, h)
			cachedBytes := tt.setup(&a, model)
			target := filepath.Join(a.Dir, "model.onnx")
			if err := os.MkdirAll(a.Dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(target, cachedBytes, 0o644); err != nil {
				t.Fatal(err)
			}
			got := sha256.Sum256(cachedBytes)
			_, err := New(Options{Offline: true}).Ensure(context.Background(), a)
			want := strings.NewReplacer("{target}", target, "{sum}", a.Files[0].SHA256, "{got}", hex.EncodeToString(got[:])).Replace(tt.want)
			if err == nil || err.Error() != want {
				t.Fatalf("got  %v\nwant %s", err, want)
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != tt.kind {
				t.Fatalf("kind: %#v", err)
			}
			if n := len(h.seen()); n != 0 {
				t.Fatalf("%d requests in offline mode", n)
			}
		})
	}
}

func TestCacheFollowsTheRevision(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	a, model, tok := repo(t, h)
	if _, err := New(Options{}).Ensure(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	// The same files at a new revision: the model, pinned by its checksum, stays; the
	// tokenizer, known only by its marker, is fetched again.
	h.add("org/minilm", "refs/pr/1", "onnx/model.onnx", model)
	tok2 := append(append([]byte(nil), tok...), '\n')
	h.add("org/minilm", "refs/pr/1", "tokenizer.json", tok2)
	a.Revision = "refs/pr/1"
	res, err := New(Options{}).Ensure(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	if res.Cached != 1 || res.Downloaded != 1 {
		t.Fatalf("%+v", res)
	}
	requireFile(t, filepath.Join(a.Dir, "tokenizer.json"), tok2)
	if got := h.seen()[2].path; got != "/org/minilm/resolve/refs%2Fpr%2F1/tokenizer.json" {
		t.Fatalf("requested %s", got)
	}
}

func TestNotReadyWhileDownloading(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	h.hold = make(chan struct{})
	a, _, _ := repo(t, h)
	var st Status
	d := New(Options{Status: &st})
	if err := func() error {
		st.Register(a.Name)
		if ok, why := st.Ready(); ok || why != `artifact "minilm": not downloaded yet` {
			t.Fatalf("before: ready %t, %q", ok, why)
		}
		var wg sync.WaitGroup
		var err error
		wg.Go(func() { err = d.EnsureAll(context.Background(), []config.Artifact{a}) })
		defer wg.Wait()
		want := `artifact "minilm": downloading onnx/model.onnx (31.7 KiB of 63.5 KiB)`
		waitFor(t, "half the model", func() bool { _, why := st.Ready(); return why == want })
		if ok, _ := st.ArtifactReady("minilm"); ok {
			t.Fatal("the artifact is ready half-way")
		}
		close(h.hold)
		wg.Wait()
		return err
	}(); err != nil {
		t.Fatal(err)
	}
	if ok, why := st.Ready(); !ok {
		t.Fatalf("after: %s", why)
	}
	snap := st.Snapshot()
	if len(snap) != 1 || snap[0].State != StateReady {
		t.Fatalf("%+v", snap)
	}
}

func TestReadinessSaysADownloadIsRetried(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	h.fail = 100
	h.token = "hf_secret_token_value"
	a, _, _ := repo(t, h)
	a.Token = "env.HF_TOKEN"
	var st Status
	// A back-off long enough to look at the status during it; the test cancels it.
	d := New(Options{Status: &st, MaxAttempts: 5, Backoff: func(int) time.Duration { return time.Hour },
		LookupEnv: env(map[string]string{"HF_TOKEN": h.token})})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var err error
	wg.Go(func() { err = d.EnsureAll(ctx, []config.Artifact{a}) })
	want := `artifact "minilm": retrying onnx/model.onnx (attempt 2 of 5): 503 Service Unavailable from ` + h.srv.URL + ` (the server says: try again later)`
	waitFor(t, "the retry in the readiness reason", func() bool { _, why := st.Ready(); return why == want })
	if ok, why := st.ArtifactReady("minilm"); ok || why != want || strings.Contains(why, h.token) {
		t.Fatalf("ArtifactReady: %t %q", ok, why)
	}
	if snap := st.Snapshot(); snap[0].State != StateRetrying || snap[0].Kind != KindHTTP || snap[0].Attempt != 2 || snap[0].MaxAttempts != 5 {
		t.Fatalf("%+v", snap[0])
	}
	cancel()
	wg.Wait()
	if err == nil || !strings.HasSuffix(err.Error(), "the download was canceled") {
		t.Fatalf("after cancel: %v", err)
	}
}

func TestProgressIsLogged(t *testing.T) {
	t.Parallel()
	h := newHub(t, false)
	a, model, _ := repo(t, h)
	a.Files = a.Files[:1]
	var logs bytes.Buffer
	var mu sync.Mutex
	now := time.Unix(0, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); now = now.Add(time.Second); return now }
	d := New(Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil)), ProgressMinBytes: 1, ProgressInterval: time.Second, Now: clock})
	if _, err := d.Ensure(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	var line map[string]any
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, `"msg":"downloading"`) {
			if err := json.Unmarshal([]byte(l), &line); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	for _, k := range []string{"bytes", "total_bytes", "bytes_per_second", "eta_seconds"} {
		if _, ok := line[k]; !ok {
			t.Fatalf("progress line lacks %s:\n%s", k, logs.String())
		}
	}
	if line["total_bytes"] != float64(len(model)) || line["artifact"] != "minilm" {
		t.Fatalf("progress line: %v", line)
	}
}
