//go:build js && wasm

// Command page is pkcalc's page: it mounts the ui components on index.html
// and wires them to the browser: the paste area, files picked or dropped,
// the engine behind window.pkcalc (a Web Worker), downloads, the clipboard
// and the address. It holds no logic of its own: that is core's and ui's.
package main

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/domrender"

	"github.com/pkcalc/pkcalc/ui"
)

func main() {
	renderer, err := domrender.New("#app")
	if err != nil {
		panic(err)
	}
	defer renderer.Release()
	env := renderer.EventEnv()
	buildEnv, err := vugu.NewBuildEnv(env)
	if err != nil {
		panic(err)
	}

	win := dom.GetWindow()
	p := &page{doc: win.Document(), env: env}
	// Settings come from the address: the hash (the link of an earlier
	// analysis) wins over the query (an embedding page's presets).
	query := ui.AddressSettings(win.Location().Search(), win.Location().Hash())
	root := &ui.Root{Page: p, Loaded: true}
	if ui.ModeFrom(query) == ui.ModeDiagnose {
		root.Mode, root.Diagnose = ui.ModeDiagnose, ui.DiagnoseFormFrom(query)
	} else {
		root.Settings = ui.SettingsFrom(query)
	}
	p.root = root
	p.watch()
	switch v, _ := url.ParseQuery(query); {
	case root.Mode == ui.ModeDiagnose && v.Get("example") != "":
		root.LoadExample()
	case root.Mode != ui.ModeDiagnose && v.Get("sample") != "":
		root.LoadSample(v.Get("sample"))
	}

	for first, ok := true, true; ok; first, ok = false, renderer.EventWait() {
		if err := renderer.Render(buildEnv.RunBuild(root)); err != nil {
			panic(err)
		}
		p.restoreText()
		p.focus()
		p.reveal()
		if first {
			p.doc.DocumentElement().SetAttribute("data-ready", "true")
			js.Global().Get("performance").Call("mark", "pkcalc-ready") // interactive, for the benchmark
		}
	}
}

// page is ui.Page in a browser.
type page struct {
	doc   dom.Document
	env   vugu.EventEnv
	root  *ui.Root
	text  string   // the paste area's text, kept here because a render may rebuild the element
	files js.Value // the File objects last picked or dropped
	picks int      // files picked or dropped so far: a later pick wins over an earlier one still being joined
	abort js.Value // the AbortController of the running analysis
	timer *time.Timer

	// The diagnose mode's slots (ui.Slots): each one's paste area's text
	// and the file last picked or dropped on it, by slot.
	slotText  map[string]string
	slotFiles map[string]js.Value
	slotTimer map[string]*time.Timer
}

func (p *page) textarea() *dom.HTMLTextAreaElement {
	t, _ := p.doc.GetElementByID("docs").(*dom.HTMLTextAreaElement)
	return t
}

func (p *page) SetText(s string) {
	p.text = s
	p.restoreText()
}

// restoreText puts the text back into the paste areas if rendering
// replaced them.
func (p *page) restoreText() {
	if t := p.textarea(); t != nil && t.Value() != p.text {
		t.SetValue(p.text)
	}
	for _, s := range ui.Slots {
		if t, ok := p.doc.GetElementByID(s.PasteID()).(*dom.HTMLTextAreaElement); ok && t.Value() != p.slotText[s.Name] {
			t.SetValue(p.slotText[s.Name])
		}
	}
}

// SetExport fills a slot's paste area; the file picked on it, if any, is
// no longer what it holds.
func (p *page) SetExport(slot, text string) {
	if p.slotText == nil {
		p.slotText, p.slotFiles = map[string]string{}, map[string]js.Value{}
	}
	p.slotText[slot] = text
	delete(p.slotFiles, slot)
	p.restoreText()
}

