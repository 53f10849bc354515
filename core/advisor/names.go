package advisor

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/paths"
)

// What a path's name says it holds, by the words of its last property name
// ("deviceId", "device_id" and "DeviceID" are the words device and id).
// Cosmos DB's guidance on choosing a key (partitioning-overview: "Choose a
// partition key"; /work/shared/reference/cosmos-partitioning.md,
// "Guidance") asks for a property whose value does not change, with many
// values that spread storage and requests evenly, named in the frequent
// queries; it warns against low-cardinality keys (status, type, country)
// and a time alone. So:
//
//   - identifyWords and groupWords name what a key holds well: an item's
//     identity, or the tenant, customer or device whose items go together;
//   - measureWords name readings, timings, counters and money: values
//     that say how much, not whose, which repeat by chance and spread by
//     accident, and many of which change as the item lives (a count, a
//     rating);
//   - mutableWords name what changes during an item's life: a key value
//     cannot be updated, so each change is a delete and an insert;
//   - timeWords name a moment: a time alone sends every new write to the
//     one value of the moment;
//   - proseWords name free text, and labelWords text that names its item
//     (a title), a key only where the workload looks items up by it.
//
// A name is judged by its last word first: "priceListId" identifies, and
// "idCount" counts.
var (
	identifyWords = words("id", "ids", "key", "code", "number", "no", "num", "nr", "sku", "uuid", "guid", "ref", "zip", "zipcode", "postcode", "serial", "isbn")
	groupWords    = words("tenant", "customer", "account", "user", "org", "organization", "organisation", "company", "device", "store", "shop", "site", "team",
		"workspace", "project", "partner", "merchant", "vendor", "seller", "owner", "member", "patient", "player", "household")
	measureWords = words(
		// timings
		"millis", "ms", "msec", "micros", "nanos", "duration", "latency", "elapsed", "runtime", "took", "uptime",
		// votes, likes and other counters, MongoDB's profiler's among them
		"count", "counts", "cnt", "votes", "vote", "likes", "views", "clicks", "hits", "followers", "retweets", "replies", "favorites",
		"stars", "downloads", "visits", "impressions", "returned", "nreturned", "examined", "scanned", "yield", "yields", "matched",
		"nmatched", "nmodified", "ninserted", "ndeleted",
		// money
		"gross", "takings", "revenue", "sales", "income", "profit", "cost", "costs", "price", "prices", "amount", "amounts", "total",
		"totals", "subtotal", "sum", "tax", "fee", "fees", "discount", "balance", "salary", "budget", "spend", "earnings",
		// statistics and sizes
		"avg", "average", "mean", "median", "min", "max", "rating", "ratings", "score", "scores", "rank", "percent", "percentage",
		"pct", "ratio", "rate", "population", "pop", "size", "length", "bytes", "weight", "height", "width", "depth", "distance",
		"area", "volume", "quantity", "qty", "stock",
		// sensor readings
		"temperature", "temp", "humidity", "co", "co2", "lpg", "smoke", "light", "motion", "battery", "voltage", "volt", "volts",
		"pressure", "speed", "velocity", "altitude", "rssi", "signal", "lux", "noise", "latitude", "lat", "longitude", "lon", "lng",
		"heading", "acceleration", "reading", "readings")
	mutableWords = words("status", "state", "version", "etag", "revision", "updated", "update", "modified", "changed", "synced", "ttl",
		"stage", "phase", "progress")
	timeWords  = words("time", "timestamp", "ts", "date", "datetime", "at", "on", "day", "month", "year", "hour", "week")
	proseWords = words("description", "comment", "comments", "note", "notes", "text", "body", "summary", "message", "remark", "remarks")
	// labelWords name text that names its item: prose to look at, but
	// what an application may know of each item it looks up.
	labelWords = words("title")
	// calledWords name what an item is called, a person's or a company's
	// name among them.
	calledWords = words("name", "fullname", "displayname")
	// workflowStates are values that say how far an item got, not where it
	// is: a "state" holding them changes during the item's life.
	workflowStates = words("new", "open", "opened", "active", "inactive", "pending", "queued", "running", "started", "paused", "stopped",
		"done", "complete", "completed", "closed", "cancelled", "canceled", "failed", "error", "succeeded", "success", "draft",
		"submitted", "approved", "rejected", "published", "archived", "deleted", "enabled", "disabled", "placed", "shipped",
		"delivered", "paid", "refunded", "returned", "processing", "in_progress", "inprogress", "on", "off", "online", "offline",
		"expired", "blocked", "resolved", "assigned", "ready", "idle", "busy", "available", "unavailable", "locked", "unlocked")
)

