package paths

import (
	"errors"
	"io"

	"github.com/pkcalc/pkcalc/core/ingest"
)

// Summary is what Discover found in an input.
type Summary struct {
	Format    string          // how the input was read, from ingest
	Documents int             // documents kept
	Bytes     int64           // their compact JSON size
	Errors    []*ingest.Error // problems that skipped input, in input order (at most 100)
	Notes     []*ingest.Error // problems that changed a value but kept the document (at most 100)
	// Every problem and note, including those past the 100 listed.
	ErrorCount, NoteCount int
	Paths                 []Path
}

// Discover reads every document from src as JSON and describes their
// paths. An error reading src itself (not a problem in the JSON) is
// returned with the summary of what was read before it.
func Discover(src io.Reader, opts Options) (*Summary, error) {
	return DiscoverFrom(ingest.NewReader(src), opts)
}

// Documents is a reader of documents: ingest's JSON Reader or its
// CSVReader.
type Documents interface {
	Next() (*ingest.Document, error) // io.EOF at the end; *ingest.Error for a problem, after which it goes on
	Format() string
}

// DiscoverFrom is Discover over documents read by r.
func DiscoverFrom(r Documents, opts Options) (*Summary, error) {
	c := New(opts)
	s := &Summary{}
	var err error
	for {
		d, e := r.Next()
		if e == io.EOF {
			break
		}
		var ie *ingest.Error
		if errors.As(e, &ie) {
			s.ErrorCount++
			if len(s.Errors) < 100 {
				s.Errors = append(s.Errors, ie)
			}
			continue
		}
		if e != nil {
			err = e
			break
		}
		s.Documents++
		s.Bytes += int64(d.Bytes)
		s.NoteCount += len(d.Notes)
		for _, n := range d.Notes {
			if len(s.Notes) < 100 {
				s.Notes = append(s.Notes, n)
			}
		}
		c.Add(&d.Root)
	}
	s.Format = r.Format()
	s.Paths = c.Paths()
	return s, err
}
