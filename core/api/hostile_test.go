package api

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/internal/hostile"
)

// hostileAnswers is the API's answer to each input: its status, and for
// 200 the documents and errors the report lists. 400 is for an input of
// which no document could be read, or with no document in it at all.
var hostileAnswers = map[string]struct{ status, docs, errors int }{
	"empty.json":                    {400, 0, 0},
	"whitespace-only.json":          {400, 0, 0},
	"bom-only.json":                 {400, 0, 0},
	"empty-array.json":              {400, 0, 0},
	"truncated-array.json":          {200, 2, 1},
	"truncated-object.json":         {400, 0, 1},
	"truncated-jsonl.jsonl":         {200, 2, 1},
	"truncated-wrapper.json":        {200, 2, 1},
	"unterminated-string.jsonl":     {200, 1, 1},
	"unterminated-string-eof.json":  {200, 1, 1},
	"invalid-utf8.jsonl":            {200, 3, 0},
	"utf16le-bom.json":              {400, 0, 1},
	"utf16le-nobom.jsonl":           {400, 0, 1},
	"nan-infinity.jsonl":            {200, 2, 3},
	"numbers-beyond-double.jsonl":   {200, 5, 0},
	"bad-numbers.jsonl":             {200, 2, 7},
	"duplicate-keys.jsonl":          {200, 2, 0},
	"bom-start.jsonl":               {200, 2, 0},
	"bom-middle.jsonl":              {200, 3, 0},
	"bom-in-value.jsonl":            {200, 2, 1},
	"image.png":                     {400, 0, 1},
	"documents.json.gz":             {400, 0, 1},
	"workbook.xlsx":                 {400, 0, 1},
	"mongodump.bson":                {400, 0, 1},
	"not-object-number.json":        {400, 0, 1},
	"not-object-string.json":        {400, 0, 1},
	"not-object-null.json":          {400, 0, 1},
	"array-of-scalars.json":         {400, 0, 5},
	"array-of-arrays.json":          {400, 0, 2},
	"mixed-types.jsonl":             {200, 7, 0},
	"special-keys.json":             {200, 2, 0},
	"lone-surrogates.json":          {200, 4, 0},
	"control-characters.jsonl":      {200, 1, 2},
	"crlf-mix.jsonl":                {200, 5, 1},
	"nul-bytes.jsonl":               {200, 2, 2},
	"comments.json":                 {200, 1, 2},
	"comment-lines.jsonl":           {200, 2, 1},
	"trailing-comma-array.json":     {200, 2, 1},
	"trailing-comma-object.jsonl":   {200, 1, 1},
	"single-quotes.json":            {400, 0, 1},
	"smart-quotes.json":             {400, 0, 1},
	"unquoted-keys.jsonl":           {200, 1, 1},
	"python-literals.jsonl":         {200, 1, 1},
	"mongo-shell.json":              {400, 0, 1},
	"mongo-legacy-shell.jsonl":      {200, 1, 2},
	"missing-comma.json":            {200, 1, 1},
	"missing-colon.jsonl":           {200, 1, 1},
	"unbalanced-brackets.jsonl":     {200, 2, 2},
	"garbage-after-array.json":      {200, 1, 1},
	"bad-escapes.jsonl":             {200, 1, 2},
	"html-page.html":                {400, 0, 1},
	"csv-as-json.csv":               {400, 0, 1},
	"json-seq.json":                 {400, 0, 1},
	"script-payloads.jsonl":         {200, 3, 0},
	"extended-json-edge.jsonl":      {200, 3, 0},
	"deep-128.json":                 {200, 1, 0},
	"deep-129.json":                 {400, 0, 1},
	"deep-129-arrays.jsonl":         {200, 2, 1},
	"deep-10000.jsonl":              {200, 2, 1},
	"deep-10000-unclosed.json":      {400, 0, 1},
	"string-10mb.jsonl":             {413, 0, 0},
	"number-500k-digits.json":       {200, 1, 0},
	"document-3mb.jsonl":            {200, 2, 1},
	"document-3mb-single.json":      {400, 0, 1},
	"array-100k-empty-objects.json": {200, 100000, 0},
	"long-line.jsonl":               {200, 1, 1},
	"garbage-lines.jsonl":           {400, 0, 100},
	"many-bad-documents.jsonl":      {400, 0, 100},
	"blank-lines.jsonl":             {400, 0, 1},
	"wide-document.json":            {200, 1, 0},
	"cut-after-colon.jsonl":         {200, 2, 1},
	"cut-after-bracket.jsonl":       {200, 2, 1},
	"cut-after-comma.jsonl":         {200, 2, 2},
	"cut-after-brace.jsonl":         {200, 1, 1},
	"cut-before-last-line.jsonl":    {200, 2, 1},
	"cut-crlf.jsonl":                {200, 2, 1},
	"non-document-lines.jsonl":      {200, 1, 6},
	"pretty-bad-then-garbage.json":  {200, 1, 2},
	"concatenated-after-error.json": {200, 2, 1},
	"cr-only.jsonl":                 {200, 2, 1},
	"cr-only-open-string.jsonl":     {200, 1, 1},
	"mixed-line-ends.jsonl":         {200, 4, 1},
	"duplicate-wrapper.json":        {200, 3, 0},
	"second-wrapper-array.json":     {200, 2, 0},
	"duplicate-array-property.json": {200, 1, 0},
	"number-3mb.jsonl":              {200, 2, 1},
	"number-3mb-in-array.json":      {200, 2, 1},
	"garbage-amid-documents.jsonl":  {200, 2, 150},
	"cr-only.csv":                   {200, 3, 0},
	"mixed-line-ends.csv":           {200, 4, 0},
	"unclosed-quote.csv":            {200, 3, 1},
	"stray-quote.csv":               {200, 4, 1},
	"csv-digits-3mb.csv":            {200, 1, 1},
	"csv-quote-3mb-one-line.csv":    {200, 1, 1},
	"csv-open-quote-lines.csv":      {200, 50001, 1},
	"c1-control-name.jsonl":         {200, 6, 0},
	"bidi-override-value.jsonl":     {200, 8, 0},
	"bidi-isolate-name.jsonl":       {200, 8, 0},
	"backtick-names.jsonl":          {200, 8, 0},
	"pipe-and-newline-names.jsonl":  {200, 8, 0},
	"markdown-injection.jsonl":      {200, 8, 0},
	"terminal-escape-value.jsonl":   {200, 8, 0},
	"extreme-numbers.jsonl":         {200, 8, 0},
	"number-beyond-double.jsonl":    {200, 4, 0},
	"zero-width-lookalikes.jsonl":   {200, 8, 0},
	"table-lines.jsonl":             {200, 5, 2},
	"table-array.json":              {200, 4, 0},
	"table-header-names.jsonl":      {200, 4, 0},
	"table-header-alone.jsonl":      {400, 0, 1},
	"bom-in-name.jsonl":             {200, 6, 0},
	"invisible-names.jsonl":         {200, 6, 0},
	"bom-twice.csv":                 {200, 3, 0},
	"lone-surrogates.jsonl":         {200, 6, 0},
	"nul-in-names.jsonl":            {200, 6, 0},
	"path-syntax-names.jsonl":       {200, 6, 0},
	"id-refused-characters.jsonl":   {200, 8, 0},
	"noncharacter-names.jsonl":      {200, 6, 0},
	"many-property-names":           {200, 3000, 0},
}

