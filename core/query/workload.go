package query

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/paths"
)

// OpKind is the kind of a workload operation.
type OpKind string

const (
	QueryOp   OpKind = "query"
	ReadOp    OpKind = "read" // a point read by id and key
	CreateOp  OpKind = "create"
	ReplaceOp OpKind = "replace"
	PatchOp   OpKind = "patch"
	UpsertOp  OpKind = "upsert"
	DeleteOp  OpKind = "delete"
	BatchOp   OpKind = "batch" // a transactional batch
	SprocOp   OpKind = "sproc" // a stored procedure
)

var opKinds = []OpKind{QueryOp, ReadOp, CreateOp, ReplaceOp, PatchOp, UpsertOp, DeleteOp, BatchOp, SprocOp}

// Op is one operation of the application's workload, with its relative
// frequency.
type Op struct {
	Kind   OpKind
	Weight float64 // per second, or a relative weight
	Text   string  // the query text, for queries
	Query  *Query  // parsed
	// Paths are properties in Cosmos DB path syntax: for a point read or a
	// delete, the id and key paths it knows; for a replace, patch or
	// upsert, the paths it sets; for a batch or stored procedure, the paths
	// whose values differ across its items.
	Paths []string
	// Items is how many items a batch or stored procedure writes per call;
	// 0 counts as 1.
	Items int
	// RU is the charge one execution was measured at, reading one physical
	// partition (the SDKs' RequestCharge); 0 when pkcalc models it. A key
	// that makes it read more partitions adds 2.5 RU for each.
	RU   float64
	Line int // where the operation starts in the workload file, from 1
}

// maxWorkload bounds what ReadWorkload reads: a workload lists operations,
// not data.
const maxWorkload = 16 << 20

