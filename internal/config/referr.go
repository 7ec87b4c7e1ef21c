package config

import (
	"errors"
	"fmt"
)

// RefError is a secret reference that could not be read when the router was built: Path is
// its field (models[2].provider.api_key), Ref the reference, never its value.
type RefError struct {
	Path string
	Ref  SecretRef
	Err  error
}

func (e *RefError) Error() string { return fmt.Sprintf("%s %s: %v", e.Path, e.Ref, e.Err) }

func (e *RefError) Unwrap() error { return e.Err }

// AsProblems returns errs with each *RefError among them (joined ones too) made a Problem of
// c, at its field's line, gathered into one Problems placed first; the other errors follow
// as they are. Nil when errs holds no error.
func (c *Config) AsProblems(errs ...error) error {
	var problems Problems
	var rest []error
	for _, err := range leaves(errs) {
		var re *RefError
		if errors.As(err, &re) {
			problems = append(problems, Problem{Path: re.Path, Line: lineOf(c.lines, re.Path), Message: fmt.Sprintf("%s: %v", re.Ref, re.Err)})
			continue
		}
		rest = append(rest, err)
	}
	if len(problems) > 0 {
		rest = append([]error{problems}, rest...)
	}
	return errors.Join(rest...)
}

// leaves returns the errors errs join, joined ones opened.
func leaves(errs []error) []error {
	var out []error
	for _, err := range errs {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			out = append(out, leaves(j.Unwrap())...)
		} else if err != nil {
			out = append(out, err)
		}
	}
	return out
}
