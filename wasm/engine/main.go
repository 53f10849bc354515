//go:build js && wasm

// Command engine is pkcalc's analysis engine for JavaScript runtimes: the
// HTTP API of package api, served by github.com/syumai/workers inside a
// browser Web Worker (public/engine.js) or on Cloudflare Workers. It holds
// no logic of its own.
package main

import (
	"github.com/syumai/workers"

	"github.com/pkcalc/pkcalc/core/api"
)

func main() {
	workers.Serve(api.Handler(api.Config{}))
}
