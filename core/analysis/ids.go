package analysis

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/report"
)

// Every Cosmos DB item needs an id: a string (a property named id, case
// and all: _id or Id is another property; docs: how-to-dotnet-create-item)
// of at most 1,023 bytes without / or \ (docs: concepts-limits, per-item
// limits), unique within its logical partition: the key value and the id
// identify an item (docs: partitioning-overview), and a second item with
// both is refused with 409 Conflict (docs: troubleshoot-conflict). Every
// document's id is checked against the first rules; against the last,
// under each candidate key, the first partition.HashedDocuments documents:
// of those whose id another shares (repeats), the documents whose key
// value hash is also another's (duplicates).

// idPath and mongoIDPath are the paths of an item's id, read in every
// document, and of a MongoDB export's _id, read in those without an id.
var idPath, mongoIDPath = []string{"id"}, []string{"_id"}

// maxIDExamples is how many documents that break a rule IDs.Examples names.
const maxIDExamples = 10

// idCheck counts the documents whose id breaks a rule.
type idCheck struct {
	// mongo says the documents are a MongoDB export: no id, an _id in
	// most (mongoExport). The keys then read each _id as the id.
	mongoExport bool
	// unique says no document has an id and the data is no MongoDB
	// export: each will need one of its own, so the keys read a
	// document's id as a value no other has (uniqueID).
	unique                   bool
	documents                int64 // checked so far
	missing, mongo           int64 // no id; of those, with an _id
	mongoNonString           int64 // of those, an _id that is not a string
	nonString, long, refused int64
	examples                 []report.IDExample
	// hashes are the first partition.HashedDocuments documents' id hashes
	// (xxhash; 0 for no string id), as the keys keep their value hashes
	// (partition.Distribution.ValueHashes); repeated are those of them
	// whose id hash another shares, once read (repeats).
	hashes   []uint64
	repeated []int32
}

// check checks one document's id, given its value at idPath (nil for none).
func (c *idCheck) check(id *jsontree.Value, d *ingest.Document) {
	c.documents++
	rule := ""
	switch {
	case id == nil:
		c.missing++
		if u := key.Lookup(&d.Root, mongoIDPath); u != nil {
			c.mongo++
			if u.Kind != jsontree.String {
				c.mongoNonString++
			}
		}
		rule = report.IDMissing
	case id.Kind != jsontree.String:
		c.nonString++
		rule = report.IDNonString
	default:
		if len(id.Str) > ingest.MaxIDBytes {
			c.long++
			rule = report.IDTooLong
		}
		if refused(id.Str) {
			c.refused++
			rule = cmp.Or(rule, report.IDInvalidCharacters)
		}
	}
	if rule != "" && len(c.examples) < maxIDExamples {
		c.examples = append(c.examples, report.IDExample{Document: d.Index, Line: d.Line, Rule: rule})
	}
	if c.documents > partition.HashedDocuments {
		return
	}
	var h uint64
	if id != nil && id.Kind == jsontree.String {
		h = max(xxhash.Sum64String(id.Str), 1)
	}
	if n := len(c.hashes); n == cap(c.hashes) { // doubling, as the keys' hashes do
		c.hashes = slices.Grow(c.hashes, min(max(2*n, 1024), partition.HashedDocuments)-n)
	}
	c.hashes = append(c.hashes, h)
}

// uniqueID is the id a document without one is read with when none has
// one: its own, as the GUID an import gives it. It is a hash of the values
// read in it (the keys' paths and idSources) and of its size, so that it
// depends on the document, not on where it comes in the input; documents
// alike in all of those share one.
func uniqueID(values []*jsontree.Value, bytes int) *jsontree.Value {
	var h xxhash.Digest
	var b [9]byte
	for _, v := range values {
		if v == nil {
			h.Write(b[:1]) // b[0] is 0: absent
			continue
		}
		b[0] = byte(v.Kind) + 1
		binary.LittleEndian.PutUint64(b[1:], math.Float64bits(v.Num))
		h.Write(b[:])
		h.WriteString(v.Str)
		binary.LittleEndian.PutUint64(b[1:], uint64(len(v.Str)))
		h.Write(b[1:]) // ends the string: "ab","c" is not "a","bc"
	}
	binary.LittleEndian.PutUint64(b[1:], uint64(bytes))
	h.Write(b[1:])
	return &jsontree.Value{Kind: jsontree.String, Str: "pkcalc-" + strconv.FormatUint(h.Sum64(), 16)}
}

// idSources are the paths that tell documents apart best, beside those
// the keys read, for uniqueID: the three with the most distinct values,
// ties by path text. A key of /id alone reads nothing else, and every
// document looked alike to it.
func idSources(ps []paths.Path) [][]string {
	var c []paths.Path
	for _, p := range ps {
		if p.Segments != nil && !p.InArray && p.Distinct > 1 {
			c = append(c, p)
		}
	}
	slices.SortFunc(c, func(a, b paths.Path) int {
		return cmp.Or(cmp.Compare(b.Distinct, a.Distinct), strings.Compare(a.Path, b.Path))
	})
	var out [][]string
	for _, p := range c[:min(len(c), 3)] {
		out = append(out, p.Segments)
	}
	return out
}

