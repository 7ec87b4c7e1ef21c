package main

// stage is one step a request goes through, and the benchmarks in its package that time it.
type stage struct {
	name  string // what the request goes through, as -stages matches it
	pkg   string // the package, from the module's root
	bench string // the -test.bench pattern: its benchmarks, whole, none of a package's others
}

// stages are in the order a request meets them. Each pattern names its benchmarks whole, so
// that a benchmark added to a package joins a stage only when it is listed here
// (TestStagesNameTheirBenchmarks holds every pattern to benchmarks that exist). Benchmarks
// that need a service of their own (BenchmarkRedis) or take minutes for their figure
// (BenchmarkBuiltinSignalsCold empties the CPU's caches before each request) are left to
// be run by hand.
var stages = []stage{
	{"the front door", "./internal/server", "^BenchmarkInference$"},
	{"reading the body", "./internal/provider/transport", "^BenchmarkReadAll$"},
	{"decoding the request", "./internal/openai", "^Benchmark(ParseChatRequest|ParseChatRequestLarge|CheckKeys)$"},
	{"admission", "./internal/admission", "^BenchmarkAdmit$"},
	{"signals", "./internal/signal", "^BenchmarkBuiltinSignals(Short)?$"},
	{"decisions", "./internal/decision", "^BenchmarkEvaluate$"},
	{"the semantic cache", "./internal/cache", "^BenchmarkNearest10k$"},
	{"the pipeline", "./internal/router", "^Benchmark(CompleteDirect|CompleteRouted|CacheHit|CacheMiss)$"},
	{"encoding the upstream body", "./internal/openai", "^BenchmarkMarshalChatRequest(Large)?$"},
	{"calling the model", "./internal/provider/openaicompat", "^BenchmarkChatCompletion$"},
	{"reading the stream", "./internal/provider/openaicompat", "^BenchmarkStreamNext$"},
	{"keeping credentials out of the stream", "./internal/router", "^BenchmarkStreamText$"},
	{"the access line", "./internal/redact", "^BenchmarkHandler$"},
	{"the external processor", "./internal/extproc", "^BenchmarkExchange(OnItsGoroutine)?$"},
}
