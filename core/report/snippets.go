package report

import (
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/provision"
)

// Snippets are the commands and code that create the container of c, a
// candidate of r: its key under its hash version, with the throughput r
// was made with (the RU/s given, manual or an autoscale maximum; without
// them, those the workload was put on, the least the service allows for
// the data; with neither, no dedicated throughput). The page's tabs, the
// Markdown report and pkcalc analyze --emit show these, so that each
// creates the same container. Nil when c's key does not read as a key.
func Snippets(r *Report, c Candidate) []provision.Snippet {
	spec, err := key.Parse(c.Key.Spec)
	if err != nil {
		return nil
	}
	ru := r.Settings.RU
	if ru == 0 && len(c.PhysicalPartitions) > 0 && c.Workload != nil {
		ru = c.Workload.RU
	}
	return provision.Snippets(spec, epk.Version(c.Key.Version), provision.Container{RU: ru, Autoscale: r.Settings.Autoscale})
}

// Recommended is the report's recommended candidate, if it has one.
func Recommended(r *Report) (Candidate, bool) {
	for _, c := range r.Candidates {
		if r.Recommended != "" && c.Key.Spec == r.Recommended {
			return c, true
		}
	}
	return Candidate{}, false
}
