package signal

// tailWindow is the start of s that an anchored pattern over "what follows a word" needs to
// see: at least n bytes, extended to the end of the word there, so that a \b at the window's
// end means what it means in s. Go's backtracking matcher clears memory in proportion to its
// input, so matching the whole rest of a long prompt for every candidate word cost time in
// proportion to the prompt's length squared.
func tailWindow(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i < len(s) && (isREWordByte(s[i]) || s[i] >= 0x80) {
		i++
	}
	return s[:i]
}

// tailBytes is the window that the anchored tail patterns of names and addresses are matched
// in: their longest match, with generous spacing, is well under it.
const tailBytes = 96