// Diagnose hands the slots to window.pkcalc.diagnose, which runs the
// engine in its Web Worker: each slot's file, or its paste area's text
// (the worked example's under its file name, as the command line names
// the files), and brings the answer back under the render lock. It is
// called under that lock.
func (p *page) Diagnose(job int, slots []string, params url.Values) {
	exports := js.Global().Get("Object").New()
	for _, s := range slots {
		switch e := p.root.Diagnose.Exports[s]; {
		case e.Kind == "file" && p.slotFiles[s].Truthy():
			exports.Set(s, p.slotFiles[s])
		case e.Name != "":
			exports.Set(s, js.Global().Get("File").New([]any{p.slotText[s]}, e.Name))
		default:
			exports.Set(s, p.slotText[s])
		}
	}
	opts := js.Global().Get("Object").New()
	for name, vals := range params {
		opts.Set(name, vals[0])
	}
	opts.Set("as", "text")
	p.abort = js.Global().Get("AbortController").New()
	opts.Set("signal", p.abort.Get("signal"))
	var done, failed js.Func
	release := func() { done.Release(); failed.Release() }
	done = js.FuncOf(func(_ js.Value, args []js.Value) any {
		text := args[0].String()
		go func() {
			p.env.Lock()
			p.root.Diagnosed(job, text, "")
			p.env.UnlockRender()
			release()
		}()
		return nil
	})
	failed = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := args[0].Get("message").String()
		aborted := args[0].Get("name").String() == "AbortError"
		go func() {
			p.env.Lock()
			if !aborted {
				p.root.Diagnosed(job, "", "The diagnosis failed: "+msg)
			}
			p.env.UnlockRender()
			release()
		}()
		return nil
	})
	js.Global().Get("pkcalc").Call("diagnose", exports, opts).Call("then", done, failed)
}

// takeExport makes a file picked or dropped on a slot what it holds.
func (p *page) takeExport(slot string, list js.Value) {
	if list.Length() == 0 || !ui.IsSlot(slot) {
		return
	}
	f := list.Index(0)
	p.env.Lock()
	p.SetExport(slot, "")
	p.slotFiles[slot] = f
	p.root.ExportChosen(slot, f.Get("name").String(), int64(f.Get("size").Float()))
	p.env.UnlockRender()
}

// slotOf is the slot an element is in, "" for none.
func slotOf(target js.Value) string {
	if !target.Truthy() || target.Get("closest").Type() != js.TypeFunction {
		return ""
	}
	if el := target.Call("closest", "[data-slot]"); el.Truthy() {
		return el.Call("getAttribute", "data-slot").String()
	}
	return ""
}

// focus moves the keyboard focus where the last action asked, when it
// took away or replaced the element that had it.
func (p *page) focus() {
	p.env.Lock()
	id := p.root.TakeFocus()
	p.env.UnlockOnly()
	if id == "" {
		return
	}
	if el, ok := p.doc.GetElementByID(id).(dom.HTMLElement); ok {
		el.Focus()
	}
}

// reveal brings an analysis's answer into view when it has just been
// rendered (ui.Root.TakeReveal): scrolled to as little as shows it, and
// focused when asked. Not in an embedding page's frame, whose page the
// scroll would move.
func (p *page) reveal() {
	p.env.Lock()
	scroll, focus := p.root.TakeReveal()
	p.env.UnlockOnly()
	if scroll == "" || !js.Global().Get("parent").Equal(js.Global()) || p.doc.DocumentElement().Class().Contains("embed") {
		return
	}
	if el := p.doc.GetElementByID(scroll); el != nil {
		el.Underlying().Call("scrollIntoView", map[string]any{"block": "nearest"})
	}
	if el := p.doc.GetElementByID(focus); focus != "" && el != nil {
		el.Underlying().Call("focus", map[string]any{"preventScroll": true})
	}
}

// progressEvery is how often the page renders the engine's progress.
const progressEvery = 250 * time.Millisecond

