// Package testtool finds what a test needs beside Go: programs such as redis-server, promtool
// or kubectl, libraries, binaries built once. Without one the test is skipped on a developer's
// machine and fails under CI=true, where a missing tool is a broken set-up, not a reason to
// test less: .ci/run installs each of them.
package testtool

import (
	"os"
	"os/exec"
	"testing"
)

// Missing skips the test, or fails it under CI=true, saying what is missing and, where it
// helps, how to get it.
func Missing(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(what)
		return // for a testing.TB whose Fatal returns
	}
	t.Skip(what + " (under CI=true this fails)")
}

// Require is Missing when err, the reason something was not found, is not nil.
func Require(t testing.TB, what string, err error) {
	t.Helper()
	if err != nil {
		Missing(t, what+": "+err.Error())
	}
}

// Path returns the path of the program name on PATH, as Require would have the test go on
// without it; install says how to get it ("apt-get install -y redis-server").
func Path(t testing.TB, name, install string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	Require(t, name+" is not on PATH (install it: "+install+")", err)
	return path
}