func words(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// nameWords splits a property name into lower-case words: at every
// character that is not a letter or digit, between a lower-case letter and
// an upper-case one (deviceId), before the last capital of a run followed
// by lower case (HTTPStatus), and between letters and digits (co2 is co
// and 2).
func nameWords(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 {
			prev := cur[len(cur)-1]
			switch {
			case unicode.IsUpper(r) && unicode.IsLower(prev),
				unicode.IsDigit(r) != unicode.IsDigit(prev),
				unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// lastWords is the words of a path's last property name.
func lastWords(p paths.Path) []string {
	if len(p.Segments) == 0 {
		return nil
	}
	return nameWords(p.Segments[len(p.Segments)-1])
}

// anyWord reports whether one of ws is in set.
func anyWord(ws []string, set map[string]bool) bool {
	for _, w := range ws {
		if set[w] {
			return true
		}
	}
	return false
}

// lastWord reports whether the last of ws is in set.
func lastWord(ws []string, set map[string]bool) bool {
	return len(ws) > 0 && set[ws[len(ws)-1]]
}

// identifier reports whether a path's name says it identifies something.
func identifier(p paths.Path) bool { return lastWord(lastWords(p), identifyWords) }

// groupHint reports whether a path's name says it groups documents, as
// tenants, customers or devices do.
func groupHint(p paths.Path) bool {
	ws := lastWords(p)
	return anyWord(ws, groupWords) && !measuredName(ws)
}

// measuredName reports whether a name says it holds a measurement: a
// measure word, unless the name ends by saying it identifies.
func measuredName(ws []string) bool {
	return !lastWord(ws, identifyWords) && anyWord(ws, measureWords)
}

// measurement reports whether a path holds measurements or counters
// rather than identities: by its name, or, for numbers, unless its name
// says it identifies or groups or its values behave as identifiers do.
func measurement(p paths.Path) bool {
	ws := lastWords(p)
	if measuredName(ws) {
		return true
	}
	if mainKind(p) != jsontree.Number {
		return false
	}
	if fractions(p) {
		return true
	}
	return !lastWord(ws, identifyWords) && !groupHint(p) && !numberedIdentity(p)
}

// minIdentityDocs is the fewest documents in which a number path with
// every value distinct is taken for an identifier by its values alone. An
// integer measurement takes a limited range of common values (milliseconds
// of a request, a count, a year, a price in whole units: a thousand or so),
// and n documents drawn from R values repeat one with probability
// 1 - exp(-n²/2R) (the birthday bound): 99.3 % for 100 documents over
// 1,000 values. A sequence number or an account number never repeats.
const minIdentityDocs = 100

// numberedIdentity reports whether a number path behaves as an identifier:
// every value distinct, whole numbers, in at least minIdentityDocs
// documents, and not a time.
func numberedIdentity(p paths.Path) bool {
	n := p.Types[jsontree.Number]
	return n >= minIdentityDocs && p.Distinct == n && !p.DistinctCapped && p.Documents == n &&
		!fractions(p) && !lastWord(lastWords(p), timeWords)
}

// fractions reports whether a number path's common values have fractions:
// a reading, a price, a time with sub-seconds.
func fractions(p paths.Path) bool {
	for _, v := range p.Top {
		if strings.ContainsAny(v.Value, ".eE") {
			return true
		}
	}
	return false
}

// mutable reports whether a path's name says its value changes during an
// item's life: a status, a version, the last of something (lastSeen,
// lastLogin; not lastName). A
// "state" can also be a place, as in an address: it counts as mutable
// unless every common value is a string that starts with a capital letter
// ("NY", "California") and none says how far an item got ("Active").
func mutable(p paths.Path) bool {
	ws := lastWords(p)
	if len(ws) > 1 && ws[0] == "last" && ws[1] != "name" {
		return true
	}
	for _, w := range ws {
		if w == "state" {
			if !place(p) {
				return true
			}
			continue
		}
		if mutableWords[w] {
			return true
		}
	}
	return false
}

// place reports whether a path's common values are place names or codes.
func place(p paths.Path) bool {
	if mainKind(p) != jsontree.String || len(p.Top) == 0 {
		return false
	}
	for _, v := range p.Top {
		s := strings.Trim(v.Value, `"`)
		r := []rune(s)
		if len(r) == 0 || !unicode.IsUpper(r[0]) || workflowStates[strings.ToLower(s)] {
			return false
		}
	}
	return true
}

// timeName reports whether a path's name says it holds a moment
// (createdAt, orderDate, ts).
func timeName(p paths.Path) bool { return lastWord(lastWords(p), timeWords) }

// timeValues reports whether a path holds moments by its values, whatever
// its name says (birthdate, dob, expires): text, each of its most common
// values a date or time key.Time reads, of any year. Numbers are left to
// the name: an epoch and a count look alike.
func timeValues(p paths.Path) bool {
	if mainKind(p) != jsontree.String || len(p.Top) == 0 {
		return false
	}
	for _, v := range p.Top {
		var text string
		if json.Unmarshal([]byte(v.Value), &text) != nil {
			return false
		}
		if _, ok := key.Time(&jsontree.Value{Kind: jsontree.String, Str: text}); !ok {
			return false
		}
	}
	return true
}

// freeText reports whether a path holds prose (a description, a comment,
// a title) rather than an identifier: by its name, or by values with
// spaces.
func freeText(p paths.Path) bool {
	if prose(p) || anyWord(lastWords(p), labelWords) {
		return true
	}
	// Three words or more; or two, in a path named a name, as a person's
	// or a company's is ("Claire Gute"): what the application shows, not
	// what it finds an item by.
	spaces := 2
	if lastWord(lastWords(p), calledWords) {
		spaces = 1
	}
	spaced := 0
	for _, v := range p.Top {
		if strings.Count(v.Value, " ") >= spaces {
			spaced++
		}
	}
	return len(p.Top) > 0 && spaced*2 > len(p.Top)
}

// prose reports whether a path's name says it holds prose, which no
// lookup knows.
func prose(p paths.Path) bool { return anyWord(lastWords(p), proseWords) }

// mainKind is the kind most of a path's values are.
func mainKind(p paths.Path) jsontree.Kind {
	if mix := p.TypeMix(); len(mix) > 0 {
		return mix[0].Kind
	}
	return jsontree.Null
}
