//go:build js && wasm

package main

import (
	"errors"
	"slices"
	"syscall/js"

	"github.com/pkcalc/pkcalc/core/ingest"
)

// readChunk is the engine's ingest.ReadChunk: it hands the job to
// engine.js's helpers (pkcalcReadChunk) and waits for the answer, while
// the engine's other goroutines run.
func readChunk(job []byte) ([]byte, error) {
	hand := js.Global().Get("pkcalcReadChunk")
	if hand.Type() != js.TypeFunction {
		return nil, errors.New("no pkcalcReadChunk: the engine runs without engine.js's helpers")
	}
	u := js.Global().Get("Uint8Array").New(len(job))
	js.CopyBytesToJS(u, job)
	type result struct {
		answer []byte
		err    error
	}
	done := make(chan result, 1)
	resolved := js.FuncOf(func(_ js.Value, args []js.Value) any {
		answer := make([]byte, args[0].Get("length").Int())
		js.CopyBytesToGo(answer, args[0])
		done <- result{answer: answer}
		return nil
	})
	defer resolved.Release()
	rejected := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- result{err: errors.New(args[0].Call("toString").String())}
		return nil
	})
	defer rejected.Release()
	hand.Invoke(u).Call("then", resolved, rejected)
	r := <-done
	return r.answer, r.err
}

// serveChunks makes this instance a helper: pkcalcChunk(job) returns the
// answer of an ingest.ChunkReader, or the error's text. Jobs come one at a
// time, so one reader and one buffer serve them all.
func serveChunks() {
	var cr ingest.ChunkReader
	var job []byte
	js.Global().Set("pkcalcChunk", js.FuncOf(func(_ js.Value, args []js.Value) any {
		n := args[0].Get("length").Int()
		job = slices.Grow(job[:0], n)[:n]
		js.CopyBytesToGo(job, args[0])
		answer, err := cr.Read(job)
		if err != nil {
			return err.Error()
		}
		u := js.Global().Get("Uint8Array").New(len(answer))
		js.CopyBytesToJS(u, answer)
		return u
	}))
	select {}
}
