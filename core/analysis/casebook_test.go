package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/sample"
	"github.com/pkcalc/pkcalc/internal/shared"
)

// A case of the casebook: a dataset, the analysis options by their API
// names, and what an expert says must hold (see its README.md).
type bookCase struct {
	Name  string `json:"name"`
	Input struct {
		Sample string `json:"sample"`
		File   string `json:"file"`
	} `json:"input"`
	Options map[string]any             `json:"options"`
	Expect  map[string]json.RawMessage `json:"expect"`
}

// TestCasebook runs every case of the casebook, read in place, through the
// whole analysis, and checks each expectation against the report. The
// cases are a floor, not a target to tune to: they say what must hold,
// not the figures. A case with an expectation this test does not know
// fails, so that no verdict is skipped unread.
func TestCasebook(t *testing.T) {
	casebook := shared.Dir(t, "casebook")
	data, err := os.ReadFile(filepath.Join(casebook, "cases.json"))
	if err != nil {
		t.Fatalf("the casebook must be beside the project: %v", err)
	}
	var book struct {
		Cases []bookCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &book); err != nil {
		t.Fatalf("cases.json: %v", err)
	}
	if len(book.Cases) == 0 {
		t.Fatal("cases.json holds no case")
	}
	for _, c := range book.Cases {
		t.Run(c.Name, func(t *testing.T) { runCase(t, casebook, c) })
	}
}

func runCase(t *testing.T, casebook string, c bookCase) {
	var input []byte
	switch {
	case c.Input.Sample == "orders":
		input = []byte(sample.OrdersText(sample.DefaultOrders))
	case c.Input.Sample == "telemetry":
		input = []byte(sample.TelemetryText(sample.DefaultTelemetry))
	case c.Input.File != "":
		var err error
		if input, err = os.ReadFile(filepath.Join(casebook, c.Input.File)); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("input %+v is neither a sample nor a file", c.Input)
	}
	v, err := caseOptions(c)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := ParseOptions(v)
	if err != nil {
		t.Fatalf("options %v: %v", v, err)
	}
	rep, err := Analyze(bytes.NewReader(input), opts)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := report.WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	for name, raw := range c.Expect {
		check, ok := expectations[name]
		if !ok {
			t.Errorf("expectation %q is not one this test knows: teach it", name)
			continue
		}
		if msg := check(rep, text.String(), raw); msg != "" {
			t.Errorf("%s: %s\n%s", name, msg, summary(rep))
		}
	}
}

// caseOptions turns a case's options into the API's named values. The keys
// an expectation names are measured too, so that a verdict on a key pkcalc
// would not suggest is still checked.
func caseOptions(c bookCase) (url.Values, error) {
	v := url.Values{}
	for name, val := range c.Options {
		switch x := val.(type) {
		case []any:
			for _, e := range x {
				v.Add(name, fmt.Sprint(e))
			}
		case float64:
			v.Set(name, strconv.FormatFloat(x, 'f', -1, 64))
		default:
			v.Set(name, fmt.Sprint(x))
		}
	}
	for _, raw := range c.Expect {
		var k struct {
			Key, Than string
		}
		if json.Unmarshal(raw, &k) != nil {
			continue
		}
		for _, spec := range []string{k.Key, k.Than} {
			if spec != "" && !slices.Contains(v["keys"], spec) {
				v.Add("keys", spec)
			}
		}
	}
	return v, nil
}

// summary is the report in brief, for a failure's message.
func summary(rep *report.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "recommended %q; candidates:", rep.Recommended)
	for _, c := range rep.Candidates {
		fmt.Fprintf(&b, "\n  %d %s %d %s", c.Rank, c.Key.Spec, c.Score, c.Grade)
		for _, f := range c.Findings {
			fmt.Fprintf(&b, " %s/%s", f.Code, f.Severity)
		}
		if c.Workload != nil {
			fmt.Fprintf(&b, " (%.0f RU/s)", c.Workload.TotalRU)
		}
	}
	return b.String()
}

