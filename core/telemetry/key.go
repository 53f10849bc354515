package telemetry

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/options"
)

// keys reads the partition key values of one export's rows, and keeps
// each distinct one once: the rows of a key share its text and values.
type keys struct {
	json  *ingest.ValueReader
	seen  map[string]Key
	bytes int // the text of the keys in seen
}

func newKeys() *keys {
	return &keys{json: ingest.NewValueReader(), seen: make(map[string]Key)}
}

// errNoKey is a row that names no logical partition (an empty
// PartitionKey, which Microsoft's queries leave out with isnotempty).
var errNoKey = errors.New("no partition key")

// errKeysFull is the export's distinct keys past MaxExportKeyBytes.
var errKeysFull = fmt.Errorf("the export's distinct partition keys take more than %d MB of text, the most pkcalc reads from one export; the rows after are not read", options.MaxExportKeyBytes>>20)

// read reads a logged key: a JSON array of its components, as the
// service logs it (`["contoso"]`; `["contoso","u1"]` for a hierarchical
// key; numbers, booleans, null, and {} for a component the item does not
// have), given as text in a string column or, from a CSV cell of JSON or
// a JSON export, as the array itself; or a plain value, which is one
// string component, exactly as written (a CSV cell true, false or null,
// in any case, arrives typed, as CSV documents' cells do, and is written
// in lower case; null is no key). A plain 42 cannot tell the number from
// the string "42": the array form can ([42], ["42"]).
func (k *keys) read(v *jsontree.Value) (Key, error) {
	var text string
	var arr *jsontree.Value
	switch {
	case v == nil || v.Kind == jsontree.Null:
		return Key{}, errNoKey
	case v.Kind == jsontree.Array:
		arr = v
		text = v.JSON()
	case v.Kind == jsontree.String:
		text = v.Str
		if t := strings.TrimSpace(text); t == "" || t[0] == '[' {
			text = t // the array form, or nothing
		}
	case v.Kind == jsontree.Object:
		return Key{}, fmt.Errorf("the partition key is an object, %s: expected a JSON array of its values, such as [\"contoso\"]", clip(v.JSON()))
	default: // a number or boolean a CSV cell of JSON read as one
		text = literal(v)
	}
	if text == "" {
		return Key{}, errNoKey
	}
	if len(text) > options.MaxKeyTextBytes {
		return Key{}, fmt.Errorf("the partition key is %d KB as logged, longer than any key Cosmos DB stores (three values of 2 KB)", len(text)>>10)
	}
	if got, ok := k.seen[text]; ok {
		return got, nil
	}
	if k.bytes+len(text) > options.MaxExportKeyBytes {
		return Key{}, errKeysFull
	}
	got := Key{Text: text}
	if arr == nil && text[0] == '[' {
		parsed, ok := k.json.Read(text)
		if !ok || parsed.Kind != jsontree.Array {
			return Key{}, fmt.Errorf("the partition key %s starts with '[' but is not a JSON array: expected the service's form, such as [\"contoso\"]", clip(text))
		}
		arr = &parsed
	}
	if arr == nil {
		got.Values = []epk.Value{epk.Str(text)}
	} else {
		vals, err := components(arr)
		if err != nil {
			return Key{}, fmt.Errorf("the partition key %s: %w", clip(text), err)
		}
		got.Values = vals
	}
	k.seen[text] = got
	k.bytes += len(text)
	return got, nil
}

// components reads the components of a key from its JSON array.
func components(arr *jsontree.Value) ([]epk.Value, error) {
	if n := len(arr.Elems); n == 0 || n > key.MaxLevels {
		return nil, fmt.Errorf("it has %d values; a key has 1 to %d, one a level", n, key.MaxLevels)
	}
	vals := make([]epk.Value, len(arr.Elems))
	for i := range arr.Elems {
		e := &arr.Elems[i]
		switch e.Kind {
		case jsontree.String:
			vals[i] = epk.Str(e.Str)
		case jsontree.Number:
			if math.IsInf(e.Num, 0) {
				return nil, fmt.Errorf("value %d, %s, is out of range", i+1, literal(e))
			}
			vals[i] = epk.Num(e.Num)
		case jsontree.Bool:
			vals[i] = epk.Bool(e.Bool)
		case jsontree.Null:
			vals[i] = epk.NullValue
		case jsontree.Object:
			if len(e.Members) > 0 {
				return nil, fmt.Errorf("value %d is an object; a key's values are strings, numbers, booleans or null, and {} for one the item does not have", i+1)
			}
			vals[i] = epk.UndefinedValue // the SDKs write an undefined component as {}
		default:
			return nil, fmt.Errorf("value %d is an array; a key's values are strings, numbers, booleans or null", i+1)
		}
	}
	return vals, nil
}

// literal is a scalar's text: a number as written, a boolean or null as
// JSON writes it.
func literal(v *jsontree.Value) string {
	if v.Kind == jsontree.Number && v.Str != "" {
		return v.Str
	}
	if v.Kind == jsontree.String {
		return v.Str
	}
	return v.JSON()
}

// clip cuts a value for a message.
func clip(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
