package plan

import (
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/report"
)

// ForCandidate are the plans that apply to candidate x of analysis r, from
// the report's figures: the bulk load of its target size, and, when x's
// workload advises other RU/s than the container starts with, the scale
// to them. A plan the figures do not allow (no size, RU/s off the
// service's steps) is left out. Hierarchy is not among them: it needs the
// documents, which a report does not hold.
func ForCandidate(r *report.Report, x report.Candidate) []Plan {
	var out []Plan
	c := Container{RU: r.Settings.RU, Autoscale: r.Settings.Autoscale, StorageGB: float64(x.Projection.Bytes) / (1 << 30)}
	ld := Load{Documents: float64(x.Projection.Documents)}
	if x.Projection.Documents > 0 {
		ld.DocKB = float64(x.Projection.Bytes) / float64(x.Projection.Documents) / 1024
	}
	if w := x.Workload; w != nil && w.WriteRU > 0 {
		ld.WriteRU = w.WriteRU
	}
	if spec, err := key.Parse(x.Key.Spec); err == nil {
		ld.Key = spec
	}
	if p, err := Ingest(c, ld); err == nil {
		out = append(out, p)
	}
	if w := x.Workload; w != nil && w.LeastRU != nil && c.RU > 0 && *w.LeastRU != c.RU {
		if p, err := Scale(c, *w.LeastRU); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// ForDiagnosis are the plans that apply to the container d diagnoses, on
// the ranges it was given: the redistribution its REDISTRIBUTE action
// targets, the scale to the RU/s its RAISE_RU action names, and a merge
// when the container is a merge candidate. Its storage is what the
// storage log shows, a floor (it lists the largest keys only).
func ForDiagnosis(d *report.Diagnosis) []Plan {
	c := Container{RU: d.Settings.RU, Autoscale: d.Settings.Autoscale}
	for _, p := range d.Partitions {
		c.StorageGB += p.StorageKb / (1 << 20)
		if p.Listed {
			c.Ranges = append(c.Ranges, Range{ID: p.ID, Range: epk.Range{MinInclusive: p.MinInclusive, MaxExclusive: p.MaxExclusive}, ThroughputFraction: p.ShareRuPerSecond})
		}
	}
	if c.RU <= 0 || len(c.Ranges) == 0 {
		return nil
	}
	var out []Plan
	for _, a := range d.Actions {
		switch a.Code {
		case report.ActionRedistribute:
			var ds []Demand
			for _, t := range a.Targets {
				ds = append(ds, Demand{ID: t.Partition, ConsumedRU: float64(t.RU)})
			}
			if p, err := Redistribute(c, ds); err == nil && len(ds) > 0 {
				out = append(out, p)
			}
		case report.ActionRaiseRU:
			if a.RU > 0 && a.RU != c.RU {
				if p, err := Scale(c, a.RU); err == nil {
					out = append(out, p)
				}
			}
		}
	}
	if p, err := Merge(c); err == nil && len(p.Steps) > 0 {
		out = append(out, p)
	}
	return out
}