// Analyze hands the source to window.pkcalc.analyze, which runs the engine
// in its Web Worker, and brings progress and the result back under the
// render lock.
func (p *page) Analyze(job int, src ui.Source, params url.Values) {
	var input js.Value
	switch {
	case src.Kind == "files" && p.files.Truthy():
		input = p.files
	default:
		input = js.ValueOf(p.text)
	}
	opts := js.Global().Get("Object").New()
	for name, vals := range params {
		if name == "keys" {
			arr := js.Global().Get("Array").New()
			for _, v := range vals {
				arr.Call("push", v)
			}
			opts.Set(name, arr)
			continue
		}
		opts.Set(name, vals[0])
	}
	opts.Set("as", "text")
	p.abort = js.Global().Get("AbortController").New()
	opts.Set("signal", p.abort.Get("signal"))
	var progress, done, failed js.Func
	// The engine reports every megabyte, many times a second, and a render
	// of a page that shows results takes a tenth of a second or more: a
	// render for each report would keep the main thread busy for the whole
	// analysis, the status frozen and Cancel out of reach. So the latest
	// report is rendered at most every progressEvery.
	var (
		mu        sync.Mutex
		latest    ui.Progress
		scheduled bool
	)
	progress = js.FuncOf(func(_ js.Value, args []js.Value) any {
		e := args[0]
		pr := ui.Progress{Bytes: int64(number(e, "bytes")), Documents: int(number(e, "documents")), Elapsed: number(e, "elapsedSeconds")}
		mu.Lock()
		defer mu.Unlock()
		latest = pr
		if scheduled {
			return nil
		}
		scheduled = true
		// Callbacks from JavaScript must not block: the render lock is
		// taken on the timer's goroutine.
		time.AfterFunc(progressEvery, func() {
			mu.Lock()
			pr := latest
			scheduled = false
			mu.Unlock()
			p.env.Lock()
			p.root.Progressed(job, pr)
			p.env.UnlockRender()
		})
		return nil
	})
	opts.Set("onProgress", progress)
	release := func() { progress.Release(); done.Release(); failed.Release() }
	done = js.FuncOf(func(_ js.Value, args []js.Value) any {
		text := args[0].String()
		go func() {
			p.env.Lock()
			p.root.Finished(job, text, "")
			p.env.UnlockRender()
			release()
		}()
		return nil
	})
	failed = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := args[0].Get("message").String()
		aborted := args[0].Get("name").String() == "AbortError" // by Cancel, which has set the page's state
		go func() {
			p.env.Lock()
			if !aborted {
				p.root.Finished(job, "", "The analysis failed: "+msg)
			}
			p.env.UnlockRender()
			release()
		}()
		return nil
	})
	js.Global().Get("pkcalc").Call("analyze", input, opts).Call("then", done, failed)
}

// number reads a numeric property, 0 when it is missing: a panic here
// would stop the whole page.
func number(v js.Value, name string) float64 {
	if f := v.Get(name); f.Type() == js.TypeNumber {
		return f.Float()
	}
	return 0
}

func (p *page) Cancel() {
	if p.abort.Truthy() {
		p.abort.Call("abort")
	}
}

// Download saves content as a file, through a Blob URL.
func (p *page) Download(name, mimeType, content string) {
	blob := js.Global().Get("Blob").New([]any{content}, map[string]any{"type": mimeType})
	u := js.Global().Get("URL").Call("createObjectURL", blob)
	a := p.doc.CreateElement("a").(*dom.HTMLAnchorElement)
	a.SetHref(u.String())
	a.SetAttribute("download", name)
	p.doc.(dom.HTMLDocument).Body().AppendChild(a)
	a.Click()
	a.Remove()
	js.Global().Get("URL").Call("revokeObjectURL", u)
}

// Copy puts text on the clipboard, and tells the page when the browser
// refuses it.
func (p *page) Copy(text string) {
	fail := func(reason string) {
		go func() { // the caller holds the render lock
			p.env.Lock()
			p.root.CopyFailed(reason)
			p.env.UnlockRender()
		}()
	}
	c := js.Global().Get("navigator").Get("clipboard")
	if !c.Truthy() {
		fail("this page has no clipboard: it needs HTTPS")
		return
	}
	var done, failed js.Func
	done = js.FuncOf(func(js.Value, []js.Value) any {
		done.Release()
		failed.Release()
		return nil
	})
	failed = js.FuncOf(func(_ js.Value, args []js.Value) any {
		done.Release()
		failed.Release()
		fail(js.Global().Get("String").Invoke(args[0]).String())
		return nil
	})
	c.Call("writeText", text).Call("then", done, failed)
}

