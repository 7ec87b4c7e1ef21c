package signal

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// LanguageOptions configure a LanguageDetector. Match lists the language
// codes (ISO 639-1) for which LanguageResult.Matched is true; empty
// matches any detected language.
type LanguageOptions struct {
	Match []string
}

// LanguageResult is the detected language ("und" when undetermined), a
// confidence in [0, 1], and whether it is one of the configured codes.
type LanguageResult struct {
	Code       string
	Confidence float64
	Matched    bool
}

// LanguageDetector tells the language of a prompt from its script and, for
// Latin script, from function words and diacritics. It knows en, es, fr,
// de, it, pt, nl by words and ru, uk, zh, ja, ko, ar, he, el, hi, th by
// script. It is safe for concurrent use.
type LanguageDetector struct {
	match map[string]bool
}

// NewLanguageDetector validates the options.
func NewLanguageDetector(opts LanguageOptions) (*LanguageDetector, error) {
	warmTables()
	d := &LanguageDetector{match: map[string]bool{}}
	for i, c := range opts.Match {
		if !knownLanguages[c] {
			return nil, fmt.Errorf("language: match[%d] %q: unknown language code", i, c)
		}
		d.match[c] = true
	}
	return d, nil
}

var knownLanguages = map[string]bool{"en": true, "es": true, "fr": true, "de": true, "it": true, "pt": true, "nl": true,
	"ru": true, "uk": true, "zh": true, "ja": true, "ko": true, "ar": true, "he": true, "el": true, "hi": true, "th": true}

// stopwords are frequent function words, chosen to separate the Latin-
// script languages; a word in several lists counts for each.
var stopwords = map[string][]string{
	"en": strings.Fields("the and is are of to in that it for you with on this what how why can do does be have was not my i your an as at by from or which"),
	"es": strings.Fields("el la los las de que y en un una es por para con no se del al lo como más pero su sus mi qué cómo por qué está son hay muy"),
	"fr": strings.Fields("le la les de des du et est un une que qui dans pour pas sur au aux avec ce cette il elle je vous nous mon ma mes comment pourquoi est-ce sont très"),
	"de": strings.Fields("der die das und ist nicht ein eine zu den von mit sich des auf für im dem wie was warum ich du sie es wir kann ist sind auch oder aber mein meine"),
	"it": strings.Fields("il lo la gli le di che e un una per non sono con del della come perché cosa mi ti è ho questo questa anche più ma nel alla"),
	"pt": strings.Fields("o a os as de que e do da em um uma para com não é por se na no mais como mas ao dos das meu minha você por que qual são está"),
	"nl": strings.Fields("de het een en van is dat in op te voor met niet zijn ik je wat hoe waarom er ook maar bij"),
}

// greetings are words that make up short messages with no function word: greetings,
// thanks, yes and no. "Hola" alone is Spanish, not English.
var greetings = map[string][]string{
	"en": strings.Fields("hello hi hey thanks thank please yes no bye goodbye morning evening okay ok cheers"),
	"es": strings.Fields("hola gracias buenos buenas días noches tardes adiós sí vale chao perdón"),
	"fr": strings.Fields("bonjour bonsoir salut merci oui non revoir pardon s'il plaît coucou"),
	"de": strings.Fields("hallo danke bitte guten tag morgen abend tschüss ja nein moin servus entschuldigung"),
	"it": strings.Fields("ciao grazie buongiorno buonasera prego arrivederci sì scusa"),
	"pt": strings.Fields("olá oi obrigado obrigada bom boa tchau sim desculpe"),
	"nl": strings.Fields("hoi hallo dank bedankt goedemorgen goedenavond doei dag ja nee alsjeblieft"),
}

var stopwordIndex = func() map[string][]string {
	idx := map[string][]string{}
	add := func(lang string, ws []string) {
		for _, w := range ws {
			idx[w] = append(idx[w], lang)
		}
		// Each word also with its accents folded, as Normalize writes it ("más" reads
		// "mas"), unless the language lists that spelling too ("é" and "e" in Portuguese).
		for _, w := range ws {
			if f := foldAccents(w); f != w && !slices.Contains(ws, f) && !slices.Contains(idx[f], lang) {
				idx[f] = append(idx[f], lang)
			}
		}
	}
	for lang, ws := range greetings {
		add(lang, ws)
	}
	for lang, ws := range stopwords {
		add(lang, ws)
	}
	return idx
}()

// Detect returns the language of text.
func (d *LanguageDetector) Detect(text string) LanguageResult {
	return d.detect(newAnalysis(text))
}

// detect is Detect on a request's shared analysis of the text.
func (d *LanguageDetector) detect(a *analysis) LanguageResult {
	res := detectLanguageOf(a)
	res.Matched = res.Code != "und" && (len(d.match) == 0 || d.match[res.Code])
	return res
}

