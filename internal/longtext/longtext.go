// Package longtext helps read long texts that grow at their end, an agent's conversation
// turn after turn, once: where to cut them into blocks that keep their place as text is
// added (Cuts), and a bounded memo of what was made of each block or text (Memo).
package longtext

// Cuts returns where text's blocks of about every bytes end: past each multiple of every
// below len(text), the first byte that follows a space, a tab or a line break (IsSpace)
// within reach bytes, if one is there before the end of text. A cut is found from the text
// around it alone, so text added at the end leaves the earlier cuts, and the blocks before
// them, as they were; it never falls inside a word. Where no space is near (a long token,
// minified JSON) there is no cut, and the block runs on. A text up to twice every has none:
// it is read whole.
func Cuts(text string, every, reach int) []int {
	if len(text) <= 2*every {
		return nil
	}
	var cuts []int
	for p := every; p < len(text); p += every {
		for q := p; q < len(text) && q < p+reach; q++ {
			if IsSpace(text[q-1]) {
				if len(cuts) == 0 || q > cuts[len(cuts)-1] {
					cuts = append(cuts, q)
				}
				break
			}
		}
	}
	return cuts
}

// IsSpace reports whether c is a space, a tab or a line break: what separates words.
func IsSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
