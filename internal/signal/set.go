package signal

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/embed"
	"github.com/semantic-router/semantic-router/internal/embed/builtin"
	"github.com/semantic-router/semantic-router/internal/embed/remote"
	"github.com/semantic-router/semantic-router/internal/longtext"
)

// Result is one signal's outcome for a request, as the classification API and the debug
// header report it. Its JSON is part of the management API.
type Result struct {
	Name       string  `json:"name"`
	Kind       string  `json:"kind"`
	Matched    bool    `json:"matched"`
	Confidence float64 `json:"confidence"`
	// Label is the domain, the language code or the complexity level.
	Label string `json:"label,omitempty"`
	// Types are the PII types found (those the signal looks for).
	Types []string `json:"types,omitempty"`
	// Value is the signal's detail: the domain and its scores, the PII findings, the
	// jailbreak score and reasons, the complexity level, the language, the token estimate.
	Value any `json:"value,omitempty"`
	// Error says why the signal could not be computed for this request (its embedder
	// failed); it then reads as not matched, and the policies that depend on it take their
	// on_error.
	Error     string  `json:"error,omitempty"`
	LatencyMs float64 `json:"latency_ms"`
}

// Secret is one resolved credential reference.
type Secret interface {
	// Value returns the current value; it is called for every embedding request, so a
	// rotated file: key takes effect without a reload.
	Value() (string, error)
	// Ref is the reference itself (env.VAR, file:/path), safe to show; never the value.
	Ref() string
}

// SecretOpener resolves the credential references of a remote embedder: OpenToken its
// api_key, which goes into a header and must be a usable token, Open its ca_cert_pem. The
// router passes its store of credentials, so that rotation and redaction see these like
// every other credential.
type SecretOpener interface {
	Open(ref string) (Secret, error)
	OpenToken(ref string) (Secret, error)
}

// SetOptions are a Set's dependencies.
type SetOptions struct {
	// Secrets resolves the embedder's credential references. Nil is fine for a
	// configuration that references none; one that does is refused.
	Secrets SecretOpener
	// LocalModelReady reports whether the files of a local model directory (the onnx
	// embedder's model_dir) are in place: nil, or why not (an artifact still downloading).
	// With it, an embedder whose files are not there yet is loaded once they are; until
	// then the signals that need it fail with that reason and the others are computed.
	// Nil: the files are in place, or loading fails at once.
	LocalModelReady func(dir string) error
}

// Set is the signals of one configuration, one extractor per configured signal, sharing the
// expensive parts (the embedder, the domain classifier, the PII and jailbreak detectors).
// It is safe for concurrent use; Close releases it.
type Set struct {
	embedder     embed.Embedder
	closer       interface{ Close() error } // the embedder's resources (an ONNX session), if any
	embedTimeout time.Duration
	// inProcess says the embedder computes on the calling goroutine (builtin, onnx): it is
	// called inline, while a remote one is called concurrently with the other signals.
	inProcess bool
	builtin   bool           // the embedder is the builtin one
	list      []extractor    // configuration order
	index     map[string]int // each signal's place in list, by name
	scopes    []Role         // the distinct scopes of list that read message text
	// vectors keeps the vectors of long texts: an agent sends its conversation again on
	// every turn, and each message but the newest was embedded already.
	vectors longtext.Memo[[]float32]

	// pending build the parts that embed their examples (similarity matchers, the domain
	// classifier, the jailbreak detector) when a remote embedder was not answering at
	// start; ensure runs them once it answers. built is set when none is left.
	pendingMu sync.Mutex
	pending   []func(context.Context) error
	built     atomic.Bool
}

// extractor is one configured signal.
type extractor struct {
	name, kind string
	// scope is the messages the signal reads; 0 for signals that read no message text.
	scope Role
	// vec says the signal needs embeddings: of each segment in scope (perSegment) or of
	// their joined text.
	vec, perSegment bool
	fuzzy           bool // a keyword list that allows edits (Set.Cost)
	// run fills Matched, Confidence, Label, Types and Value, or Error when a vector it
	// needs is missing.
	run func(ev *evaluation) Result
}

// readier is an embedder that can say whether its service answers (the remote one).
type readier interface{ Ready(context.Context) error }

// defaultEmbedTimeout bounds embedding one request's texts when signals.embedder.timeout is
// not set.
const defaultEmbedTimeout = 3 * time.Second

// NewSet builds the extractors of every signal cfg configures, and its embedder. Building
// the domain classifier and the jailbreak detector embeds their examples, a fraction of a
// second with the builtin embedder. A remote embedder that does not answer yet does not
// stop it: the parts that embed examples are built once the embedder answers, and until
// then Ready says why not and the signals that need vectors fail (Result.Error).
//
// Errors name the signal or the embedder field; a configuration that passed
// config.Validate fails only on its embedder (an ONNX model that cannot be loaded, an
// unreadable credential) or, for a remote embedder that answers, on embedding the examples.
func NewSet(ctx context.Context, cfg *config.Signals, opts SetOptions) (*Set, error) {
	set := &Set{embedTimeout: cfg.Embedder.RequestTimeout.D()}
	if set.embedTimeout == 0 {
		set.embedTimeout = defaultEmbedTimeout
	}
	emb, closer, err := newEmbedder(&cfg.Embedder, opts)
	if err != nil {
		return nil, fmt.Errorf("signals.embedder: %w", err)
	}
	set.embedder, set.closer = emb, closer
	_, remoteEmb := emb.(*remote.Client)
	_, set.builtin = emb.(*builtin.Embedder)
	set.inProcess = !remoteEmb
	b := &builder{ctx: ctx, set: set}
	if rd, ok := emb.(readier); ok && rd.Ready(ctx) != nil {
		b.deferBuild = true
	}
	set.built.Store(!b.deferBuild)
	if err := b.build(cfg); err != nil {
		_ = set.Close()
		return nil, err
	}
	if len(set.list) > 0 {
		warmTables()
	}
	return set, nil
}

// Ready reports whether every signal can be computed: nil, or why not (a remote embedder
// that has not answered yet, or the parts left pending at start that still cannot be
// built). A nil Set is ready.
func (s *Set) Ready(ctx context.Context) error {
	if s == nil {
		return nil
	}
	if rd, ok := s.embedder.(readier); ok {
		if err := rd.Ready(ctx); err != nil {
			return fmt.Errorf("signals.embedder: %w", err)
		}
	}
	if err := s.ensure(ctx); err != nil {
		return fmt.Errorf("signals: %w", err)
	}
	return nil
}

// ensure builds the parts left pending at start. It is safe for concurrent use; parts it
// built are visible to a goroutine that synchronizes with its return.
func (s *Set) ensure(ctx context.Context) error {
	if s.built.Load() {
		return nil
	}
	s.pendingMu.Lock()
	defer s.pendingMu.Unlock()
	for len(s.pending) > 0 {
		if err := s.pending[0](ctx); err != nil {
			return err
		}
		s.pending = s.pending[1:]
	}
	s.built.Store(true)
	return nil
}

// Close releases the embedder's resources (an ONNX session). The Set must not be used
// afterwards. A nil Set closes to nil.
func (s *Set) Close() error {
	if s == nil || s.closer == nil {
		return nil
	}
	return s.closer.Close()
}

// Kinds returns the kind of each configured signal, by name.
func (s *Set) Kinds() map[string]string {
	out := make(map[string]string, len(s.list))
	for _, ex := range s.list {
		out[ex.name] = ex.kind
	}
	return out
}