func detectLanguage(text string) LanguageResult { return detectLanguageOf(newAnalysis(text)) }

func detectLanguageOf(a *analysis) LanguageResult {
	text := a.text
	var letters, latin, han, kana, hangul, cyr, arabic, hebrew, greek, deva, thai int
	ukr := 0
	for _, r := range text {
		if r < 0x80 { // ASCII: most text, and Latin when a letter
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				letters++
				latin++
			}
			continue
		}
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		switch {
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r):
			kana++
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
			if strings.ContainsRune("іїєґІЇЄҐ", r) {
				ukr++
			}
		case unicode.Is(unicode.Arabic, r):
			arabic++
		case unicode.Is(unicode.Hebrew, r):
			hebrew++
		case unicode.Is(unicode.Greek, r):
			greek++
		case unicode.Is(unicode.Devanagari, r):
			deva++
		case unicode.Is(unicode.Thai, r):
			thai++
		case unicode.Is(unicode.Latin, r):
			latin++
		}
	}
	if letters == 0 {
		return LanguageResult{Code: "und"}
	}
	share := func(n int) float64 { return float64(n) / float64(letters) }
	// Japanese mixes kanji with kana; any real share of kana means ja.
	switch {
	case kana > 0 && share(kana+han) >= 0.3:
		return LanguageResult{Code: "ja", Confidence: share(kana + han)}
	case share(hangul) >= 0.3:
		return LanguageResult{Code: "ko", Confidence: share(hangul)}
	case share(han) >= 0.3:
		return LanguageResult{Code: "zh", Confidence: share(han)}
	case share(cyr) >= 0.5:
		if ukr > 0 {
			return LanguageResult{Code: "uk", Confidence: share(cyr)}
		}
		return LanguageResult{Code: "ru", Confidence: share(cyr)}
	case share(arabic) >= 0.5:
		return LanguageResult{Code: "ar", Confidence: share(arabic)}
	case share(hebrew) >= 0.5:
		return LanguageResult{Code: "he", Confidence: share(hebrew)}
	case share(greek) >= 0.5:
		return LanguageResult{Code: "el", Confidence: share(greek)}
	case share(deva) >= 0.5:
		return LanguageResult{Code: "hi", Confidence: share(deva)}
	case share(thai) >= 0.5:
		return LanguageResult{Code: "th", Confidence: share(thai)}
	case share(latin) < 0.5:
		return LanguageResult{Code: "und"}
	}
	return detectLatin(a.lowerText())
}

// latinLanguages are the languages detectLatin tells apart by words, in code order (the
// order that breaks ties).
var latinLanguages = [...]string{"de", "en", "es", "fr", "it", "nl", "pt"}

// latinIndex maps each word of stopwordIndex to its languages' indices in latinLanguages, a
// language as often as the word is listed for it.
var latinIndex = func() map[string][]uint8 {
	out := make(map[string][]uint8, len(stopwordIndex))
	for w, langs := range stopwordIndex {
		for _, l := range langs {
			i := slices.Index(latinLanguages[:], l)
			if i < 0 {
				panic("signal: stop words of unknown language " + l)
			}
			out[w] = append(out[w], uint8(i))
		}
	}
	return out
}()

// latinHints are letters that only some of the languages use.
var latinHints = [...]struct {
	chars string
	lang  int // index in latinLanguages
}{{"ñ¿¡", 2}, {"ãõ", 6}, {"ß", 0}, {"äöü", 0}, {"çœ", 3}, {"êâîôûëïè", 3}, {"ìò", 4}, {"ĳ", 5}}

// detectLatin scores Latin-script text (lower-cased) by function words, with
// language-specific letters as tie-breakers.
func detectLatin(lower string) LanguageResult {
	var scores [len(latinLanguages)]float64
	for w := range strings.FieldsFuncSeq(lower, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '-' }) {
		for _, l := range latinIndex[w] {
			scores[l]++
		}
	}
	// Every hint letter is non-ASCII: most prompts have none, and skip the search.
	if hasNonASCII(lower) {
		for _, h := range latinHints {
			if strings.ContainsAny(lower, h.chars) {
				scores[h.lang] += 1.5
			}
		}
		if strings.Contains(lower, "ç") && strings.ContainsAny(lower, "ãõ") {
			scores[6]++
		}
	}
	// Every score is a sum of ones and halves, so the total is exact in any order.
	// The first of the highest wins: ties go to the smaller code.
	best, bestScore, total := "", 0.0, 0.0
	for i, s := range scores {
		total += s
		if s > bestScore {
			best, bestScore = latinLanguages[i], s
		}
	}
	if best == "" {
		// No known word at all (code, names, "asdf"): saying English would be a guess.
		return LanguageResult{Code: "und"}
	}
	return LanguageResult{Code: best, Confidence: bestScore / total}
}