// ReadWorkload reads a workload, text or JSON as the first non-space byte
// says.
//
// Text has one operation a line, with an optional leading weight (default
// 1): a query ("120 SELECT * FROM c WHERE c.tenantId = @t"), or a kind and
// its paths ("500 read /id /tenantId", "20 patch /status"); a batch or
// stored procedure may give the items it writes before its paths
// ("5 batch 10 /orderId"). A measured charge may follow the weight,
// "ru=N" ("500 ru=1.3 read /id /tenantId"): see Op.RU. Blank lines and
// lines starting with # or -- are skipped.
//
// JSON is an array of operations, or {"operations": [...]}, each
// {"kind": "query", "weight": 120, "query": "SELECT ..."} or
// {"kind": "read", "weight": 500, "paths": ["/id", "/tenantId"]}, with
// "items" for a batch or stored procedure and "ru" for a measured charge.
//
// Each bad line or operation gives an error naming its line (a query's
// syntax error also its column) and is left out; the rest still load.
func ReadWorkload(r io.Reader) ([]Op, []error) {
	data, err := io.ReadAll(io.LimitReader(r, maxWorkload+1))
	if err != nil {
		return nil, []error{err}
	}
	if len(data) > maxWorkload {
		return nil, []error{fmt.Errorf("the workload is larger than %d MB: list operations with weights instead of repeating them", maxWorkload>>20)}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && (trimmed[0] == '[' || trimmed[0] == '{') {
		return readJSON(data)
	}
	return readText(string(data))
}

func readText(src string) ([]Op, []error) {
	var ops []Op
	var errs []error
	off := 0
	for n, line := range strings.Split(src, "\n") {
		lineStart := off
		off += len(line) + 1
		line = strings.TrimSuffix(line, "\r")
		body := strings.TrimLeft(line, " \t")
		if body == "" || strings.HasPrefix(body, "#") || strings.HasPrefix(body, "--") {
			continue
		}
		op := Op{Weight: 1, Line: n + 1}
		if c := body[0]; isDigit(c) || c == '.' || c == '-' && len(body) > 1 && isDigit(body[1]) {
			word, rest := body, ""
			if i := strings.IndexAny(body, " \t"); i >= 0 {
				word, rest = body[:i], body[i+1:]
			}
			w, err := parseWeight(strings.TrimSuffix(word, "/s"))
			if err != nil {
				errs = append(errs, fmt.Errorf("line %d: %v", op.Line, err))
				continue
			}
			op.Weight = w
			body = strings.TrimLeft(rest, " \t")
		}
		if v, found := strings.CutPrefix(strings.ToLower(body), "ru="); found {
			word, rest := v, ""
			if i := strings.IndexAny(v, " \t"); i >= 0 {
				word, rest = v[:i], body[len("ru=")+i+1:]
			}
			ru, err := parseCharge(word)
			if err != nil {
				errs = append(errs, fmt.Errorf("line %d: %v", op.Line, err))
				continue
			}
			op.RU, body = ru, strings.TrimLeft(rest, " \t")
		}
		if body == "" {
			errs = append(errs, fmt.Errorf("line %d: a weight but no operation: write a query or a kind such as read /id /tenantId", op.Line))
			continue
		}
		first, rest := body, ""
		if i := strings.IndexAny(body, " \t"); i >= 0 {
			first, rest = body[:i], body[i+1:]
		}
		kind := OpKind(strings.ToLower(first))
		switch {
		case kind == QueryOp:
			body = strings.TrimLeft(rest, " \t")
			kind = ""
		case knownKind(kind):
			op.Kind = kind
			words := splitPaths(rest)
			// A count, or what was meant as one (-3, +2): not a path.
			if len(words) > 0 && len(words[0]) > 0 && (isDigit(words[0][0]) || len(words[0]) > 1 && strings.ContainsRune("+-.", rune(words[0][0])) && isDigit(words[0][1])) {
				n, err := parseItems(kind, words[0])
				if err != nil {
					errs = append(errs, fmt.Errorf("line %d: %v", op.Line, err))
					continue
				}
				op.Items, words = n, words[1:]
			}
			var err error
			for _, p := range words {
				var norm string
				if norm, err = normPath(p); err != nil {
					break
				}
				op.Paths = append(op.Paths, norm)
			}
			if err == nil {
				err = checkOp(&op)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("line %d: %v", op.Line, err))
				continue
			}
			ops = append(ops, op)
			continue
		}
		op.Kind, op.Text = QueryOp, strings.TrimRight(body, " \t")
		q, err := Parse(op.Text)
		if err != nil {
			var pe *Error
			if errors.As(err, &pe) {
				// Move the position from the query to the file.
				at := lineStart + (len(line) - len(body)) + pe.Offset
				err = errorAt(src, at, pe.Msg)
			}
			errs = append(errs, err)
			continue
		}
		op.Query = q
		ops = append(ops, op)
	}
	return ops, errs
}

// splitPaths splits a list of paths at spaces and commas outside quotes.
func splitPaths(s string) []string {
	var out []string
	var b strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && quoted && i+1 < len(s):
			b.WriteByte(c)
			i++
			b.WriteByte(s[i])
			continue
		case c == '"':
			quoted = !quoted
		case !quoted && (c == ' ' || c == '\t' || c == ','):
			if b.Len() > 0 {
				out = append(out, b.String())
				b.Reset()
			}
			continue
		}
		b.WriteByte(c)
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

func parseWeight(s string) (float64, error) {
	w, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(w) || math.IsInf(w, 0) {
		return 0, fmt.Errorf("the weight %q is not a number", s)
	}
	return w, checkWeight(w, s)
}

// MaxWeight is the largest weight an operation takes: a billion a second,
// more than the largest container serves (as options.MaxRate bounds the
// rates given as settings). Past it the sums of rates and charges lose
// meaning; weights of 1e308 summed to +Inf.
const MaxWeight = 1e9

// checkWeight refuses a weight below 0 or past MaxWeight; text is how
// the input writes it.
func checkWeight(w float64, text string) error {
	switch {
	case w < 0:
		return fmt.Errorf("the weight %s is negative: give operations per second or a relative weight", text)
	case w > MaxWeight:
		return fmt.Errorf("the weight %s is more than pkcalc models (1,000,000,000 a second: more than the largest container serves)", text)
	}
	return nil
}

