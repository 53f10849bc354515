//go:build js && wasm

// Command wasm is pkcalc's page: it mounts the ui components on index.html
// and wires them to the browser (the paste area, timers). It holds no logic
// of its own: that is core's and ui's.
package main

import (
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

	doc := dom.GetWindow().Document()
	root := &ui.Root{Input: pasteArea{doc}, Loaded: true}
	watchPasteArea(doc, env, root)

	for ok := true; ok; ok = renderer.EventWait() {
		if err := renderer.Render(buildEnv.RunBuild(root)); err != nil {
			panic(err)
		}
		doc.DocumentElement().SetAttribute("data-ready", "true")
	}
}

// pasteArea is the textarea whose text never enters the virtual DOM.
type pasteArea struct{ doc dom.Document }

func (p pasteArea) textarea() *dom.HTMLTextAreaElement {
	t, _ := p.doc.GetElementByID("docs").(*dom.HTMLTextAreaElement)
	return t
}

func (p pasteArea) SetText(s string) {
	if t := p.textarea(); t != nil {
		t.SetValue(s)
	}
}

// watchPasteArea analyses the paste area a moment after typing or pasting
// stops, so a paste of megabytes is read once and keystrokes stay smooth.
// The listener sits on the document so it survives re-rendering.
func watchPasteArea(doc dom.Document, env vugu.EventEnv, root *ui.Root) {
	var timer *time.Timer
	area := pasteArea{doc}
	doc.AddEventListener("input", false, func(e dom.Event) {
		if e.Target().ID() != "docs" {
			return
		}
		if timer != nil {
			timer.Stop()
		}
		timer = time.AfterFunc(200*time.Millisecond, func() {
			t := area.textarea()
			if t == nil {
				return
			}
			text := t.Value()
			env.Lock()
			root.Analyse(text, "pasted text")
			env.UnlockRender()
		})
	})
}
