package e2e

import (
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pkcalc/pkcalc/core/report"
)

// TestDiagnoseExamplePage: the page's second way in. Switch to Diagnose,
// click Try the worked example, and the answer comes first, focused, and
// says what pkcalc diagnose --format json says of the same files: the hot
// partition, its hot key and the first action, with its commands; the
// address reopens it.
func TestDiagnoseExamplePage(t *testing.T) {
	needBrowser(t)
	native, err := exec.Command(pkcalcBin, "diagnose", "--format", "json", "--ranges", "../cmd/pkcalc/testdata/diagnose/pkranges.json",
		"--ru-log", "../cmd/pkcalc/testdata/diagnose/ru.csv", "--storage-log", "../cmd/pkcalc/testdata/diagnose/storage.csv",
		"--metrics", "../cmd/pkcalc/testdata/diagnose/metrics.json", "--current-key", "/tenantId", "--ru", "18000", "--key", "/tenantId,/categoryId").Output()
	if err != nil {
		t.Fatal(err)
	}
	var want report.Diagnosis
	if err := json.Unmarshal(native, &want); err != nil {
		t.Fatal(err)
	}
	if want.HotSpot == nil || len(want.Actions) == 0 {
		t.Fatalf("the command finds no hot spot or action: %s", native)
	}
	ctx := page(t)
	do(t, ctx, chromedp.EmulateViewport(1280, 900))
	do(t, ctx, chromedp.Click(chromedp.ID("mode-diagnose")))
	do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById("diagnose-example") !== null && document.getElementById("docs") === null`))
	if h := eval[string](t, ctx, `location.hash`); h != "#mode=diagnose" {
		t.Errorf("address after the switch: %q", h)
	}
	do(t, ctx, chromedp.Click(chromedp.ID("diagnose-example")))
	waitStatus(t, ctx, "Diagnosed the worked example")
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	inView := `(ids => ids.filter(id => { const e = document.getElementById(id); if (!e) return true; const r = e.getBoundingClientRect();
		return !(r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth); }))`
	if _, err := chromedp.Run(wctx, chromedp.Poll[chromedp.Void](inView+`(["diagnosis-title", "diagnosis-hot-key"]).length === 0 && document.activeElement.id === "diagnosis-title"`)); err != nil {
		t.Errorf("the diagnosis is not brought into view with the focus: out of view %q, focus on %q",
			eval[[]string](t, ctx, inView+`(["diagnosis-title", "diagnosis-hot-key"])`), eval[string](t, ctx, `document.activeElement.id`))
	}
	got := eval[[]string](t, ctx, `["diagnosis-title", "diagnosis-hot-key", "first-action-title", "first-action-commands"].map(id => document.getElementById(id).textContent)`)
	hotKey := report.ValueJSON(want.HotSpot.Key)
	if !strings.HasPrefix(got[0], "Partition "+want.HotSpot.Partition+" is hot") {
		t.Errorf("title %q; pkcalc diagnose finds partition %s hot", got[0], want.HotSpot.Partition)
	}
	if !strings.Contains(got[1], hotKey) {
		t.Errorf("hot key %q; pkcalc diagnose says %s", got[1], hotKey)
	}
	if want.Actions[0].Code != report.ActionRedistribute || !strings.HasPrefix(got[2], "First, Redistribute the throughput") {
		t.Errorf("first action %q; pkcalc diagnose says %s", got[2], want.Actions[0].Code)
	}
	if cmds := strings.TrimSuffix(strings.Join(want.Actions[0].Commands, ""), "\n"); got[3] != cmds {
		t.Errorf("the first action's commands are\n%s\nnot pkcalc diagnose's\n%s", got[3], cmds)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#diag-partition-table tbody tr").length`); n != len(want.Partitions) {
		t.Errorf("%d partition rows, pkcalc diagnose has %d", n, len(want.Partitions))
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#diag-actions li[id^=action-]").length`); n != len(want.Actions) {
		t.Errorf("%d actions, pkcalc diagnose has %d", n, len(want.Actions))
	}
	hash := eval[string](t, ctx, `location.hash`)
	if !strings.Contains(hash, "mode=diagnose") || !strings.Contains(hash, "example=1") || !strings.Contains(hash, "currentKey=%2FtenantId") {
		t.Errorf("address %q", hash)
	}
	screenshot(t, ctx, "diagnose.png")

	// The link reopens the worked example's diagnosis.
	do(t, ctx, chromedp.Reload(), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
	waitStatus(t, ctx, "Diagnosed the worked example")
	if v := eval[string](t, ctx, `document.getElementById("current-key").value`); v != "/tenantId" {
		t.Errorf("after reload the current key is %q", v)
	}

	// The switch and the slots are reached by Tab.
	order := eval[[]string](t, ctx, `(() => { document.getElementById("mode-documents").focus(); const seen = [];
		for (let i = 0; i < 40; i++) { seen.push(document.activeElement.id); const all = [...document.querySelectorAll("button, input, textarea, select, a[href], [tabindex='0']")]
			.filter(e => !e.disabled && e.offsetParent !== null); const at = all.indexOf(document.activeElement); all[at + 1]?.focus(); } return seen; })()`)
	for _, id := range []string{"mode-documents", "mode-diagnose", "diagnose-example", "paste-ranges", "file-ranges", "paste-ruLog", "current-key", "diagnose"} {
		if !slices.Contains(order, id) {
			t.Errorf("%s is not in the Tab order %q", id, order)
		}
	}
}

