package diagnose

import (
	"bytes"
	"flag"
	"io"
	"os"
	"testing"

	"github.com/pkcalc/pkcalc/core/report"
)

var update = flag.Bool("update", false, "rewrite the golden diagnoses in testdata")

// TestGolden pins the diagnoses of the scenarios, as JSON, text and
// Markdown. Run with -update after a deliberate change, and read the diff.
func TestGolden(t *testing.T) {
	for name, s := range map[string]*scenario{"hot-tenant": hotTenant(), "crowded": crowded(), "moving-hot-spot": movingHotSpot()} {
		d := Diagnose(s.input())
		for ext, write := range map[string]func(io.Writer, *report.Diagnosis) error{
			"json": report.WriteDiagnosisJSON, "txt": report.WriteDiagnosisText, "md": report.WriteDiagnosisMarkdown,
		} {
			var b bytes.Buffer
			if err := write(&b, d); err != nil {
				t.Fatal(err)
			}
			file := "testdata/" + name + "." + ext
			if *update {
				if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test ./core/diagnose -update)", err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("%s differs from what the diagnosis writes (go test ./core/diagnose -run Golden -update, then read the diff)", file)
			}
		}
	}
}