// refused reports whether an id holds a character the service refuses;
// each is ASCII, so a search for its byte finds it.
func refused(id string) bool {
	for i := range len(ingest.IDRefused) {
		if strings.IndexByte(id, ingest.IDRefused[i]) >= 0 {
			return true
		}
	}
	return false
}

// repeats finds the documents whose id hash another shares, in a table of
// open addressing at most half full, each slot the hash and its first
// document.
func (c *idCheck) repeats() {
	size := tableSize(len(c.hashes))
	slots, first := make([]uint64, size), make([]int32, size)
	mask := uint64(size - 1)
	for i, h := range c.hashes {
		if h == 0 {
			continue
		}
		j := h & mask
		for slots[j] != 0 && slots[j] != h {
			j = (j + 1) & mask
		}
		switch {
		case slots[j] == 0:
			slots[j], first[j] = h, int32(i)
		case first[j] >= 0:
			c.repeated = append(c.repeated, first[j])
			first[j] = -1
			fallthrough
		default:
			c.repeated = append(c.repeated, int32(i))
		}
	}
}

// duplicates counts the documents whose id and key value are those of
// another before them, given the key's value hashes: only those whose id
// another shares can be, so data whose ids are unique costs nothing here.
func (c *idCheck) duplicates(values []uint64) int64 {
	size := tableSize(len(c.repeated))
	slots := make([][2]uint64, size) // id hash, value hash; the id's is never 0
	mask, shift := uint64(size-1), 64-bits.TrailingZeros(uint(size))
	var n int64
	for _, i := range c.repeated {
		if int(i) >= len(values) || values[i] == 0 {
			continue // in no logical partition
		}
		pair := [2]uint64{c.hashes[i], values[i]}
		// The slot from the product's high bits, where every bit of both
		// hashes counts.
		j := (pair[0] ^ bits.RotateLeft64(pair[1], 32)) * 0x9E3779B97F4A7C15 >> shift
		for slots[j] != pair && slots[j][0] != 0 {
			j = (j + 1) & mask
		}
		if slots[j] == pair {
			n++
		}
		slots[j] = pair
	}
	return n
}

// tableSize is the slots of a table of open addressing for n entries: a
// power of two at least 2n.
func tableSize(n int) int { return 1 << bits.Len(uint(max(2*n-1, 1))) }

// report is the check as the report has it.
func (c *idCheck) report() *report.IDs {
	return &report.IDs{Missing: c.missing, MissingWithUnderscoreID: c.mongo, UnderscoreIDAsID: c.mongoExport, MissingAsUnique: c.unique, UnderscoreIDNonString: c.mongoNonString, NonString: c.nonString, TooLong: c.long, InvalidCharacters: c.refused,
		DuplicatesChecked: int64(len(c.hashes)), Examples: append([]report.IDExample{}, c.examples...)}
}

// mongoExport reports whether the path table is a MongoDB export's: no
// document has an id, and most have an _id that could be one. Such data
// is imported with _id mapped to id, so pkcalc reads it so: the path
// table's /_id becomes /id, and each key reads a document's _id where its
// id would be.
func mongoExport(ps []paths.Path, docs int) bool {
	id, underscore := false, false
	for _, p := range ps {
		switch p.Path {
		case "/id":
			id = true
		case "/_id":
			underscore = p.Usable && 2*p.Documents > docs
		}
	}
	return !id && underscore
}

// asID renames a MongoDB export's /_id as /id in a path table.
func asID(ps []paths.Path) []paths.Path {
	out := slices.Clone(ps)
	for i, p := range out {
		if p.Path == "/_id" {
			out[i].Path, out[i].Segments = "/id", idPath
		}
	}
	return out
}

