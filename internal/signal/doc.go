// Package signal holds the request signal extractors: PII, jailbreak,
// domain, keyword, regex, embedding similarity, complexity, language and
// context length. Each is a plain type built by a constructor from its
// options, does no I/O of its own (similarity-based ones call an
// embed.Embedder), and is safe for concurrent use once built.
package signal
