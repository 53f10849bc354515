package ingest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzCSVScanner: where the input has no line end encoding/csv does not
// know (a "\r" alone), the scanner reads the records encoding/csv reads,
// with the same fields at the same lines and columns, and the same
// errors where a quote is misplaced, up to the first quoted field that
// fails after a line end in it (which the scanner reads again from the
// line after its quote, where encoding/csv takes the lines in).
func FuzzCSVScanner(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,2\n", "a,b\r\n\"x\r\ny\",2\r\n", "a\n\n\n1\n", " a, b\n 1, \"2, 3\"\n", "a,b\n1,5\" x\n2,\"ab\"c\n3,4",
		"a;b\n\"\"\"\";\"\"\n", "a\tb\n1\t2", "a,b\n\"open\n", "a,b\n1,\"x\"\n\"y\",\n", "\u00a0a,\u3000b\n",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, in []byte, mode uint8) {
		for i, c := range in {
			if c == '\r' && (i+1 == len(in) || in[i+1] != '\n') {
				return // a line end encoding/csv does not know
			}
		}
		comma := [3]byte{',', ';', '\t'}[int(mode)%3]
		trim := mode&4 != 0 && comma != '\t'
		cr := csv.NewReader(bytes.NewReader(in))
		cr.Comma, cr.TrimLeadingSpace, cr.FieldsPerRecord = rune(comma), trim, -1
		s := newCSVScanner(iotest.OneByteReader(bytes.NewReader(in)))
		s.setComma(comma, trim)
		for n := 0; n < len(in)+2; n++ {
			want, werr := cr.Read()
			got, f := s.record()
			var pe *csv.ParseError
			switch {
			case werr == io.EOF:
				if got != nil || f != nil {
					t.Fatalf("record %d: encoding/csv ends, the scanner reads %q %+v", n, got, f)
				}
				return
			case errors.As(werr, &pe) && errors.Is(pe.Err, csv.ErrBareQuote):
				if f == nil || f.kind != faultBareQuote || f.at.line != pe.Line || f.at.col != pe.Column {
					t.Fatalf("record %d: encoding/csv says %v, the scanner %q %+v", n, werr, got, f)
				}
				continue
			case errors.As(werr, &pe) && errors.Is(pe.Err, csv.ErrQuote):
				if pe.StartLine == pe.Line && !bytes.HasSuffix(in, []byte{'"'}) && f != nil && f.kind == faultQuote && f.resume == 0 {
					if f.at.line != pe.Line || f.at.col != pe.Column {
						t.Fatalf("record %d: encoding/csv says %v, the scanner %+v", n, werr, f)
					}
					continue
				}
				return // the scanner may read again from the line after the quote
			case werr != nil:
				t.Fatalf("record %d: encoding/csv: %v", n, werr)
			}
			if f != nil || !slices.Equal(got, want) {
				t.Fatalf("record %d: encoding/csv reads %q, the scanner %q %+v", n, want, got, f)
			}
			for i := range want {
				line, col := cr.FieldPos(i)
				at := s.starts[i]
				if at.line != line || at.col != col {
					t.Fatalf("record %d field %d: encoding/csv places it at %d:%d, the scanner at %d:%d", n, i, line, col, at.line, at.col)
				}
				if pre := in[:at.off]; bytes.Count(pre, []byte("\n"))+1 != at.line || int(at.off)-(bytes.LastIndexByte(pre, '\n')+1)+1 != at.col {
					t.Fatalf("record %d field %d: offset %d is not %d:%d", n, i, at.off, at.line, at.col)
				}
			}
			if off := s.offset(); off != cr.InputOffset() {
				t.Fatalf("record %d: the scanner is at %d, encoding/csv at %d", n, off, cr.InputOffset())
			}
		}
		t.Fatalf("no end after %d records", len(in)+2)
	})
}

// TestCSVScannerGoesBack: the input a quoted field keeps to go back to is
// no more than the limit's worth, and none once the field closes.
func TestCSVScannerGoesBack(t *testing.T) {
	in := "a,b\n1,\"x\ny\",2\n" + strings.Repeat("3,4\n", 10)
	s := newCSVScanner(strings.NewReader(in))
	s.setComma(',', false)
	for {
		rec, f := s.record()
		if f != nil {
			t.Fatal(f)
		}
		if rec == nil {
			break
		}
		if s.keep != -1 {
			t.Fatalf("after %q the scanner keeps input from %d", rec, s.keep)
		}
	}
}