// parseCharge reads a measured charge, RU per execution.
func parseCharge(s string) (float64, error) {
	ru, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(ru) || math.IsInf(ru, 0) || ru <= 0 || ru > maxCharge {
		return 0, fmt.Errorf("the charge ru=%s is not a number of request units above 0 and at most %s", s, strconv.Itoa(maxCharge))
	}
	return ru, nil
}

// maxCharge bounds a measured charge: no one request costs more than a
// partition serves in a second many times over.
const maxCharge = 1_000_000

// parseItems reads the count of items a batch or stored procedure writes.
func parseItems(kind OpKind, s string) (int, error) {
	if kind != BatchOp && kind != SprocOp {
		return 0, fmt.Errorf("%s takes paths, not the number %s: only a batch or sproc gives the items it writes", kind, s)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("the items %q of a %s are not a whole number of at least 1", s, kind)
	}
	return n, nil
}

// checkOp rejects what no request can be: a point read or delete addresses
// its item by id and key, so without /id it is a query, to be written as one.
// A MongoDB document's /_id, which becomes its id on import, names the
// item as /id does, and is read as it.
func checkOp(op *Op) error {
	if op.Kind != ReadOp && op.Kind != DeleteOp || slices.Contains(op.Paths, "/id") {
		return nil
	}
	if i := slices.Index(op.Paths, "/_id"); i >= 0 {
		op.Paths[i] = "/id"
		return nil
	}
	what := "point read"
	if op.Kind == DeleteOp {
		what = "delete"
	}
	return fmt.Errorf("a %s names its item by /id: list it, as in %s /id /tenantId, or write the query that finds the item", what, op.Kind)
}

func knownKind(k OpKind) bool {
	for _, x := range opKinds {
		if x == k {
			return true
		}
	}
	return false
}

func normPath(p string) (string, error) {
	names, err := paths.Parse(p)
	if err != nil {
		return "", err
	}
	return paths.Format(names), nil
}

type jsonOp struct {
	Kind   string   `json:"kind"`
	Weight *float64 `json:"weight"`
	Query  string   `json:"query"`
	Paths  []string `json:"paths"`
	Items  *int     `json:"items"`
	RU     *float64 `json:"ru"`
}

func readJSON(data []byte) ([]Op, []error) {
	lineOf := func(off int64) int {
		if off > int64(len(data)) {
			off = int64(len(data))
		}
		return 1 + bytes.Count(data[:off], []byte("\n"))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	syntax := func(err error) []error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return []error{fmt.Errorf("line %d: the JSON is not valid: %v", lineOf(se.Offset), se)}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return []error{fmt.Errorf("line %d: the JSON ends too soon", lineOf(int64(len(data))))}
		}
		return []error{fmt.Errorf("line %d: %v", lineOf(dec.InputOffset()), err)}
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, syntax(err)
	}
	if tok == json.Delim('{') {
		found := false
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, syntax(err)
			}
			if k == "operations" {
				found = true
				break
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, syntax(err)
			}
		}
		if !found {
			return nil, []error{errors.New(`line 1: a JSON workload is an array of operations or {"operations": [...]}`)}
		}
		if tok, err = dec.Token(); err != nil {
			return nil, syntax(err)
		}
	}
	if tok != json.Delim('[') {
		return nil, []error{fmt.Errorf(`line %d: expected an array of operations, as in [{"kind": "query", "weight": 120, "query": "SELECT ..."}]`, lineOf(dec.InputOffset()))}
	}
	var ops []Op
	var errs []error
	for n := 1; dec.More(); n++ {
		// The decoder stands before the comma and spaces that precede the
		// next element; its line is where the element itself starts.
		off := dec.InputOffset()
		for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
			off++
		}
		line := lineOf(off)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return ops, append(errs, syntax(err)...)
		}
		op, err := decodeOp(raw, line)
		if err != nil {
			errs = append(errs, fmt.Errorf("line %d: operation %d: %w", line, n, err))
			continue
		}
		ops = append(ops, op)
	}
	return ops, errs
}

