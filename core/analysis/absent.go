package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/report"
)

// keysAbsent are the named keys with a path that no document of the path
// table holds: Cosmos DB would store every item under the undefined value,
// and the key's figures say only that. The likeliest reason is a name
// that reads as the key's but is not (a byte order mark before it, a
// zero-width space in it, another case, a typing slip), so each says
// which path of the documents it probably meant. A key that steps into an
// array is KEY_IN_ARRAY's, and past paths.MaxPaths a path may be among
// those the table leaves out: neither is said here.
func (a *analysis) keysAbsent() []report.Notice {
	if a.described == 0 || a.omittedPaths > 0 {
		return nil
	}
	have := make(map[string]bool, len(a.paths))
	for _, p := range a.paths {
		have[p.Path] = true
	}
	// The ids ID_RULES speaks of: a MongoDB export's _id, listed as /id,
	// and the id every document is to get.
	have["/_id"] = have["/_id"] || a.ids != nil && a.ids.mongoExport
	have["/id"] = have["/id"] || a.ids != nil && a.ids.unique
	arrays, of := a.arrayPaths()
	var out []report.Notice
	seen := map[string]bool{}
	for _, k := range a.opts.Keys {
		if seen[k.String()] {
			continue
		}
		seen[k.String()] = true
		for _, p := range k.Paths {
			path := paths.Format(p)
			if have[path] {
				continue
			}
			if _, docs := arrayStep(arrays, p); docs > 0 {
				break // KEY_IN_ARRAY says why
			}
			msg := "The key " + k.String() + " names " + path + ", which none " + of + " holds: every item would have the undefined value there."
			if k.String() == path {
				msg = "The key " + path + " is in none " + of + ": Cosmos DB would store every item under the undefined value, one logical partition."
			}
			if m, ok := nearMiss(p, a.paths); ok {
				msg += fmt.Sprintf(" %s, %s, is in %s %s: did you mean it?", m.path.Path, m.why, human.Count(int64(m.path.Documents)), human.Plural(int64(m.path.Documents), "document", "documents"))
				if m.unseen {
					msg += " Its name does not read as it is: clean the name in the data before the import, or name the key " + m.path.Path + " as it is written here."
				}
			}
			out = append(out, report.Notice{Code: report.KeyNotFound, Message: msg})
			break
		}
	}
	return out
}

// idMeant is the path of the path table that the documents' id probably
// is, when none holds /id: one whose name reads as id but holds a
// character that does not show, spaces around it, or another case (Cosmos
// DB's id is "id" in lower case), with how it differs; "" if none.
func (a *analysis) idMeant() string {
	for _, p := range a.paths {
		if p.Path == "/id" {
			return ""
		}
	}
	if m, ok := nearMiss(idPath, a.paths); ok && m.class <= missCase {
		return m.path.Path + ", " + m.why + ","
	}
	// A top-level identifier with a value of its own in every document
	// (a CSV export's order_id): the id the import should take.
	for _, p := range a.paths {
		if len(p.Segments) != 1 {
			continue
		}
		words := nameWords(p.Segments[0])
		if p.Usable && p.Documents == a.described && len(p.Top) > 0 && p.Top[0].Count == 1 &&
			len(words) > 1 && slices.Contains([]string{"id", "key", "uuid", "guid"}, words[len(words)-1]) {
			return p.Path + ", a value of its own in every document,"
		}
	}
	return ""
}

// A miss is a path of the documents that a key's path probably meant.
type miss struct {
	path   paths.Path
	class  int    // how near: missUnseen, missSpaces, missCase, missSpelling
	why    string // how it differs, for the message
	unseen bool   // its names hold characters that do not show as themselves where the key's do not
}

// How near a path of the documents is to a key's path, nearest first.
const (
	missUnseen   = iota // the same once the characters that do not show are left out
	missSpaces          // the same once spaces around a name are trimmed
	missCase            // the same in another case
	missSpelling        // one slip of typing (oneSlip), in a name of 4 or more
)

// nearMiss finds the path of the table that want, a path none of the
// documents holds, most probably meant: one of as many names, each the
// same as want's but for characters that do not show, spaces around it,
// case, or one slip of typing. Of several, the nearest, then the one in most
// documents, then the first in path order.
func nearMiss(want []string, table []paths.Path) (miss, bool) {
	var best miss
	found := false
	for _, p := range table {
		if p.InArray || len(p.Segments) != len(want) {
			continue
		}
		m, ok := compare(want, p.Segments)
		if !ok {
			continue
		}
		m.path = p
		if !found || m.class < best.class || m.class == best.class && (p.Documents > best.path.Documents ||
			p.Documents == best.path.Documents && cmp.Less(p.Path, best.path.Path)) {
			best, found = m, true
		}
	}
	return best, found
}

// compare says how near have, a path's names, is to want, and how the
// names that differ differ; false if one of them is not near.
func compare(want, have []string) (miss, bool) {
	var m miss
	var whys []string
	for i := range want {
		w, h := want[i], have[i]
		if w == h {
			continue
		}
		class, why := nearName(w, h)
		if class < 0 {
			return miss{}, false
		}
		m.class = max(m.class, class)
		if d, _ := human.UnseenIn(h); d != "" {
			m.unseen = true
		}
		whys = append(whys, why)
	}
	if whys == nil {
		return miss{}, false
	}
	m.why = strings.Join(whys, ", and ")
	return m, true
}

// nearName is how near have is to want, two names that differ, and how
// they differ; -1 if they are not near.
func nearName(want, have string) (int, string) {
	_, wv := human.UnseenIn(want)
	hd, hv := human.UnseenIn(have)
	switch {
	case wv == hv && hd != "":
		return missUnseen, "with " + hd
	case wv == hv:
		wd, _ := human.UnseenIn(want)
		return missUnseen, "without the " + strings.TrimPrefix(strings.TrimPrefix(wd, "a "), "an ") + " that the key's name holds"
	case strings.TrimSpace(wv) == strings.TrimSpace(hv) && strings.TrimSpace(hv) == hv:
		return missSpaces, "without the spaces around the key's name"
	case strings.TrimSpace(wv) == strings.TrimSpace(hv):
		return missSpaces, "with spaces around " + strconv.Quote(strings.TrimSpace(hv))
	case strings.EqualFold(wv, hv):
		return missCase, "in another case"
	case len([]rune(wv)) >= 4 && oneSlip(wv, hv):
		return missSpelling, "one slip of typing away"
	}
	return -1, ""
}

// oneSlip reports whether b is a with one slip of typing: a character
// added, left out or changed, or two neighbours swapped.
func oneSlip(a, b string) bool {
	x, y := []rune(a), []rune(b)
	if len(x) > len(y) {
		x, y = y, x
	}
	if len(y)-len(x) > 1 {
		return false
	}
	i := 0
	for i < len(x) && x[i] == y[i] {
		i++
	}
	switch {
	case i == len(x):
		return true // y is x and one more character, or x itself
	case len(x) < len(y):
		return slices.Equal(x[i:], y[i+1:])
	case slices.Equal(x[i+1:], y[i+1:]):
		return true
	}
	return i+1 < len(x) && x[i] == y[i+1] && x[i+1] == y[i] && slices.Equal(x[i+2:], y[i+2:])
}
