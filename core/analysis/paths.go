package analysis

import (
	"errors"
	"io"

	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/paths"
)

// PathSummary is what Paths found in an input.
type PathSummary struct {
	Format    string          // how the input was read, from ingest
	Documents int             // documents kept
	Bytes     int64           // their compact JSON size
	Errors    []*ingest.Error // problems that skipped input, in input order (at most 100)
	Notes     []*ingest.Error // problems that changed a value but kept the document (at most 100)
	// Every problem and note, including those past the 100 listed.
	ErrorCount, NoteCount int
	Paths                 []paths.Path
	// OmittedPaths are the distinct paths past paths.MaxPaths, which
	// Paths leaves out (estimated), and OmittedDocuments the documents
	// that hold one.
	OmittedPaths, OmittedDocuments int
}

// Paths reads every document from r and describes their property paths,
// as the report's path table does, without choosing keys. An error reading
// the input itself (not a problem in it) is returned with the summary of
// what was read before it.
func Paths(r Source) (*PathSummary, error) {
	c := paths.New(paths.Options{})
	s := &PathSummary{}
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
		c.Add(&d.Root, d.Bytes)
	}
	s.Format = r.Format()
	s.Paths = c.Paths()
	s.OmittedPaths, s.OmittedDocuments = c.Omitted()
	return s, err
}
