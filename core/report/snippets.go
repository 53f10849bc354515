package report

import (
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/provision"
)

// Snippets are the commands and code that create the container of c, a
// candidate of r: its key under its hash version, with the throughput of
// container. The page's tabs, the Markdown report and pkcalc analyze
// --emit show these, so that each creates the same container. Nil when
// c's key does not read as a key.
func Snippets(r *Report, c Candidate) []provision.Snippet {
	spec, err := key.Parse(c.Key.Spec)
	if err != nil {
		return nil
	}
	return provision.Snippets(spec, epk.Version(c.Key.Version), container(r, c))
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

// container is the throughput to create c's container with: the RU/s
// given; else, when the workload needs more than the least allowed, the
// least at which no partition throttles (created with CreateRU and raised
// after loading when the analysis says so); else the RU/s the key was
// modelled at, when it has a workload; else none.
func container(r *Report, c Candidate) provision.Container {
	out := provision.Container{RU: r.Settings.RU, Autoscale: r.Settings.Autoscale}
	if out.RU > 0 || len(c.PhysicalPartitions) == 0 || c.Workload == nil {
		return out
	}
	w := c.Workload
	out.RU = w.RU
	if w.LeastRU != nil && *w.LeastRU > out.RU {
		out.RU = *w.LeastRU
		if w.CreateRU > 0 && w.CreateRU < out.RU {
			out.RU, out.RaiseTo = w.CreateRU, *w.LeastRU
		}
	}
	return out
}
