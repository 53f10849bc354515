package partition

// Traffic is how requests spread over key values.
type Traffic string

const (
	ByDocuments Traffic = "documents" // in proportion to each key value's documents
	Uniform     Traffic = "uniform"   // the same for every key value
	ByWeight    Traffic = "weighted"  // in proportion to the weight field or the aggregates' requests
)

// Shares returns each physical partition's share of the requests, and the
// largest share any one logical partition takes.
func (d *Distribution) Shares(phys []Physical, t Traffic) (partitions []float64, hottestLogical float64) {
	if t == ByWeight && !d.Weighted {
		t = ByDocuments
	}
	weight := func(docs, logical int64, req float64) float64 {
		switch t {
		case Uniform:
			return float64(logical)
		case ByWeight:
			return req
		}
		return float64(docs)
	}
	partitions = make([]float64, len(phys))
	var total float64
	for i, p := range phys {
		partitions[i] = weight(p.Documents, p.LogicalPartitions, p.Requests)
		total += partitions[i]
	}
	if total == 0 {
		return partitions, 0
	}
	for i := range partitions {
		partitions[i] /= total
	}
	for l := range d.All() {
		hottestLogical = max(hottestLogical, weight(l.Documents, 1, l.Requests)/total)
	}
	return partitions, hottestLogical
}

// Shares returns each physical partition's share of the requests at the
// target scale, where they follow the data as it will be: the values to
// come, spread over the key space, take most of a growing key's requests,
// and the sample's chance counts per partition would make a perfectly even
// key look hot; and the largest share one logical partition takes.
func (p Projection) Shares(t Traffic, weighted bool) (partitions []float64, hottestLogical float64) {
	if t == ByWeight && !weighted {
		t = ByDocuments
	}
	if len(p.Physical) == 0 {
		return nil, 0
	}
	out := make([]float64, len(p.Physical))
	var total float64
	for i, ph := range p.Physical {
		switch t {
		case Uniform:
			out[i] = p.values[i]
		case ByWeight:
			out[i] = ph.Requests
		default:
			out[i] = float64(ph.Documents)
		}
		total += out[i]
	}
	if total == 0 {
		return nil, 0
	}
	for i := range out {
		out[i] /= total
	}
	hot := float64(p.hottestDocs)
	switch t {
	case Uniform:
		hot = 1
	case ByWeight:
		hot = p.hottestRequests
	}
	return out, min(1, hot/total)
}

// requests is the request weight of every document counted.
func (d *Distribution) requests() float64 {
	r := d.Overflow.Requests
	for _, l := range d.Logical {
		r += l.Requests
	}
	return r
}
