// Package examples holds the example router configurations. Demo is the configuration the
// router runs when started without -config.
package examples

import _ "embed"

// Demo is examples/demo.yaml.
//
//go:embed demo.yaml
var Demo []byte
