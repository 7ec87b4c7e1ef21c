package provider

import (
	"errors"
	"fmt"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// Refusal is a request that a provider translating to another protocol (Bedrock Converse,
// Vertex Gemini) can tell its service would reject. The provider returns it to the client
// as a 400 (see Refused) instead of sending it.
type Refusal struct {
	Msg string
	// Param is the request field refused, when it is one the service cannot take.
	Param string
}

func (e *Refusal) Error() string { return e.Msg }

// Unwrap makes a refused field match ErrUnsupportedField.
func (e *Refusal) Unwrap() error {
	if e.Param != "" {
		return ErrUnsupportedField
	}
	return nil
}

// Refusef returns a *Refusal with a formatted message.
func Refusef(format string, args ...any) error {
	return &Refusal{Msg: fmt.Sprintf(format, args...)}
}

// Unsupported refuses a request field the service has no equivalent for.
func Unsupported(field, why string) error {
	return &Refusal{Msg: fmt.Sprintf("%s: %s", field, why), Param: field}
}

// Refused turns the error of translating a request for service into the *Error a
// provider returns: a *Refusal is the client's bad request, anything else the router's.
func Refused(model, service string, err error) *Error {
	var r *Refusal
	if errors.As(err, &r) {
		return &Error{Kind: KindBadRequest, Model: model, Param: r.Param,
			Message: "the request cannot be sent to " + service + ": " + err.Error(), Err: err}
	}
	return &Error{Kind: KindInternal, Model: model, Message: "translating the request", Err: err}
}

// ContentBlocks turns a message's content into a service's blocks: the text (or each text
// part; empty ones are left out) through text, each image_url part through image. Any other
// part type is refused, with the service's name.
func ContentBlocks[B any](c openai.Content, service string, text func(string) B, image func(openai.ContentPart) (B, error)) ([]B, error) {
	if !c.IsParts {
		if c.Text == "" {
			return nil, nil
		}
		return []B{text(c.Text)}, nil
	}
	var blocks []B
	for j, p := range c.Parts {
		switch p.Type {
		case "text":
			if p.Text != "" {
				blocks = append(blocks, text(p.Text))
			}
		case "image_url":
			b, err := image(p)
			if err != nil {
				return nil, fmt.Errorf("content[%d]: %w", j, err)
			}
			blocks = append(blocks, b)
		default:
			return nil, Refusef("content[%d]: %s does not take %q parts", j, service, p.Type)
		}
	}
	return blocks, nil
}