const hostileLimit = 8 << 20

// TestHostile sends every hostile input to the API as a person or a
// program might: with its length, streamed without one, and asking for
// NDJSON progress. Every answer is JSON, none is a 5xx, and each says what
// pkcalc says of the input.
func TestHostile(t *testing.T) {
	h := Handler(Config{MaxBodyBytes: hostileLimit})
	seen := map[string]bool{}
	for _, c := range hostile.Cases(t) {
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			want, ok := hostileAnswers[c.Name]
			if !ok {
				t.Fatalf("no answer for %s in hostileAnswers", c.Name)
			}
			in := c.Input(t)
			ct := "application/json"
			if c.Format == "csv" {
				ct = "text/csv"
			}
			for _, sized := range []bool{true, false} {
				var body io.Reader = bytes.NewReader(in)
				if !sized {
					body = io.MultiReader(body) // no length: read until the limit
				}
				r := httptest.NewRequest(http.MethodPost, "/v1/analyze", body)
				r.Header.Set("Content-Type", ct)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				checkAnswer(t, w, want.status, want.docs, want.errors)
			}
			streamed(t, h, in, ct, want.status, want.docs)
			if len(in) < 64<<10 && want.status == 200 {
				// The other formats render the same hostile text.
				for _, f := range []string{"markdown", "csv", "text"} {
					w := post(t, h, "/v1/analyze?format="+f, ct, "", string(in))
					if w.Code != 200 || w.Body.Len() == 0 {
						t.Errorf("format=%s: %d %.200s", f, w.Code, w.Body.String())
					}
				}
			}
		})
	}
	for name := range hostileAnswers {
		if !seen[name] {
			t.Errorf("hostileAnswers has %s, which cases.json does not list", name)
		}
	}
}