func decodeOp(raw json.RawMessage, line int) (Op, error) {
	var j jsonOp
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields() // a misspelt "wieght" should not pass silently
	if err := d.Decode(&j); err != nil {
		return Op{}, fmt.Errorf("%v (fields are kind, weight, query, paths, items, ru)", err)
	}
	op := Op{Kind: OpKind(strings.ToLower(j.Kind)), Weight: 1, Line: line}
	if op.Kind == "" && j.Query != "" {
		op.Kind = QueryOp
	}
	if !knownKind(op.Kind) {
		names := make([]string, len(opKinds))
		for i, k := range opKinds {
			names[i] = string(k)
		}
		return Op{}, fmt.Errorf("kind %q is not one of %s", j.Kind, strings.Join(names, ", "))
	}
	if j.Weight != nil {
		if err := checkWeight(*j.Weight, fmt.Sprint(*j.Weight)); err != nil {
			return Op{}, err
		}
		op.Weight = *j.Weight
	}
	for _, p := range j.Paths {
		norm, err := normPath(p)
		if err != nil {
			return Op{}, err
		}
		op.Paths = append(op.Paths, norm)
	}
	if j.Items != nil {
		n, err := parseItems(op.Kind, strconv.Itoa(*j.Items))
		if err != nil {
			return Op{}, err
		}
		op.Items = n
	}
	if j.RU != nil {
		ru, err := parseCharge(strconv.FormatFloat(*j.RU, 'g', -1, 64))
		if err != nil {
			return Op{}, err
		}
		op.RU = ru
	}
	if err := checkOp(&op); err != nil {
		return Op{}, err
	}
	if op.Kind == QueryOp {
		if strings.TrimSpace(j.Query) == "" {
			return Op{}, errors.New(`a query operation needs "query": "SELECT ..."`)
		}
		op.Text = j.Query
		q, err := Parse(j.Query)
		if err != nil {
			return Op{}, fmt.Errorf("its query: %w", err)
		}
		op.Query = q
	}
	return op, nil
}

// Assessment is what one operation costs under a key.
type Assessment struct {
	Routing Routing // which partitions it reads or writes
	// KeyUpdated: a replace, patch or upsert sets a key path (or a source
	// of a synthetic key, or a parent of one). Keys are immutable, so the
	// change is a delete and an insert.
	KeyUpdated bool
	// SpansKeys: a batch or stored procedure spans items whose key values
	// differ, but a transaction runs in one logical partition.
	SpansKeys bool
	Message   string // in plain words
}

