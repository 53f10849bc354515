//go:build js && wasm

// Command cloudflare is pkcalc's engine as a Cloudflare Worker: the HTTP API
// of package api, as in the browser's engine (package main one directory
// up), with a limit on the body since here it comes over the network. It
// holds no logic of its own; wasm/engine/wrangler.jsonc and docs/CLOUDFLARE.md
// say how it is built and deployed.
package main

import (
	"runtime/debug"

	"github.com/syumai/workers"

	"github.com/pkcalc/pkcalc/core/api"
)

func main() {
	debug.SetMemoryLimit(memoryLimit)
	// 100 MiB: what Cloudflare itself takes as a request body on its Free
	// and Pro plans.
	workers.Serve(api.Handler(api.Config{MaxBodyBytes: 100 << 20, MaxExactValues: maxExactValues, MaxWorkers: 1}))
}

// maxExactValues is the most values the keys keep exactly in all, for the
// memory limit: 4 keys at the default 50,000, each with more, beside the
// candidates pkcalc suggests and a window of 60,000 documents, took 90 MB
// of heap under it with one core (docs/PERFORMANCE.md, Memory); 24 keys
// of 50,000 took 427 MB.
const maxExactValues = 200_000

// memoryLimit is the Go heap's share of the Worker's 128 MB, which the
// JavaScript heap, the module and the request's and response's buffers
// share (docs/PERFORMANCE.md, Memory): near it the collector runs as
// often as it must, rather than grow the memory past the isolate's limit.
const memoryLimit = 96 << 20
