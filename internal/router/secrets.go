package router

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/semantic-router/semantic-router/internal/config"
	"github.com/semantic-router/semantic-router/internal/redact"
	"github.com/semantic-router/semantic-router/internal/secret"
)

// redaction keeps the redactor's set current with every credential value the configuration
// references: backend keys, cloud credentials, client keys, management tokens, whatever
// section they are in. It reads them through a store of its own, which logs and counts
// nothing (the stores that use the values do), and replaces the set on every rotation.
type redaction struct {
	set   *redact.Set
	store *secret.Store

	mu      sync.Mutex
	sources []*secret.Source
	retired []string // values replaced by a rotation: still secrets, perhaps still valid
}

// maxRetired bounds the rotated-out values kept for redaction.
const maxRetired = 64

func newRedaction(cfg *config.Config, red *redact.Redactor, lookupEnv func(string) (string, bool)) *redaction {
	rd := &redaction{set: red.NewSet()}
	rd.store = secret.NewStore(secret.Options{LookupEnv: lookupEnv, OnRotate: func(string) { rd.refresh() }})
	for _, ref := range secretRefs(cfg) {
		// A reference that cannot be read fails where it is used, with the field named.
		if src, err := rd.store.Open(string(ref)); err == nil {
			rd.mu.Lock()
			rd.sources = append(rd.sources, src)
			rd.mu.Unlock()
		}
	}
	rd.refresh()
	return rd
}

// refresh publishes the current values, and keeps those a rotation replaced.
func (rd *redaction) refresh() {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	values := append([]string(nil), rd.retired...)
	for _, src := range rd.sources {
		if v, err := src.Value(); err == nil {
			values = append(values, derived(v)...)
		}
	}
	// Every value seen so far stays redacted: the old key of a rotation may still work.
	rd.retired = retain(values, maxRetired)
	forms := values
	for _, v := range values {
		forms = append(forms, encoded(v)...)
	}
	rd.set.Replace(forms)
}

// encoded returns the forms in which an upstream that echoes v (or a header holding it) may
// send it encoded, which a client decodes at once: hex in either case, and base64 in both
// alphabets, whole (padded or not) and at each of the three byte offsets at which v may
// start inside a longer encoded text ("Bearer sk-..."), cut to the characters that depend on
// v's bytes alone.
func encoded(v string) []string {
	if len(v) < redact.MinLength {
		return nil // not redacted either
	}
	h := hex.EncodeToString([]byte(v))
	out := []string{h, strings.ToUpper(h)}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		out = append(out, enc.EncodeToString([]byte(v)), enc.WithPadding(base64.NoPadding).EncodeToString([]byte(v)))
		for k := range 3 {
			s := enc.EncodeToString(append(make([]byte, k), v...))
			out = append(out, s[(8*k+5)/6:8*(k+len(v))/6])
		}
	}
	return out
}

func (rd *redaction) close() error {
	rd.set.Close()
	return rd.store.Close()
}

// retain returns the last n distinct values.
func retain(values []string, n int) []string {
	seen := map[string]bool{}
	var out []string
	for i := len(values) - 1; i >= 0 && len(out) < n; i-- {
		if v := values[i]; !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// derived returns v and the forms of it that may also leak: its lines (a multi-line value
// is logged line by line as often as whole), and for a base64 service-account key the
// private key and its id inside.
func derived(v string) []string {
	v = strings.TrimSpace(v)
	out := []string{v}
	if dec, err := base64.StdEncoding.DecodeString(v); err == nil {
		var sa struct {
			PrivateKey   string `json:"private_key"`
			PrivateKeyID string `json:"private_key_id"`
		}
		if json.Unmarshal(dec, &sa) == nil && sa.PrivateKey != "" {
			out = append(out, sa.PrivateKeyID)
			v = sa.PrivateKey
		}
	}
	if strings.Contains(v, "\n") {
		for _, line := range strings.Split(v, "\n") {
			if line = strings.TrimSpace(line); !strings.HasPrefix(line, "-----") {
				out = append(out, line)
			}
		}
	}
	return out
}

var secretRefType = reflect.TypeFor[config.SecretRef]()

// secretRefs returns every credential reference in cfg, found by type so that a section
// added later is covered too. CA bundles (ca_cert_pem) are public and left out.
func secretRefs(cfg *config.Config) []config.SecretRef {
	var out []config.SecretRef
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				walk(v.MapIndex(k))
			}
		case reflect.Struct:
			t := v.Type()
			for i := range t.NumField() {
				f := t.Field(i)
				if !f.IsExported() || strings.HasPrefix(f.Tag.Get("yaml"), "ca_cert_pem") {
					continue
				}
				if f.Type == secretRefType {
					if ref := v.Field(i).Interface().(config.SecretRef); !ref.IsZero() {
						out = append(out, ref)
					}
					continue
				}
				walk(v.Field(i))
			}
		}
	}
	walk(reflect.ValueOf(cfg))
	return out
}
