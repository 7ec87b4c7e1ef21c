package signal

import (
	"maps"
	"strings"
	"unicode"
)

// The look-alike tables follow Unicode's confusables data (UTS #39, confusables.txt): the
// letters of other scripts that it maps to a single ASCII letter and that are drawn like it
// in common fonts. Letters that merely resemble one (Cyrillic и, л, Greek λ, Armenian ա)
// stay, so folding never turns real text into different Latin words. The turkish dotless ı
// is left out on purpose: it is a letter of Turkish words and names (the person_name lists
// hold hundreds), which folding would change.

// latinLookalike maps the Latin letters drawn like a plain one (small capitals, IPA letters
// and a few others) to it. No language writes its words with them, so they are folded
// wherever they are.
var latinLookalike = map[rune]rune{
	// small capitals
	'ᴀ': 'a', 'ʙ': 'b', 'ᴄ': 'c', 'ᴅ': 'd', 'ᴇ': 'e', 'ꜰ': 'f', 'ɢ': 'g', 'ʜ': 'h', 'ɪ': 'i', 'ᴊ': 'j',
	'ᴋ': 'k', 'ʟ': 'l', 'ᴍ': 'm', 'ɴ': 'n', 'ᴏ': 'o', 'ᴘ': 'p', 'ꞯ': 'q', 'ʀ': 'r', 'ꜱ': 's', 'ᴛ': 't',
	'ᴜ': 'u', 'ᴠ': 'v', 'ᴡ': 'w', 'ʏ': 'y', 'ᴢ': 'z',
	// IPA and other Latin letters
	'ɑ': 'a', 'ɡ': 'g', 'ɩ': 'i', 'ȷ': 'j', 'ĸ': 'k', 'ǀ': 'l', 'ʋ': 'u', 'ᴑ': 'o',
}

// confusable maps the letters of other scripts that are drawn like a Latin letter to it.
// They are folded only as Normalize says: inside Latin words, or between them.
var confusable = func() map[rune]rune {
	m := map[rune]rune{
		// Cyrillic lower case
		'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j',
		'ѕ': 's', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'ӏ': 'l', 'ү': 'y', 'ѵ': 'v',
		// Cyrillic upper case
		'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T',
		'Х': 'X', 'У': 'Y', 'І': 'I', 'Ј': 'J', 'Ѕ': 'S', 'Ԁ': 'D', 'Ԛ': 'Q', 'Ԝ': 'W', 'Һ': 'H', 'Ӏ': 'I',
		'Ѵ': 'V',
		// Greek
		'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
		'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'ο': 'o', 'ν': 'v', 'ι': 'i', 'κ': 'k', 'ρ': 'p', 'υ': 'u',
		'α': 'a', 'ϳ': 'j', 'Ϳ': 'J',
		// Armenian
		'օ': 'o', 'ս': 'u', 'ց': 'g', 'հ': 'h', 'ո': 'n', 'ռ': 'n', 'զ': 'q', 'գ': 'q', 'ք': 'f', 'յ': 'j',
		'Օ': 'O', 'Ս': 'S', 'Լ': 'L',
		// Cherokee (upper case; the lower-case letters are added below)
		'Ꭰ': 'D', 'Ꭱ': 'R', 'Ꭲ': 'T', 'Ꭵ': 'i', 'Ꭹ': 'y', 'Ꭺ': 'A', 'Ꭻ': 'J', 'Ꭼ': 'E', 'Ꮃ': 'W', 'Ꮇ': 'M',
		'Ꮋ': 'H', 'Ꮐ': 'G', 'Ꮓ': 'Z', 'Ꮢ': 'R', 'Ꮤ': 'W', 'Ꮪ': 'S', 'Ꮩ': 'V', 'Ꮮ': 'L', 'Ꮯ': 'C', 'Ꮲ': 'P',
		'Ꮶ': 'K', 'Ᏼ': 'B',
		// Lisu
		'ꓐ': 'B', 'ꓑ': 'P', 'ꓒ': 'd', 'ꓓ': 'D', 'ꓔ': 'T', 'ꓖ': 'G', 'ꓗ': 'K', 'ꓙ': 'J', 'ꓚ': 'C', 'ꓜ': 'Z',
		'ꓝ': 'F', 'ꓟ': 'M', 'ꓠ': 'N', 'ꓡ': 'L', 'ꓢ': 'S', 'ꓣ': 'R', 'ꓦ': 'V', 'ꓧ': 'H', 'ꓪ': 'W', 'ꓫ': 'X',
		'ꓬ': 'Y', 'ꓮ': 'A', 'ꓰ': 'E', 'ꓲ': 'I', 'ꓳ': 'O', 'ꓴ': 'U',
	}
	// Cherokee's lower-case letters are small capitals of the upper-case ones.
	lower := map[rune]rune{}
	for r, l := range m {
		if unicode.Is(unicode.Cherokee, r) {
			lower[unicode.ToLower(r)] = unicode.ToLower(l)
		}
	}
	maps.Copy(m, lower)
	return m
}()

// hasLookalike reports whether s may hold a letter of latinLookalike or confusable, by the
// first two bytes of their UTF-8 forms: ĸ, ǀ, ȷ, IPA (0xC9, 0xCA), Greek, Cyrillic and
// Armenian (0xCD-0xD6), Cherokee (0xE1 0x8E-0x8F), small capitals (0xE1 0xB4, 0xEA 0x9C,
// 0xEA 0x9E), Lisu (0xEA 0x93) and Cherokee lower case (0xEA 0xAD-0xAE). Accented Latin
// (Polish, Czech, Vietnamese) and the scripts of Asia take the fast way.
func hasLookalike(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] < 0xc4 {
			continue
		}
		switch c, d := s[i], s[i+1]; {
		case c >= 0xc9 && c <= 0xca, c >= 0xcd && c <= 0xd6,
			c == 0xc4 && d == 0xb8, c == 0xc7 && d == 0x80, c == 0xc8 && d == 0xb7,
			c == 0xe1 && (d == 0x8e || d == 0x8f || d == 0xb4),
			c == 0xea && (d == 0x93 || d == 0x9c || d == 0x9e || d == 0xad || d == 0xae):
			return true
		}
	}
	return false
}

// foldLatinLookalikes replaces the letters of latinLookalike; s itself when it has none.
func foldLatinLookalikes(s string) string {
	if !hasLatinLookalike(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if l, ok := latinLookalike[r]; ok {
			return l
		}
		return r
	}, s)
}

// hasLatinLookalike reports whether s may hold a letter of latinLookalike, by the first two
// bytes of their UTF-8 forms (see hasLookalike).
func hasLatinLookalike(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] < 0xc4 {
			continue
		}
		switch c, d := s[i], s[i+1]; {
		case c >= 0xc9 && c <= 0xca, c == 0xc4 && d == 0xb8, c == 0xc7 && d == 0x80, c == 0xc8 && d == 0xb7,
			c == 0xe1 && d == 0xb4, c == 0xea && (d == 0x9c || d == 0x9e):
			return true
		}
	}
	return false
}