// TestDiagnoseBadRowsPage: a file dropped on a slot with rows that cannot
// be used: each is listed with its line and what is wrong, and the rest of
// the file is diagnosed.
func TestDiagnoseBadRowsPage(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.Click(chromedp.ID("mode-diagnose")))
	do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById("slot-ruLog") !== null`))
	eval[chromedp.Void](t, ctx, `(() => {
		const rows = ["TimeGenerated,PartitionKeyRangeId,PartitionKey,RequestCharge",
			'2025-03-03T14:00:00Z,0,"[""a""]",120', '2025-03-03T14:00:01Z,0,"[""a""]",ten', '2025-03-03T14:00:02Z,1,"[""b""]",80',
			'25.02.2025 09:19:25,1,"[""b""]",80'];
		const dt = new DataTransfer();
		dt.items.add(new File([rows.join("\n") + "\n"], "bad-ru.csv", {type: "text/csv"}));
		document.getElementById("paste-ruLog").dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt}));
	})()`)
	do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById("state-ruLog").textContent.includes("bad-ru.csv")`))
	do(t, ctx, chromedp.SendKeys(chromedp.ID("current-key"), "/tenantId"))
	do(t, ctx, chromedp.Click(chromedp.ID("diagnose")))
	status := waitStatus(t, ctx, "Diagnosed bad-ru.csv")
	if !strings.Contains(status, "read 2 rows (RU log). 2 problems not used: see below.") {
		t.Errorf("status %q", status)
	}
	problems := eval[string](t, ctx, `document.querySelector(".diagnose-errors").innerText`)
	for _, want := range []string{"2 problems in bad-ru.csv, the RU log (the rest of it was read)",
		`line 3 (row 2): column RequestCharge: "ten" is not a number`, "line 5 (row 4): column TimeGenerated: "} {
		if !strings.Contains(problems, want) {
			t.Errorf("the problems say\n%s\nwithout %q", problems, want)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#diag-partition-table tbody tr").length`); n != 2 {
		t.Errorf("%d partitions from the rows that were read, want 2", n)
	}
	// A file dropped outside every slot is not taken for an export.
	eval[chromedp.Void](t, ctx, `(() => { const dt = new DataTransfer(); dt.items.add(new File(["{}"], "stray.json"));
		document.getElementById("diagnose-settings").dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt})); })()`)
	if s := eval[string](t, ctx, `document.querySelector(".slots").textContent`); strings.Contains(s, "stray.json") {
		t.Error("a file dropped outside the slots went into one")
	}
}
