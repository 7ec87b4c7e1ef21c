package openai

import (
	"encoding/json"
	"errors"
	"strings"
)

// ImageURL returns the url of an image_url content part: a web address or a data: URL.
func (p ContentPart) ImageURL() (string, error) {
	var part struct {
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if err := json.Unmarshal(p.Raw, &part); err != nil || part.ImageURL.URL == "" {
		return "", errors.New("image_url part has no url")
	}
	return part.ImageURL.URL, nil
}

// DataURL splits a base64 data URL, "data:<media type>;base64,<data>", into its media type and
// its still-encoded data. ok is false for anything else, a web address included.
func DataURL(u string) (mediaType, data string, ok bool) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return "", "", false
	}
	meta, data, ok := strings.Cut(rest, ",")
	if !ok {
		return "", "", false
	}
	mediaType, ok = strings.CutSuffix(meta, ";base64")
	return mediaType, data, ok && mediaType != ""
}
