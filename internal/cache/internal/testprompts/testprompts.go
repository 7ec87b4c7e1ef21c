// Package testprompts generates distinct, realistic chat prompts
// deterministically, for the cache's recall tests and benchmarks.
package testprompts

import "fmt"

var (
	openers = []string{
		"how do I", "what is the best way to", "can you explain how to", "show me how to",
		"why is it hard to", "help me", "is it possible to", "what happens when I",
		"write a script to", "give me tips to", "walk me through how to", "what tools do I need to",
	}
	verbs = []string{
		"configure", "debug", "optimize", "install", "deploy", "test", "monitor", "secure",
		"migrate", "back up", "scale", "document", "refactor", "profile", "upgrade", "benchmark",
		"package", "translate", "compress", "encrypt", "clean", "repair", "audit", "automate",
	}
	objects = []string{
		"a postgres database", "a kubernetes cluster", "a react app", "a python web server",
		"an nginx proxy", "a redis cache", "a rust library", "a go microservice", "a linux laptop",
		"a home router", "a wordpress blog", "a kafka topic", "a mobile game", "an excel spreadsheet",
		"a machine learning model", "a photo library", "a bank statement", "a wedding budget",
		"a vegetable garden", "a bicycle", "a resume", "a small bakery website", "a podcast feed",
		"a java service", "a mysql replica", "an android phone", "a shared google drive",
		"a payroll system", "a data pipeline", "a chess engine", "a music playlist",
		"an email newsletter", "a solar panel setup", "a fish tank", "a csv export",
		"a docker image", "a terraform module", "a graphql api", "a static site", "a neural network",
	}
	qualifiers = []string{
		"on windows", "in production", "for beginners", "with docker", "without downtime",
		"on a budget", "quickly", "step by step", "using terraform", "for a small team",
		"at scale", "in the cloud", "on a raspberry pi", "before the weekend", "for my students",
		"safely", "with open source tools", "on macos", "for a school project", "from the command line",
		"in under an hour", "for an audit", "while traveling", "after a power outage",
	}
)

// Total is how many distinct prompts the generator can make.
var Total = len(openers) * len(verbs) * len(objects) * len(qualifiers)

// step is coprime with Total, so i*step mod Total visits every prompt once.
const step = 7919

// Prompt returns the i-th prompt of a fixed permutation; prompts 0..Total-1
// are distinct.
func Prompt(i int) string {
	j := (i * step) % Total
	q := qualifiers[j%len(qualifiers)]
	j /= len(qualifiers)
	o := objects[j%len(objects)]
	j /= len(objects)
	v := verbs[j%len(verbs)]
	j /= len(verbs)
	return fmt.Sprintf("%s %s %s %s?", openers[j%len(openers)], v, o, q)
}

// Prompts returns prompts from..from+n-1.
func Prompts(from, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = Prompt(from + i)
	}
	return out
}
