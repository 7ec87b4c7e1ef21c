package signal

import (
	"regexp"
	"sync"
	"sync/atomic"
)

// The package's shipped tables (some hundred and thirty regular expressions, the jailbreak
// rules' start and literal indexes, the lexicons) are built on first use rather than when
// the program starts: building them takes about 60 ms of CPU and allocates 15 MB, which a
// router whose configuration has no signals, or a command such as -validate, would pay for
// nothing. A Set with signals, and each detector, build them all when they are constructed
// (warmTables), so that no request waits for them.

// warmers build each lazy table; package initialisation appends to it, warmTables reads it.
var warmers []func()

var warmOnce sync.Once

// warmTables builds every lazy table of the package, once.
func warmTables() {
	warmOnce.Do(func() {
		for _, w := range warmers {
			w()
		}
	})
}

// table returns build's value, computed on the first call (or by warmTables).
func table[T any](build func() T) func() T {
	get := sync.OnceValue(build)
	warmers = append(warmers, func() { get() })
	return get
}

// lazyRegexp is a shipped regular expression, compiled on first use. Its methods are those
// of regexp.Regexp that the package calls.
type lazyRegexp struct {
	compile func() *regexp.Regexp
	rx      atomic.Pointer[regexp.Regexp]
}

// lazyRE is regexp.MustCompile(expr), compiled on first use.
func lazyRE(expr string) *lazyRegexp {
	return newLazyRegexp(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// lazyFoldedRE is mustCompileFolded(expr), compiled on first use.
func lazyFoldedRE(expr string) *lazyRegexp {
	return newLazyRegexp(func() *regexp.Regexp { return mustCompileFolded(expr) })
}

// lazyWrappedRE is regexp.MustCompile(before + from.String() + after), compiled on first
// use: from, as compiled, wrapped (anchored, say).
func lazyWrappedRE(before string, from *lazyRegexp, after string) *lazyRegexp {
	return newLazyRegexp(func() *regexp.Regexp { return regexp.MustCompile(before + from.String() + after) })
}

func newLazyRegexp(compile func() *regexp.Regexp) *lazyRegexp {
	l := &lazyRegexp{compile: compile}
	warmers = append(warmers, func() { l.re() })
	return l
}

// re returns the compiled expression. Two goroutines that find it not compiled yet may
// both compile it; the first one stored is kept, and both results are the same program.
func (l *lazyRegexp) re() *regexp.Regexp {
	if rx := l.rx.Load(); rx != nil {
		return rx
	}
	return l.compileOnce()
}

// compileOnce is re's first call, apart so that re is inlined.
func (l *lazyRegexp) compileOnce() *regexp.Regexp {
	l.rx.CompareAndSwap(nil, l.compile())
	return l.rx.Load()
}

func (l *lazyRegexp) String() string             { return l.re().String() }
func (l *lazyRegexp) MatchString(s string) bool  { return l.re().MatchString(s) }
func (l *lazyRegexp) FindString(s string) string { return l.re().FindString(s) }

func (l *lazyRegexp) FindStringIndex(s string) []int {
	return l.re().FindStringIndex(s)
}

func (l *lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.re().FindStringSubmatchIndex(s)
}

func (l *lazyRegexp) FindAllString(s string, n int) []string {
	return l.re().FindAllString(s, n)
}

func (l *lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	return l.re().FindAllStringIndex(s, n)
}

func (l *lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.re().FindAllStringSubmatch(s, n)
}

func (l *lazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.re().FindAllStringSubmatchIndex(s, n)
}

func (l *lazyRegexp) ReplaceAllString(src, repl string) string {
	return l.re().ReplaceAllString(src, repl)
}
