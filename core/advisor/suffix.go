package advisor

import (
	"fmt"
	"math"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
)

// A computed suffix hash(/x)%N spreads each value of the rest of a
// synthetic key over N logical partitions. Each holds at most 20 GB and
// serves at most 10,000 RU/s (concepts-limits), so N is chosen to keep the
// largest value's share of each suffix under half of both at the target,
// leaving room to grow; and no larger, since a query for one value of the
// rest must read all N suffixes.
const (
	suffixBytes = capacity.LogicalPartitionMaxBytes / 2
	suffixRU    = capacity.PartitionMaxRU / 2
)

// suffixesNeeded is how many logical partitions a value with bytesShare
// of the data and writeShare of the writes needs to stay under half of
// each limit at targetBytes and writeRU: 1 or less when one is enough.
func suffixesNeeded(bytesShare, writeShare float64, targetBytes int64, writeRU float64) int {
	bytes := math.Ceil(bytesShare * float64(targetBytes) / float64(suffixBytes))
	ru := math.Ceil(writeShare * writeRU / suffixRU)
	return int(min(max(bytes, ru), key.MaxModulus))
}

// suffixCount is the N of a computed suffix for such a value: the fewest
// that suffixesNeeded allows, at least 2 and at most key.MaxModulus.
func suffixCount(bytesShare, writeShare float64, targetBytes int64, writeRU float64) int {
	return max(2, suffixesNeeded(bytesShare, writeShare, targetBytes, writeRU))
}

// SuffixRoom is how far the N of a computed suffix holds.
type SuffixRoom struct {
	Modulus int // N
	// Bytes is the container's size at which the largest value of the rest
	// of the key fills each of its N suffixes to 20 GB: N x 20 GB / share.
	Bytes int64
	// WriteRU is the write rate at which that value's writes pass 10,000
	// RU/s on each suffix: N x 10,000 / its share of the writes.
	WriteRU float64
	Message string // the same in a sentence
}

// SuffixHolds says how far the computed suffix of spec holds, given the
// share of the documents (share) and of the writes (writeShare; 0 or less:
// as share) that the largest value of the rest of the key takes. Past
// either figure N must grow, and a new N changes the key of every item. ok
// is false when spec has no computed suffix or share is not above 0 and
// at most 1.
func SuffixHolds(spec key.Spec, share, writeShare float64) (room SuffixRoom, ok bool) {
	if spec.Kind != key.Synthetic || !(share > 0 && share <= 1) {
		return SuffixRoom{}, false
	}
	var suffix key.Term
	var rest []string
	for _, t := range spec.Terms {
		if t.Modulus > 0 && suffix.Modulus == 0 {
			suffix = t
		} else {
			rest = append(rest, t.String())
		}
	}
	if suffix.Modulus == 0 {
		return SuffixRoom{}, false
	}
	if !(writeShare > 0 && writeShare <= 1) {
		writeShare = share
	}
	n := float64(suffix.Modulus)
	room = SuffixRoom{
		Modulus: suffix.Modulus,
		Bytes:   int64(min(n*float64(capacity.LogicalPartitionMaxBytes)/share, math.MaxInt64)),
		WriteRU: n * capacity.PartitionMaxRU / writeShare,
	}
	of := " of " + strings.Join(rest, "+")
	if len(rest) == 0 {
		of = "" // the suffix alone: its values are the suffixes
	}
	room.Message = fmt.Sprintf("%s holds while the largest value%s (%s of the data, %s of the writes) fits its %s suffixes: "+
		"up to %s in all (%s x 20 GB / %s) and %s RU/s of writes (%s x 10,000 RU/s / %s). Past either, N must grow, "+
		"and a new N changes every item's key: each item is deleted and written again.",
		suffix, of, human.Percent(share), human.Percent(writeShare), human.Count(int64(suffix.Modulus)),
		human.Bytes(room.Bytes), human.Count(int64(suffix.Modulus)), human.Percent(share),
		human.Count(int64(math.Round(min(room.WriteRU, 1e15)))), human.Count(int64(suffix.Modulus)), human.Percent(writeShare))
	return room, true
}
