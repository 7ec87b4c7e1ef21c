package provider

import (
	"errors"
	"fmt"
	"strings"

	"github.com/semantic-router/semantic-router/internal/openai"
)

// Refusal is a request that a provider translating to another protocol (Bedrock Converse,
// Vertex Gemini) can tell its service would reject. The provider returns it to the client
// as a 400 (see Refused) instead of sending it. Every refusal matches ErrRefused.
type Refusal struct {
	Msg string
	// Param is the request field refused, when it is one the service cannot take.
	Param string
	// At is the path of the refused value in the request (such as messages[0].content[1]),
	// when it is known and Param is not set.
	At string
}

func (e *Refusal) Error() string { return e.Msg }

// Unwrap makes every refusal match ErrRefused, and a refused field ErrUnsupportedField.
func (e *Refusal) Unwrap() []error {
	if e.Param != "" {
		return []error{ErrRefused, ErrUnsupportedField}
	}
	return []error{ErrRefused}
}

// Refusef returns a *Refusal with a formatted message.
func Refusef(format string, args ...any) error {
	return &Refusal{Msg: fmt.Sprintf(format, args...)}
}

// RefuseAt returns a *Refusal of the value at path, with a formatted message.
func RefuseAt(path, format string, args ...any) error {
	return &Refusal{Msg: fmt.Sprintf(format, args...), At: path}
}

// Within places a refusal found inside the request element at path (such as
// "messages[2]"): its message and At are prefixed with path. Other errors are wrapped
// with the same prefix.
func Within(path string, err error) error {
	var r *Refusal
	if !errors.As(err, &r) {
		return fmt.Errorf("%s: %w", path, err)
	}
	at := path
	if r.At != "" {
		at += "." + r.At
	}
	return &Refusal{Msg: path + ": " + r.Msg, Param: r.Param, At: at}
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
				return nil, Within(fmt.Sprintf("content[%d]", j), err)
			}
			blocks = append(blocks, b)
		default:
			return nil, &Refusal{Msg: fmt.Sprintf("content[%d]: %s does not take %q parts", j, service, p.Type), At: fmt.Sprintf("content[%d]", j)}
		}
	}
	return blocks, nil
}

// ToolResultText returns a tool message's text: the text, or its text parts joined as they
// are. The client split the result where it chose (a JSON document may be cut anywhere), so
// nothing is put between the parts; other parts carry no text and are left out, as
// openai.Content.String leaves them out.
func ToolResultText(c openai.Content) string {
	if !c.IsParts {
		return c.Text
	}
	var sb strings.Builder
	for _, p := range c.Parts {
		if p.Type == "text" {
			sb.WriteString(p.Text)
		}
	}
	return sb.String()
}