func checkAnswer(t *testing.T, w *httptest.ResponseRecorder, status, docs, errs int) {
	t.Helper()
	if w.Code >= 500 || w.Code != status {
		t.Fatalf("status %d, want %d: %.300s", w.Code, status, w.Body.String())
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	if !json.Valid(w.Body.Bytes()) {
		t.Fatalf("the body is not JSON: %.300s", w.Body.String())
	}
	if status != 200 {
		var e struct{ Error Error }
		if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error.Status != status {
			t.Fatalf("error body %.300s (%v)", w.Body.String(), err)
		}
		msg := e.Error.Message
		switch status {
		case 400:
			// What is wrong, and where; or that there was nothing at all.
			switch {
			case errs == 0:
				if !strings.HasPrefix(msg, "the input holds no documents (") {
					t.Errorf("400 for an empty input says %q", msg)
				}
			case !strings.HasPrefix(msg, "no document could be read; line ") || !strings.Contains(msg, ", column "):
				t.Errorf("400 says %q", msg)
			}
		case 413:
			if !strings.Contains(msg, strconv.Itoa(hostileLimit)) {
				t.Errorf("413 says %q", msg)
			}
		}
		return
	}
	var rep report.Report
	if err := json.Unmarshal(w.Body.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if int(rep.Documents) != docs || rep.Input.ErrorCount != errs || len(rep.Input.Errors) != min(errs, 100) {
		t.Errorf("%d documents, %d errors (%d listed); want %d and %d", rep.Documents, rep.Input.ErrorCount, len(rep.Input.Errors), docs, errs)
	}
	for _, p := range rep.Input.Errors {
		if p.Line < 1 || p.Column < 1 || p.Message == "" {
			t.Errorf("an error without its place: %+v", p)
		}
	}
}

// streamed asks for NDJSON: the status is 200 before the input is read,
// so the last event is the report or the error with its status.
func streamed(t *testing.T, h http.Handler, in []byte, ct string, status, docs int) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/v1/analyze", io.MultiReader(bytes.NewReader(in)))
	r.Header.Set("Content-Type", ct)
	r.Header.Set("Accept", "application/x-ndjson")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 {
		t.Fatalf("streamed: status %d", w.Code)
	}
	var last Event
	sc := bufio.NewScanner(w.Body)
	sc.Buffer(nil, 256<<20)
	for sc.Scan() {
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatalf("streamed: a line that is not JSON: %.200s", sc.Text())
		}
	}
	switch {
	case status == 200:
		var rep report.Report
		if err := json.Unmarshal([]byte(last.JSON), &rep); last.Type != "report" || err != nil || int(rep.Documents) != docs {
			t.Errorf("streamed: last event %s (%v), %d documents", last.Type, err, rep.Documents)
		}
	case last.Type != "error" || last.Error == nil || last.Error.Status != status || last.Error.Message == "":
		t.Errorf("streamed: last event %+v, want an error %d", last, status)
	}
}
