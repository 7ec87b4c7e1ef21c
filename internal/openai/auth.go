package openai

import "strings"

// BearerToken returns the token of an "Authorization: Bearer <token>" header value, or ""
// when the value is not one. The scheme is case-insensitive (RFC 9110); the token is one run
// of visible ASCII characters with no spaces, so stray whitespace cannot smuggle a second
// value in.
func BearerToken(header string) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	token = strings.TrimLeft(token, " ")
	if token == "" || len(token) > 4096 {
		return ""
	}
	for i := range len(token) {
		if c := token[i]; c < 0x21 || c > 0x7e {
			return ""
		}
	}
	return token
}
