package api

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/diagnose"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/report"
)

// exampleDir holds docs/DIAGNOSE.md's worked example, the exports pkcalc
// diagnose's tests write.
const exampleDir = "../../cmd/pkcalc/testdata/diagnose/"

type part struct{ name, file, text string }

func exampleParts(t *testing.T) []part {
	t.Helper()
	var out []part
	for _, p := range []struct{ name, file string }{{"ranges", "pkranges.json"}, {"ruLog", "ru.csv"}, {"storageLog", "storage.csv"}, {"metrics", "metrics.json"}} {
		b, err := os.ReadFile(exampleDir + p.file)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, part{p.name, p.file, string(b)})
	}
	return out
}

func postParts(t *testing.T, h http.Handler, target, accept string, parts []part) *httptest.ResponseRecorder {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, p := range parts {
		w, _ := mw.CreateFormFile(p.name, p.file)
		w.Write([]byte(p.text))
	}
	mw.Close()
	r := httptest.NewRequest(http.MethodPost, target, &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	if accept != "" {
		r.Header.Set("Accept", accept)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestDiagnose: the exports as a multipart body give the diagnosis core/diagnose
// makes of the same records, byte for byte.
func TestDiagnose(t *testing.T) {
	parts := exampleParts(t)
	w := postParts(t, Handler(Config{}), "/v1/diagnose?currentKey=/tenantId&ru=18000", "", parts)
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s: %s", w.Code, w.Header().Get("Content-Type"), w.Body.String())
	}
	cur, _ := key.Parse("/tenantId")
	in := diagnose.Input{Current: cur, Version: epk.V2}
	in.Throughput.RU = 18000
	for _, p := range parts {
		e, err := readExport(&in, p.name, exportParts[p.name], strings.NewReader(p.text))
		if err != nil {
			t.Fatal(err)
		}
		e.Name = p.file // as pkcalc diagnose names a file
		in.Exports = append(in.Exports, e)
	}
	var want bytes.Buffer
	report.WriteDiagnosisJSON(&want, diagnose.Diagnose(in))
	if w.Body.String() != want.String() {
		t.Error("the API's diagnosis differs from core/diagnose's")
	}
	var d report.Diagnosis
	json.Unmarshal(w.Body.Bytes(), &d)
	if d.HottestPartition != "3" || d.HotSpot.Cause != report.CauseOneKey || len(d.Inputs) != 4 || d.Inputs[1].Records != 1800 {
		t.Errorf("hottest %q, %+v, inputs %+v", d.HottestPartition, d.HotSpot, d.Inputs)
	}
	// Streamed, the same JSON in one event.
	w = postParts(t, Handler(Config{}), "/v1/diagnose?currentKey=/tenantId&ru=18000", "application/x-ndjson", parts)
	var ev Event
	if err := json.Unmarshal(w.Body.Bytes(), &ev); err != nil || ev.Type != "diagnosis" || ev.JSON != want.String() {
		t.Errorf("stream: %v, event %q", err, ev.Type)
	}
	w = postParts(t, Handler(Config{}), "/v1/diagnose?currentKey=/tenantId&format=markdown", "", parts)
	if w.Code != 200 || !strings.HasPrefix(w.Body.String(), "# Partition diagnosis") || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/markdown") {
		t.Errorf("markdown: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
}

// TestDiagnoseDocuments: documents come last, as a file of JSON or CSV,
// and their problems are listed with the rest used.
func TestDiagnoseDocuments(t *testing.T) {
	parts := append(exampleParts(t), part{"documents", "items.csv", "id,tenantId,categoryId\n1,contoso-outdoors,a\n2,contoso-outdoors,b\n3,x,y,z,w\n"})
	w := postParts(t, Handler(Config{}), "/v1/diagnose?currentKey=/tenantId&ru=18000&keys=/tenantId,/categoryId", "", parts)
	var d report.Diagnosis
	if err := json.Unmarshal(w.Body.Bytes(), &d); err != nil || w.Code != 200 {
		t.Fatalf("%d: %s", w.Code, w.Body.String())
	}
	docs := d.Inputs[len(d.Inputs)-1]
	if docs.Kind != report.ExportDocuments || docs.Records != 2 || docs.ErrorCount == 0 || docs.Name != "items.csv" {
		t.Errorf("documents read as %+v, want 2 and a problem", docs)
	}
	if len(d.WhatIf) != 2 || d.WhatIf[1].Key != "/tenantId,/categoryId" {
		t.Errorf("what-if %+v", d.WhatIf)
	}
	// Nothing may follow the documents.
	late := append(append([]part{}, parts[:1]...), part{"documents", "d.json", `{"id": "1", "tenantId": "a"}`}, parts[1])
	if w := postParts(t, Handler(Config{}), "/v1/diagnose?currentKey=/tenantId", "", late); w.Code != 400 || !strings.Contains(w.Body.String(), "documents last") {
		t.Errorf("a part after the documents: %d %s", w.Code, w.Body.String())
	}
}

// TestDiagnoseRefused: what the endpoint refuses, and why.
func TestDiagnoseRefused(t *testing.T) {
	h := Handler(Config{})
	parts := exampleParts(t)
	for _, tt := range []struct {
		target string
		parts  []part
		code   int
		msg    string
	}{
		{"/v1/diagnose?currentKey=/tenantId&ranges=true", parts, 400, "ranges is a part of the body, not a query parameter"},
		{"/v1/diagnose", parts, 400, "ruLog needs currentKey"},
		{"/v1/diagnose?currentKey=/tenantId&format=csv", parts, 400, "format csv is the analysis's"},
		{"/v1/diagnose?currentKey=/tenantId&ru=50", parts, 400, "ru 50 is below the least the service allows"},
		{"/v1/diagnose?currentKey=/tenantId", []part{{"logs", "x.csv", "a"}}, 400, `part \"logs\" is not one of the exports`},
		{"/v1/diagnose?currentKey=/tenantId", []part{parts[0], parts[0]}, 400, "part ranges is sent twice"},
		{"/v1/diagnose?currentKey=/tenantId", nil, 400, "nothing to diagnose"},
	} {
		if w := postParts(t, h, tt.target, "", tt.parts); w.Code != tt.code || !strings.Contains(w.Body.String(), tt.msg) {
			t.Errorf("%s: %d %s, want %d %q", tt.target, w.Code, w.Body.String(), tt.code, tt.msg)
		}
	}
	if w := post(t, h, "/v1/diagnose?currentKey=/tenantId", "application/json", "", "{}"); w.Code != 415 {
		t.Errorf("a JSON body: %d", w.Code)
	}
	if w := postParts(t, Handler(Config{MaxBodyBytes: 1000}), "/v1/diagnose?currentKey=/tenantId", "", parts); w.Code != 413 {
		t.Errorf("past the body limit: %d %s", w.Code, w.Body.String())
	}
	r := httptest.NewRequest(http.MethodGet, "/v1/diagnose", nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 405 || w.Header().Get("Allow") != "POST" {
		t.Errorf("GET: %d", w.Code)
	}
}
