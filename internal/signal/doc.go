// Package signal holds the request signal extractors. Each is a plain type
// built by a constructor from its options (which reports every bad option at
// once), does no I/O of its own, and is safe for concurrent use once built:
//
//   - PIIDetector: email, phone, credit_card, ssn, iban, ip_address,
//     api_key (patterns plus validators), person_name and street_address
//     (heuristics); findings with byte offsets and masking.
//   - JailbreakDetector: instruction overrides, unrestricted personas,
//     system-prompt extraction, false authority, fictional wrappers around
//     harmful requests and encoded payloads, in English, Spanish, French,
//     German, Italian, Portuguese, Russian, Chinese, Japanese and Korean,
//     plus optional similarity to known attacks; a score in [0, 1].
//   - DomainClassifier: the 14 MMLU-Pro categories from shipped example
//     prompts (domains.txt), extendable or replaceable by the user's own,
//     fitted at construction; label, confidence and top-k scores.
//   - KeywordMatcher, RegexMatcher, SimilarityMatcher ("embedding"),
//     ComplexityScorer, LanguageDetector and ContextLength.
//
// The similarity-based extractors take an embed.Embedder. Construction
// embeds their examples once; per request they embed the prompt, or take a
// vector the caller already computed (ClassifyVector, DetectVector,
// MatchVector) so that one embedding serves every signal.
//
// Set wires them from the configuration (config.Signals): NewSet builds one
// extractor per configured signal, sharing the embedder and the expensive
// detectors, and Set.Evaluate computes the signals a request needs (read
// from the request by InputFromChat) one after the other on the caller's
// goroutine, sharing one analysis of each text they read (its lower-cased
// form, word view, cues and words) and embedding those texts in one call,
// concurrently with the other signals only for a remote embedder. When the
// embedder fails, the signals that need a vector
// come back failed, so that the policies reading them take their on_error.
//
// Accuracy on the shipped held-out sets is checked by TestTargets; run it
// with SEMANTIC_ROUTER_DEV_SET pointing at a labelled JSONL file to score
// another set.
package signal