// SetSettings keeps the settings in the address, never the documents.
func (p *page) SetSettings(query string) {
	loc := js.Global().Get("location")
	addr := ui.Address(loc.Get("pathname").String(), loc.Get("search").String(), query)
	js.Global().Get("history").Call("replaceState", nil, "", addr)
}

// watch listens on the document, so the listeners survive re-rendering:
// typing or pasting analyses a moment after it stops; picked or dropped
// files are analysed at once.
func (p *page) watch() {
	p.doc.AddEventListener("input", false, func(e dom.Event) {
		if slot := slotOf(e.Target().Underlying()); slot != "" && strings.HasPrefix(e.Target().ID(), "paste-") {
			p.pastedExport(slot, e.Target().Underlying().Get("value").String())
			return
		}
		if e.Target().ID() != "docs" {
			return
		}
		if p.timer != nil {
			p.timer.Stop()
		}
		if t := p.textarea(); t != nil {
			p.text = t.Value()
		}
		// Text pasted or dropped in one go, not typed: its answer is
		// scrolled into view.
		kind := e.Underlying().Get("inputType")
		whole := kind.Truthy() && (kind.String() == "insertFromPaste" || kind.String() == "insertFromDrop")
		p.timer = time.AfterFunc(400*time.Millisecond, func() {
			n := int64(len(p.text))
			p.env.Lock()
			p.root.Pasted(n)
			if n > 0 {
				p.root.AnalysePasted(whole)
			}
			p.env.UnlockRender()
		})
	})
	p.doc.AddEventListener("change", false, func(e dom.Event) {
		if slot := slotOf(e.Target().Underlying()); slot != "" && strings.HasPrefix(e.Target().ID(), "file-") {
			input := e.Target().Underlying()
			p.takeExport(slot, input.Get("files"))
			input.Set("value", "")
			return
		}
		if e.Target().ID() != "files" {
			return
		}
		input := e.Target().Underlying()
		p.take(input.Get("files"))
		input.Set("value", "") // the same file can be picked again
	})
	for _, t := range []string{"dragenter", "dragover"} {
		p.doc.AddEventListener(t, false, func(e dom.Event) {
			e.PreventDefault()
			p.doc.DocumentElement().Class().Add("dragging")
		})
	}
	p.doc.AddEventListener("dragleave", false, func(e dom.Event) {
		if !e.Underlying().Get("relatedTarget").Truthy() {
			p.doc.DocumentElement().Class().Remove("dragging")
		}
	})
	p.doc.AddEventListener("drop", false, func(e dom.Event) {
		e.PreventDefault()
		p.doc.DocumentElement().Class().Remove("dragging")
		files := e.Underlying().Get("dataTransfer").Get("files")
		// In the diagnose mode a file goes to the slot it is dropped on,
		// and nowhere else: which export it is cannot be guessed.
		p.env.Lock()
		diagnose := p.root.Mode == ui.ModeDiagnose
		p.env.UnlockOnly()
		if diagnose {
			p.takeExport(slotOf(e.Target().Underlying()), files)
			return
		}
		p.take(files)
	})
}

// pastedExport keeps a slot's text as it is typed or pasted, and tells
// the page a moment after it stops: a render per key would slow typing.
func (p *page) pastedExport(slot, text string) {
	if p.slotText == nil {
		p.slotText, p.slotFiles = map[string]string{}, map[string]js.Value{}
	}
	p.slotText[slot] = text
	delete(p.slotFiles, slot)
	if p.slotTimer == nil {
		p.slotTimer = map[string]*time.Timer{}
	}
	if t := p.slotTimer[slot]; t != nil {
		t.Stop()
	}
	p.slotTimer[slot] = time.AfterFunc(300*time.Millisecond, func() {
		p.env.Lock()
		p.root.ExportPasted(slot, int64(len(p.slotText[slot])))
		p.env.UnlockRender()
	})
}

