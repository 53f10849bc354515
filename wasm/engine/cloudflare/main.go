//go:build js && wasm

// Command cloudflare is pkcalc's engine as a Cloudflare Worker: the HTTP API
// of package api, as in the browser's engine (package main one directory
// up), with a limit on the body since here it comes over the network. It
// holds no logic of its own; wasm/engine/wrangler.jsonc and docs/CLOUDFLARE.md
// say how it is built and deployed.
package main

import (
	"github.com/syumai/workers"

	"github.com/pkcalc/pkcalc/core/api"
)

func main() {
	// 100 MiB: what Cloudflare itself takes as a request body on its Free
	// and Pro plans.
	workers.Serve(api.Handler(api.Config{MaxBodyBytes: 100 << 20}))
}