// idNotice says how many documents break each rule for an item's id, and
// what to do, or returns nil when none does. cands are the candidates as
// the report lists them.
// meant is the path the documents probably hold their id at, under a name
// that reads as id but is not (idMeant), or "".
func idNotice(ids *report.IDs, cands []report.Candidate, documents int64, meant string) *report.Notice {
	if ids == nil {
		return nil
	}
	docs := func(n int64, one, many string) string {
		return human.Count(n) + " " + human.Plural(n, "document "+one, "documents "+many)
	}
	var says []string
	if n := ids.Missing; n > 0 {
		switch m := ids.MissingWithUnderscoreID; {
		case m == n && ids.UnderscoreIDAsID:
			says = append(says, docs(n, "has", "have")+" no id but a MongoDB _id: map _id to id before the import"+underscoreIDForm(ids)+" Every figure here reads each _id as the id, as such an import does: /id is the _id.")
		case m == n:
			says = append(says, docs(n, "has", "have")+" no id but a MongoDB _id: map _id to id before the import"+underscoreIDForm(ids))
		case m > 0:
			says = append(says, fmt.Sprintf("%s no id, %s of them a MongoDB _id: map _id to id before the import, and give the rest an id.", docs(n, "has", "have"), human.Count(m))+underscoreIDStrings(ids))
		case meant != "":
			say := docs(n, "has", "have") + " no id, but " + meant + " reads as one: rename it id before the import."
			if ids.MissingAsUnique {
				say += " Every figure here reads each document's id as one of its own: /id is unique."
			}
			says = append(says, say)
		case ids.MissingAsUnique:
			says = append(says, docs(n, "has", "have")+" no id: give each one, a GUID if nothing in it names it. Every figure here reads each document's id as one of its own, as such an id is: /id is unique.")
		default:
			says = append(says, docs(n, "has", "have")+" no id: give each one, a GUID if nothing in it names it.")
		}
	}
	if n := ids.NonString; n > 0 {
		says = append(says, docs(n, "holds", "hold")+` an id that is not a string (a number, null, a boolean, an object or an array): write it as a string, "1004" rather than 1004.`)
	}
	if n := ids.TooLong; n > 0 {
		says = append(says, fmt.Sprintf("%s an id over %s bytes: shorten it.", docs(n, "holds", "hold"), human.Count(ingest.MaxIDBytes)))
	}
	if n := ids.InvalidCharacters; n > 0 {
		says = append(says, docs(n, "holds", "hold")+` an id with / or \ in it: replace them, or encode the id (Base64 with - and _ for + and /).`)
	}
	if d := duplicates(cands); d != "" {
		if documents > ids.DuplicatesChecked {
			d += fmt.Sprintf(" (Only the first %s documents are checked for this.)", human.Count(ids.DuplicatesChecked))
		}
		says = append(says, d)
	}
	if len(says) == 0 {
		return nil
	}
	return &report.Notice{Code: report.IDRules, Message: fmt.Sprintf(`Cosmos DB needs every item to have an id, a string of at most %s bytes without / or \, unique within its logical partition. %s`,
		human.Count(ingest.MaxIDBytes), strings.Join(says, " "))}
}

// underscoreIDForm ends the advice to map _id to id with what the ids
// become: an ObjectId its hex digits, an _id that is not a string (books
// numbered 1, 2, 3) a string, as an id must be.
func underscoreIDForm(ids *report.IDs) string {
	if ids.UnderscoreIDNonString < ids.MissingWithUnderscoreID {
		return " (an ObjectId reads as its 24 hex digits)." + underscoreIDStrings(ids)
	}
	return "." + underscoreIDStrings(ids)
}

// underscoreIDStrings says how many _id are not strings, and what to do;
// "" when all are.
func underscoreIDStrings(ids *report.IDs) string {
	switch k := ids.UnderscoreIDNonString; {
	case k == 0:
		return ""
	case k == ids.MissingWithUnderscoreID:
		return ` No _id here is a string, and an id must be one: write each as a string in the import, "1004" rather than 1004.`
	default:
		return fmt.Sprintf(` %s of the _id %s, and an id must be one: write each as a string in the import, "1004" rather than 1004.`,
			human.Count(k), human.Plural(k, "is not a string", "are not strings"))
	}
}

// duplicates says under which keys documents repeat an id within a
// logical partition, naming the first three in the report's order; "" for
// none.
func duplicates(cands []report.Candidate) string {
	var under []string
	var first int64 // the first key's duplicates, and the key
	var firstKey string
	others := 0
	for _, c := range cands {
		switch {
		case c.DuplicateIDs == nil || *c.DuplicateIDs == 0:
		case len(under) == 3:
			others++
		default:
			if len(under) == 0 {
				first, firstKey = *c.DuplicateIDs, c.Key.Spec
			}
			under = append(under, fmt.Sprintf("%s under %s", human.Count(*c.DuplicateIDs), c.Key.Spec))
		}
	}
	const refused = "the id of an earlier one with the same key value, which the service refuses with 409 Conflict"
	const remedy = "Make each id unique within its key value (drop a second copy of one item), or choose a key that tells them apart."
	switch {
	case len(under) == 0:
		return ""
	case len(under) == 1:
		return fmt.Sprintf("Under %s, %s %s %s. %s", firstKey, human.Count(first), human.Plural(first, "document repeats", "documents repeat"), refused, remedy)
	case others > 0:
		return fmt.Sprintf("Documents repeat %s: %s and more under %d other %s. %s", refused, strings.Join(under, ", "), others, human.Plural(int64(others), "key", "keys"), remedy)
	}
	return fmt.Sprintf("Documents repeat %s: %s and %s. %s", refused, strings.Join(under[:len(under)-1], ", "), under[len(under)-1], remedy)
}
