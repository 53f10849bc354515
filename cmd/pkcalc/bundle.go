package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// runBundle writes the single-file build: the built site's page with every
// style, script and WebAssembly module inlined, which works opened from
// file://, attached to a wiki page or mailed. The two modules travel
// gzipped in base64 and are unpacked by the browser (DecompressionStream);
// the engine's Web Worker is made from a Blob.
func runBundle(args []string, stdout, stderr io.Writer) int {
	c := newCommand("bundle", "Usage: pkcalc bundle [--dir DIR] [--out FILE]\n\nWrites the web app built by ./build.sh dist as one HTML file, which works\nopened from disk.", stdout, stderr)
	dir := c.fs.String("dir", "dist", "`directory` of the built site")
	out := c.fs.String("out", "", "the file to write (default DIR/pkcalc.html)")
	if rest, code, ok := c.parse(args, false); !ok {
		return code
	} else if len(rest) > 0 {
		return c.fail("unexpected argument %q: give the file with --out", rest[0])
	}
	if *out == "" {
		*out = filepath.Join(*dir, "pkcalc.html")
	}
	page, err := bundle(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "pkcalc bundle: %v\n", err)
		return 1
	}
	if err := os.WriteFile(*out, page, 0o644); err != nil {
		fmt.Fprintf(stderr, "pkcalc bundle: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "pkcalc: wrote %s (%d bytes)\n", *out, len(page))
	return 0
}

// The page opened from file:// has no origin to fetch from: it may run
// inline scripts, WebAssembly and a Worker from a Blob, and connect nowhere.
const bundleCSP = `default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval' blob:; worker-src blob:; ` +
	`style-src 'unsafe-inline'; img-src data: blob:; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'`

var (
	scriptTag = regexp.MustCompile(`<script src="([^"]+)"( defer)?></script>`)
	styleTag  = regexp.MustCompile(`<link rel="stylesheet" href="([^"]+)">`)
	dropTags  = regexp.MustCompile(`<link rel="(manifest|icon)"[^>]*>\n?`)
	cspTag    = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="[^"]*">`)
)

func bundle(dir string) ([]byte, error) {
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return "", fmt.Errorf("%w (build the site first: ./build.sh dist)", err)
		}
		return string(b), nil
	}
	page, err := read("index.html")
	if err != nil {
		return nil, err
	}
	pageWasm, err := gzipBase64(dir, "main.wasm")
	if err != nil {
		return nil, err
	}
	worker, err := bundleWorker(dir, read)
	if err != nil {
		return nil, err
	}
	page = cspTag.ReplaceAllString(page, `<meta http-equiv="Content-Security-Policy" content="`+bundleCSP+`">`)
	page = dropTags.ReplaceAllString(page, "")
	var failed error
	page = styleTag.ReplaceAllStringFunc(page, func(tag string) string {
		css, err := read(styleTag.FindStringSubmatch(tag)[1])
		if err != nil {
			failed = err
		}
		return "<style>\n" + css + "</style>"
	})
	page = scriptTag.ReplaceAllStringFunc(page, func(tag string) string {
		js, err := read(scriptTag.FindStringSubmatch(tag)[1])
		if err != nil {
			failed = err
		}
		return inlineScript(js)
	})
	if failed != nil {
		return nil, failed
	}
	// The modules, for boot.js and pkcalc.js, before any other script.
	data := inlineScript("window.PKCALC_BUNDLE = {page: \"" + pageWasm + "\", worker: " + jsString(worker) + "};")
	page = strings.Replace(page, "<script>", data+"\n<script>", 1)
	return []byte(page), nil
}

// bundleWorker is the engine's worker as one classic script: the Go
// runtime glue of github.com/syumai/workers, then engine.js with its import
// of that glue removed and its engine module read from the script itself
// instead of engine/engine.wasm.
func bundleWorker(dir string, read func(string) (string, error)) (string, error) {
	goGlue, err := read("engine/wasm_exec.js")
	if err != nil {
		return "", err
	}
	engineJS, err := read("engine.js")
	if err != nil {
		return "", err
	}
	engineWasm, err := gzipBase64(dir, "engine/engine.wasm")
	if err != nil {
		return "", err
	}
	const (
		imp  = `import "./engine/wasm_exec.js";`
		mod  = `const compileEngine = () => WebAssembly.compileStreaming(fetch(new URL("engine/engine.wasm", import.meta.url)));`
		kind = `const HELPER_TYPE = "module";`
	)
	for _, line := range []string{imp, mod, kind} {
		if !strings.Contains(engineJS, line) {
			return "", fmt.Errorf("engine.js no longer has the line %q", line)
		}
	}
	engineJS = strings.Replace(engineJS, imp, "", 1)
	// Its helpers are Web Workers of the same script, classic too.
	engineJS = strings.Replace(engineJS, kind, `const HELPER_TYPE = "classic";`, 1)
	engineJS = strings.Replace(engineJS, mod, `const compileEngine = async () => {
  const gz = Uint8Array.from(atob("`+engineWasm+`"), (c) => c.charCodeAt(0));
  const bytes = await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  return WebAssembly.compile(bytes);
};`, 1)
	return goGlue + "\n" + engineJS, nil
}

func gzipBase64(dir, name string) (string, error) {
	raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return "", fmt.Errorf("%w (build the site first: ./build.sh dist)", err)
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	return base64.StdEncoding.EncodeToString(b.Bytes()), nil
}

// inlineScript wraps JavaScript in a script element; "</script" inside it
// would end the element early, so it is escaped.
func inlineScript(js string) string {
	return "<script>\n" + strings.ReplaceAll(js, "</script", `<\/script`) + "\n</script>"
}

// jsString writes s as a JavaScript string literal safe inside a script
// element.
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '<':
			b.WriteString(`\u003c`)
		case '\u2028', '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