// Assess says where op goes under spec and what to watch for.
func Assess(op Op, spec key.Spec) Assessment {
	keyPaths := spec.PathStrings()
	keyName := spec.String()
	what := "a key path"
	if spec.Kind == key.Synthetic {
		what = "a source of the synthetic key " + keyName
	}
	switch op.Kind {
	case QueryOp:
		q := op.Query
		if q == nil {
			var err error
			if q, err = Parse(op.Text); err != nil {
				return Assessment{Routing: Routing{Kind: FanOut, Reason: "the query does not parse"}, Message: "the query does not parse: " + err.Error()}
			}
		}
		r := Route(q, spec)
		a := Assessment{Routing: r}
		switch r.Kind {
		case Single:
			a.Message = "reads one logical partition: " + r.Reason
		case Targeted:
			a.Message = "reads the partitions of " + quantity(r.Values, "key value") + ": " + r.Reason
		default:
			a.Message = "reads every partition: " + r.Reason
		}
		return a
	case ReadOp, DeleteOp:
		verb := "read"
		if op.Kind == DeleteOp {
			verb = "delete"
		}
		var missing []string
		for _, k := range keyPaths {
			if !covered(op.Paths, k) {
				missing = append(missing, k)
			}
		}
		if len(missing) == 0 {
			return Assessment{Routing: Routing{Kind: Single, Values: 1, Reason: "knows " + strings.Join(keyPaths, " and ")},
				Message: "a point " + verb + " by id and key: one logical partition"}
		}
		// Without the whole key the item must be found by a query on what
		// the operation knows, which routes as any such query: a hierarchical
		// key's first levels or a synthetic key's sources still target it.
		r := Route(knownQuery(op.Paths, spec), spec)
		if r.Kind == Targeted {
			unit := "key value"
			if spec.Kind == key.MultiHash {
				unit = "prefix"
			}
			r.Reason = "does not know " + strings.Join(missing, " and ")
			return Assessment{Routing: r, Message: fmt.Sprintf("a %s without %s must first query the partitions of %s to find the item: give it the whole key",
				verb, strings.Join(missing, " and "), quantity(r.Values, unit))}
		}
		r = Routing{Kind: FanOut, Reason: "does not know " + strings.Join(missing, " and ")}
		return Assessment{Routing: r, Message: fmt.Sprintf("a %s without %s must first query every partition to find the item: give it the key", verb, strings.Join(missing, " and "))}
	case CreateOp:
		return Assessment{Routing: Routing{Kind: Single, Values: 1, Reason: "the item carries its key"},
			Message: "a create writes to the logical partition of the item's key"}
	case ReplaceOp, PatchOp, UpsertOp:
		a := Assessment{Routing: Routing{Kind: Single, Values: 1, Reason: "addresses the item by id and key"}}
		var hit []string
		for _, p := range op.Paths {
			for _, k := range keyPaths {
				if within(p, k) {
					hit = append(hit, p)
					break
				}
			}
		}
		if len(hit) == 0 {
			a.Message = fmt.Sprintf("a %s in one logical partition; it does not change %s", op.Kind, keyName)
			return a
		}
		a.KeyUpdated = true
		switch op.Kind {
		case UpsertOp:
			a.Message = fmt.Sprintf("the upsert sets %s, %s: with a new value it creates a second item instead of moving this one; a key change is a delete and an insert", strings.Join(hit, " and "), what)
		default:
			a.Message = fmt.Sprintf("the %s sets %s, %s: partition keys are immutable, so the change must be a delete and an insert", op.Kind, strings.Join(hit, " and "), what)
		}
		return a
	case BatchOp, SprocOp:
		name := "transactional batch"
		if op.Kind == SprocOp {
			name = "stored procedure"
		}
		var hit []string
		for _, p := range op.Paths {
			for _, k := range keyPaths {
				if within(p, k) {
					hit = append(hit, p)
					break
				}
			}
		}
		if op.Items >= 2 && slices.Contains(keyPaths, "/id") && !slices.Contains(hit, "/id") {
			// Items of one logical partition each have an id of their
			// own, so under a key made with /id no two share a value.
			hit = append(hit, "/id (each item has its own)")
		}
		if len(hit) == 0 {
			return Assessment{Routing: Routing{Kind: Single, Values: 1, Reason: "its items share one key value"},
				Message: "a " + name + " within one logical partition"}
		}
		return Assessment{Routing: Routing{Kind: Targeted, Reason: "its items differ in " + strings.Join(hit, " and ")}, SpansKeys: true,
			Message: fmt.Sprintf("a %s runs in one logical partition, but its items differ in %s, %s: split it by key value or choose a key its items share", name, strings.Join(hit, " and "), what)}
	}
	return Assessment{Routing: Routing{Kind: FanOut, Reason: "unknown operation"}, Message: fmt.Sprintf("unknown operation kind %q", op.Kind)}
}

// knownQuery is the query that finds an item by the paths an operation
// knows: each key path they give the value of is pinned with a parameter.
func knownQuery(known []string, spec key.Spec) *Query {
	var where Expr
	for i, k := range spec.Paths {
		if !covered(known, paths.Format(k)) {
			continue
		}
		eq := &Binary{Op: "=", Left: &Property{Root: "c", Path: k}, Right: &Param{Name: "k" + strconv.Itoa(i)}}
		if where == nil {
			where = eq
		} else {
			where = &Binary{Op: "AND", Left: where, Right: eq}
		}
	}
	return &Query{Star: true, From: []Source{{Path: &Property{Root: "c"}}}, Where: where}
}

// covered reports whether knowing paths gives the value at keyPath: the
// path itself or a parent object of it.
func covered(known []string, keyPath string) bool {
	for _, p := range known {
		if within(p, keyPath) {
			return true
		}
	}
	return false
}

// within reports whether path p is keyPath or a parent of it.
func within(p, keyPath string) bool {
	a, err1 := paths.Parse(p)
	b, err2 := paths.Parse(keyPath)
	if err1 != nil || err2 != nil || len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