// take makes picked or dropped files the source: one Blob of them all,
// streamed from disk by the engine, with a newline between files. CSV
// files are read as one table: the first file's header row stays, and the
// others' (which must match it) are cut off.
func (p *page) take(list js.Value) {
	n := list.Length()
	if n == 0 {
		return
	}
	files := make([]js.Value, n)
	for i := range files {
		files[i] = list.Index(i)
	}
	p.env.Lock()
	p.picks++
	pick := p.picks
	p.env.UnlockOnly()
	// Reading headers waits on promises, which must not block the event
	// handler; a pick made meanwhile may be joined first, and then stays.
	go func() {
		blob, names, size, problem := join(files)
		p.env.Lock()
		if pick != p.picks {
			p.env.UnlockOnly()
			return
		}
		if problem == "" {
			p.files = blob
		}
		p.root.FilesChosen(names, size, problem)
		p.env.UnlockRender()
	}()
}

// join makes one Blob of files, or says why it cannot.
func join(files []js.Value) (blob js.Value, names []string, size int64, problem string) {
	csv, json := 0, 0
	for _, f := range files {
		name := f.Get("name").String()
		names = append(names, name)
		size += int64(f.Get("size").Float())
		lower := strings.ToLower(name)
		if strings.HasSuffix(lower, ".csv") || strings.HasSuffix(lower, ".tsv") {
			csv++
		} else {
			json++
		}
	}
	switch {
	case csv > 0 && json > 0:
		return js.Value{}, names, size, "Choose either CSV files or JSON files: pkcalc reads one kind at a time."
	case len(files) == 1:
		return files[0], names, size, ""
	}
	parts := js.Global().Get("Array").New()
	first := ""
	for i, f := range files {
		part := f
		if csv > 0 {
			header, n, err := csvHeader(f)
			switch {
			case err != "":
				return js.Value{}, names, size, names[i] + ": " + err
			case i == 0:
				first = header
			case header != first:
				return js.Value{}, names, size, fmt.Sprintf("The CSV files picked together are read as one table, but the header row of %s (%.80q) differs from that of %s (%.80q): analyse them one at a time, or give them the same columns.",
					names[i], header, names[0], first)
			default:
				part = f.Call("slice", n)
			}
		}
		if i > 0 {
			parts.Call("push", "\n")
		}
		parts.Call("push", part)
	}
	blobType := "application/json"
	if csv > 0 {
		blobType = "text/csv"
	}
	return js.Global().Get("Blob").New(parts, map[string]any{"type": blobType}), names, size, ""
}

// csvHeader reads the header row of a CSV file (ui.CSVHeader) from its
// first 64 KB.
func csvHeader(f js.Value) (header string, n int, problem string) {
	const most = 64 << 10
	buf, err := await(f.Call("slice", 0, most).Call("arrayBuffer"))
	if err != "" {
		return "", 0, "could not be read: " + err
	}
	b := make([]byte, buf.Get("byteLength").Int())
	js.CopyBytesToGo(b, js.Global().Get("Uint8Array").New(buf))
	header, n, ok := ui.CSVHeader(b)
	switch {
	case ok:
	case len(b) < most: // one line, all header
		header, _, _ = ui.CSVHeader(append(b, '\n'))
		n = len(b)
	default:
		return "", 0, "no line ends in its first 64 KB, so no header row was found: is it CSV?"
	}
	return header, n, ""
}

// await waits for a promise, on a goroutine other than the event loop's.
func await(promise js.Value) (js.Value, string) {
	type result struct {
		v   js.Value
		err string
	}
	ch := make(chan result, 1)
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: args[0]}
		return nil
	})
	defer then.Release()
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{err: js.Global().Get("String").Invoke(args[0]).String()}
		return nil
	})
	defer catch.Release()
	promise.Call("then", then, catch)
	r := <-ch
	return r.v, r.err
}