func candidateOf(rep *report.Report, spec string) *report.Candidate {
	for i := range rep.Candidates {
		if rep.Candidates[i].Key.Spec == spec {
			return &rep.Candidates[i]
		}
	}
	return nil
}

var severityOrder = map[string]int{"info": 0, "warning": 1, "critical": 2}

// expectations check what cases.json's expect says, one per name; each
// returns what is wrong, or "".
var expectations = map[string]func(rep *report.Report, text string, raw json.RawMessage) string{
	"recommendedIn": func(rep *report.Report, _ string, raw json.RawMessage) string {
		var in []string
		if err := json.Unmarshal(raw, &in); err != nil {
			return err.Error()
		}
		if !slices.Contains(in, rep.Recommended) {
			return fmt.Sprintf("recommended %q, want one of %q", rep.Recommended, in)
		}
		return ""
	},
	"recommendedNotIn": func(rep *report.Report, _ string, raw json.RawMessage) string {
		var out []string
		if err := json.Unmarshal(raw, &out); err != nil {
			return err.Error()
		}
		if rep.Recommended == "" || slices.Contains(out, rep.Recommended) {
			return fmt.Sprintf("recommended %q, want a key, none of %q", rep.Recommended, out)
		}
		return ""
	},
	"recommendedFirstPath": func(rep *report.Report, _ string, raw json.RawMessage) string {
		var first string
		if err := json.Unmarshal(raw, &first); err != nil {
			return err.Error()
		}
		c := candidateOf(rep, rep.Recommended)
		if c == nil || len(c.Key.Paths) == 0 || c.Key.Paths[0] != first {
			return fmt.Sprintf("recommended %q, want a key that starts with %s", rep.Recommended, first)
		}
		return ""
	},
	"recommendedKindIn": func(rep *report.Report, _ string, raw json.RawMessage) string {
		var kinds []string
		if err := json.Unmarshal(raw, &kinds); err != nil {
			return err.Error()
		}
		c := candidateOf(rep, rep.Recommended)
		if c == nil || !slices.Contains(kinds, c.Key.Kind) {
			return fmt.Sprintf("recommended %q, want a key of kind %q", rep.Recommended, kinds)
		}
		return ""
	},
	"maxSeverity": func(rep *report.Report, _ string, raw json.RawMessage) string {
		var e struct{ Key, Code, Severity string }
		if err := json.Unmarshal(raw, &e); err != nil {
			return err.Error()
		}
		c := candidateOf(rep, e.Key)
		if c == nil {
			return e.Key + " was not measured"
		}
		for _, f := range c.Findings {
			if f.Code == e.Code && severityOrder[f.Severity] > severityOrder[e.Severity] {
				return fmt.Sprintf("%s has %s %s, at most %s wanted: %s", e.Key, f.Severity, f.Code, e.Severity, f.Message)
			}
		}
		return ""
	},
	"scoreAbove": func(rep *report.Report, _ string, raw json.RawMessage) string {
		var e struct{ Key, Than string }
		if err := json.Unmarshal(raw, &e); err != nil {
			return err.Error()
		}
		a, b := candidateOf(rep, e.Key), candidateOf(rep, e.Than)
		if a == nil || b == nil {
			return fmt.Sprintf("%s or %s was not measured", e.Key, e.Than)
		}
		if a.Score <= b.Score {
			return fmt.Sprintf("%s scores %d, not above %s's %d", e.Key, a.Score, e.Than, b.Score)
		}
		return ""
	},
	"demandRatioBelow": func(rep *report.Report, _ string, raw json.RawMessage) string {
		var e struct {
			Key, Than string
			Ratio     float64
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return err.Error()
		}
		a, b := candidateOf(rep, e.Key), candidateOf(rep, e.Than)
		if a == nil || b == nil || a.Workload == nil || b.Workload == nil {
			return fmt.Sprintf("%s or %s has no workload", e.Key, e.Than)
		}
		if a.Workload.TotalRU >= e.Ratio*b.Workload.TotalRU {
			return fmt.Sprintf("%s needs %.0f RU/s, not below %v of %s's %.0f", e.Key, a.Workload.TotalRU, e.Ratio, e.Than, b.Workload.TotalRU)
		}
		return ""
	},
	"noFinding": func(rep *report.Report, _ string, raw json.RawMessage) string { return findings(rep, raw, false) },
	"finding":   func(rep *report.Report, _ string, raw json.RawMessage) string { return findings(rep, raw, true) },
	"timeField": func(rep *report.Report, _ string, raw json.RawMessage) string {
		var want string
		if err := json.Unmarshal(raw, &want); err != nil {
			return err.Error()
		}
		if rep.TimeField != want {
			return fmt.Sprintf("time field %q, want %q", rep.TimeField, want)
		}
		return ""
	},
	"noCandidatePathUnder": func(rep *report.Report, _ string, raw json.RawMessage) string {
		var prefix string
		if err := json.Unmarshal(raw, &prefix); err != nil {
			return err.Error()
		}
		for _, c := range rep.Candidates {
			for _, p := range c.Key.Paths {
				if strings.HasPrefix(p, prefix) {
					return fmt.Sprintf("candidate %s uses %s", c.Key.Spec, p)
				}
			}
		}
		return ""
	},
	"gradeAtMost": func(rep *report.Report, _ string, raw json.RawMessage) string {
		var e struct{ Key, Grade string }
		if err := json.Unmarshal(raw, &e); err != nil {
			return err.Error()
		}
		c := candidateOf(rep, e.Key)
		if c == nil {
			return e.Key + " was not measured"
		}
		if c.Grade < e.Grade { // A < B < ... < F: an earlier letter is a better grade
			return fmt.Sprintf("%s grades %s (%d), want %s or worse", e.Key, c.Grade, c.Score, e.Grade)
		}
		return ""
	},
	// counts name the report's fields by the casebook's names: the ids that
	// break Cosmos DB's rules (ids), and the (id, key value) pairs that
	// repeat under the case's one key (duplicateIds).
	"counts": func(rep *report.Report, _ string, raw json.RawMessage) string {
		var want map[string]int64
		if err := json.Unmarshal(raw, &want); err != nil {
			return err.Error()
		}
		if rep.IDs == nil {
			return "the report has no ids"
		}
		for name, n := range want {
			var got int64
			switch name {
			case "missingId":
				got = rep.IDs.Missing
			case "nonStringId":
				got = rep.IDs.NonString
			case "duplicateIdWithinKey":
				if len(rep.Candidates) == 0 || rep.Candidates[0].DuplicateIDs == nil {
					return "the first candidate has no duplicateIds"
				}
				got = *rep.Candidates[0].DuplicateIDs
			default:
				return fmt.Sprintf("count %q is not one this test knows", name)
			}
			if got != n {
				return fmt.Sprintf("%s is %d, want %d", name, got, n)
			}
		}
		return ""
	},
	"reportMentions": func(_ *report.Report, text string, raw json.RawMessage) string {
		var words []string
		if err := json.Unmarshal(raw, &words); err != nil {
			return err.Error()
		}
		for _, w := range words {
			if !strings.Contains(text, w) {
				return fmt.Sprintf("the report does not mention %q", w)
			}
		}
		return ""
	},
}

// findings checks that a key has (want) or has not each of some finding
// codes: {"key": ..., "codes": [...]}.
func findings(rep *report.Report, raw json.RawMessage, want bool) string {
	var e struct {
		Key   string
		Codes []string
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return err.Error()
	}
	c := candidateOf(rep, e.Key)
	if c == nil {
		return e.Key + " was not measured"
	}
	for _, code := range e.Codes {
		i := slices.IndexFunc(c.Findings, func(f report.Finding) bool { return f.Code == code })
		switch {
		case want && i < 0:
			return fmt.Sprintf("%s has no %s", e.Key, code)
		case !want && i >= 0:
			return fmt.Sprintf("%s has %s: %s", e.Key, code, c.Findings[i].Message)
		}
	}
	return ""
}
