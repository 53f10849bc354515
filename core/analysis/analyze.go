// Package report runs pkcalc's whole analysis over a stream of documents
// (ingest, paths, candidate keys, partition, advisor) and writes the result:
// a versioned JSON contract, a terminal table, Markdown and CSV. The same
// input and options give the same report, byte for byte, natively and in
// WebAssembly.
//
// Memory grows with the distinct key values kept, not with the input: the
// first documents (the window, which covers the samples people paste or
// drop) are held to choose candidate keys, then every document streams
// through the candidates' accumulators.
package analysis

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unsafe"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/aggregate"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/query"
	"github.com/pkcalc/pkcalc/core/report"
)

// Options are the analysis settings; the zero value analyses with defaults.
type Options struct {
	Keys           []key.Spec  // keys to measure, first in the report in this order
	NoSuggest      bool        // measure only Keys
	HashVersion    epk.Version // 1 or 2 (default) for hash and synthetic keys
	Partitions     int         // physical partitions; 0: from the throughput
	Throughput     capacity.Throughput
	TargetBytes    int64   // expected total size; 0: the input's
	TargetDocs     int64   // expected total documents
	GrowthGBPerDay float64 // with RetentionDays, what set TargetBytes (their product); echoed in the report
	RetentionDays  float64
	Workload       advisor.Workload
	TimePath       []string   // the time field; nil: detected
	WeightPath     []string   // a numeric field weighting requests per document
	NewValuePaths  [][]string // paths whose values keep coming as the data grows (partition.Options)
	MaxDistinct    int        // distinct values kept exactly per key; 0: 50,000
	Window         int        // most documents read before candidates are chosen; 0: windowDocs
	Progress       func(Progress)
	// MaxExactValues is the most values all keys keep exactly (shareExact);
	// 0: options.MaxExactValues. A host of less memory gives less.
	MaxExactValues int64
	// Workers is how many goroutines read JSON Lines and JSON arrays
	// (ingest.Parallel), from the third document on; 0: GOMAXPROCS. The
	// report is the same for any.
	Workers int
	// ReadChunk, where set, reads those goroutines' chunks elsewhere: in
	// the browser, in other Web Workers (ingest.ParallelElsewhere).
	ReadChunk ingest.ReadChunk
}

// Progress is reported while reading.
type Progress struct {
	Bytes     int64 // input bytes read
	Documents int
}

// The window is the documents held, from the start of the input, to make
// the path table, detect the time field and choose the candidates; past it
// documents are read only for the candidates' paths. It ends at windowDocs
// documents or once the documents held take windowHeap bytes (hold's
// estimate, 9 to 15 % above the heap measured), whichever comes first.
//
// The limits come from memory, measured (BenchmarkWindow, TestHoldEstimate;
// docs/PERFORMANCE.md): held without their arrays' elements (hold), orders
// of the built-in sample take 1,224 bytes each (3.9 times their JSON; whole,
// 2,150), its small sensor readings 872 (7.1 times), documents like
// MongoDB's US zip codes 639. So 48 MB holds 37,000 orders, 53,000 readings
// or 69,000 zip codes: the samples people paste or drop, 30,000 orders
// (9 MB) or the 29,467 zip codes, are read whole, and no order of their
// documents changes the report. The window is held beside the candidates'
// counts of it, so the Cloudflare Worker's 128 MB bound it: the Go heap's
// peak for 30,000 orders is 81 to 83 MB (70 to 97 with a window of 10,000),
// for 100,000 readings 115 to 118 MB (86 to 121); under the Worker's memory
// limit of 96 MiB the 100 MB set peaks at 85 MB. The browser tab and the
// command line, with 1 GiB (MemoryBudget), have room to spare. A larger
// window costs time on a longer input: its documents are read whole, and
// the garbage collector marks them while they are held; on the 100 MB set
// a window of 37,000 instead of 10,000 documents is an eighth more
// instructions, 50,000 a sixth.
const (
	windowDocs = 100_000
	windowHeap = 48 << 20
)

// MemoryBudget is the most memory an analysis may take on the command
// line and in the browser's engine, with every setting at its limit
// (docs/PERFORMANCE.md, Memory): the limits of package options
// (MaxExactValues above all), the window, the path table's paths.MaxPaths
// and the report's rows (report.MaxPartitionRows) are set so that it
// holds. Both front ends give it to Go as a memory limit
// (debug.SetMemoryLimit), so that the collector works harder near it
// rather than let garbage take the memory: the command line paces the
// collector at 400 %, which let a heap of 600 MB live take 1.1 GB.
const MemoryBudget = 1 << 30

// Source is a stream of documents: ingest's JSON Reader or its CSVReader.
type Source interface {
	Next() (*ingest.Document, error) // io.EOF at the end; *ingest.Error for a problem, after which it goes on
	Format() string
	Offset() int64 // input bytes consumed, for progress
}

// Analyze reads every JSON document from src and reports on each candidate
// key. Problems in the JSON are reported in the result, not as an error;
// the error is for a failing src, with the report of what was read before.
func Analyze(src io.Reader, opts Options) (*report.Report, error) {
	return AnalyzeSource(ingest.NewReader(src), opts)
}

// AnalyzeSource is Analyze over any Source.
func AnalyzeSource(r Source, opts Options) (*report.Report, error) {
	a := &analysis{opts: opts, collector: paths.New(paths.Options{}), ids: &idCheck{}}
	a.readWorkload()
	return a.run(r)
}

// readWorkload reads the application's operations; a bad line is reported
// and the others are used.
func (a *analysis) readWorkload() {
	if strings.TrimSpace(a.opts.Workload.Operations) == "" {
		return
	}
	ops, errs := query.ReadWorkload(strings.NewReader(a.opts.Workload.Operations))
	for i, e := range errs {
		if i == maxOperationErrors {
			n := int64(len(errs) - i)
			a.opErrs = append(a.opErrs, fmt.Sprintf("and %s more %s that could not be read", human.Count(n), human.Plural(n, "line", "lines")))
			break
		}
		a.opErrs = append(a.opErrs, e.Error())
	}
	if len(ops) > maxOperations {
		a.opErrs = append(a.opErrs, fmt.Sprintf("the workload lists %s operations; pkcalc reads the first %s, to line %d, and leaves out the rest: an application's operations are tens, each with its rate",
			human.Count(int64(len(ops))), human.Count(maxOperations), ops[maxOperations-1].Line))
		ops = ops[:maxOperations]
	}
	a.ops = ops
}

func (a *analysis) run(r Source) (*report.Report, error) {
	opts := a.opts
	if opts.HashVersion != epk.V1 {
		opts.HashVersion = epk.V2
	}
	if opts.Window <= 0 {
		opts.Window = windowDocs
	}
	a.opts = opts
	var readErr error
	var window []*ingest.Document
	var held int
	lastProgress := int64(0)
	for {
		d, err := r.Next()
		if err != nil {
			if err == io.EOF {
				break
			}
			var ie *ingest.Error // only on errors: errors.As makes it escape to the heap
			if errors.As(err, &ie) {
				a.problem(ie)
				continue
			}
			readErr = err
			break
		}
		a.docs++
		a.bytes += int64(d.Bytes)
		a.notes += len(d.Notes)
		if yields && a.docs%256 == 0 {
			// WebAssembly has one thread and no preemption: unless the
			// analysis yields, the garbage collector's marking runs only in
			// small assists, and a cycle can last seconds with every pointer
			// write paying its barrier.
			runtime.Gosched()
		}
		for _, n := range d.Notes {
			if len(a.warnings) < 100 {
				a.warnings = append(a.warnings, n)
			}
		}
		if a.accs == nil {
			// The path table and the choice of candidates come from the
			// window; past it, documents are read only for the paths the
			// candidates need (see project), which is most of the speed.
			a.collector.Add(&d.Root, d.Bytes)
			held += hold(d)
			window = append(window, d)
			if a.docs == 2 {
				// By now the Reader knows JSON Lines or an array.
				r = a.parallel(r)
			}
			if len(window) >= opts.Window || held >= windowHeap {
				a.choose(window, true)
				a.project(r)
				r = a.parallel(r)
				window = nil
			}
		} else {
			a.add(d)
		}
		if opts.Progress != nil && r.Offset()-lastProgress >= 1<<20 {
			lastProgress = r.Offset()
			opts.Progress(Progress{Bytes: r.Offset(), Documents: a.docs})
		}
	}
	if a.accs == nil {
		a.choose(window, false)
	}
	if opts.Progress != nil {
		opts.Progress(Progress{Bytes: r.Offset(), Documents: a.docs})
	}
	a.format = r.Format()
	return a.finish(), readErr
}

// hold readies a window document to be held, and returns the bytes of
// memory it takes then. Past the path table, which has seen the document
// whole, nothing reads inside an array (a key, the time and the weight
// field take one value per document: key.Lookup stops at an array), so
// the arrays' elements are let go: a fifth of the memory of documents
// with a pair of numbers in an array, half of those with arrays of objects.
// So are the notes, counted already.
func hold(d *ingest.Document) int {
	d.Notes = nil
	return allocSize(int(unsafe.Sizeof(*d))) + heldBytes(&d.Root)
}

// heldBytes drops v's arrays' elements and returns the memory the rest
// takes: members and string values (the reader shares property names, and
// some short strings, between documents), each as allocated (allocSize).
func heldBytes(v *jsontree.Value) int {
	n := allocSize(len(v.Str))
	switch v.Kind {
	case jsontree.Array:
		v.Elems = nil
	case jsontree.Object:
		n += allocSize(cap(v.Members) * int(unsafe.Sizeof(jsontree.Member{})))
		for i := range v.Members {
			n += heldBytes(&v.Members[i].Value)
		}
	}
	return n
}

// allocSize is about what an allocation of n bytes takes: Go rounds small
// ones up to a multiple of 16 and larger ones by up to an eighth.
func allocSize(n int) int {
	if n <= 256 {
		return (n + 15) &^ 15
	}
	return n + n/8
}

// yields is whether the analysis yields as it reads (see run): natively
// the scheduler preempts, and a reader that yields to the keys' goroutines
// waits behind every one of them.
const yields = runtime.GOARCH == "wasm"

// parallel is r read on opts.Workers goroutines, where it can be.
func (a *analysis) parallel(r Source) Source {
	workers := a.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	switch s := r.(type) {
	case *ingest.Reader:
		if p, ok := s.ParallelElsewhere(workers, a.opts.ReadChunk); ok {
			return p
		}
	case parallelReader:
		s.ReadParallel(workers)
	}
	return r
}

// parallelReader is a Source of several inputs, such as the command line's
// files, that reads each on workers goroutines where it can.
type parallelReader interface {
	ReadParallel(workers int)
}

// projector is a Source that can read only some paths of each document,
// as ingest's Reader can.
type projector interface {
	Project(paths [][]string)
}

// project makes r read, from now on, only the paths the candidates, the
// time field, the weight field and the id check read.
func (a *analysis) project(r Source) {
	p, ok := r.(projector)
	if !ok {
		return
	}
	var need [][]string
	for _, acc := range a.accs {
		need = append(need, acc.Spec().Paths...)
	}
	for _, f := range [][]string{a.timePath, a.opts.WeightPath, idPath, mongoIDPath} {
		if f != nil {
			need = append(need, f)
		}
	}
	need = append(need, a.idFrom...)
	p.Project(need)
}

type analysis struct {
	opts      Options
	reads     reads            // the paths the keys read, for add
	collector *paths.Collector // until the window is read
	paths     []paths.Path     // the collector's table, once the window is read
	described int              // documents in the window, which the table describes
	// describedBytes are their sizes, summed.
	describedBytes int64
	// Paths past paths.MaxPaths, which the table leaves out, and the
	// documents holding one (paths.Collector.Omitted).
	omittedPaths, omittedDocs int
	docs                      int
	bytes                     int64
	notes                     int
	errs                      []*ingest.Error
	errCount                  int
	warnings                  []*ingest.Error // the first 100 notes: values read with a change
	format                    string
	timePath                  []string
	named                     int
	// accs are the candidates' accumulators, then those of the queries'
	// filters: a.accs[:candidates] are the keys reported.
	accs       []*partition.Accumulator
	candidates int
	// exact is the values each named key keeps exactly; added, each key
	// pkcalc adds (shareExact).
	exact, added int
	ops          []query.Op
	opErrs       []string
	timed        int        // documents with a time at the time field
	weighed      int        // documents with a weight above 0 at the weight field
	zeroTimed    int        // documents whose time field holds 1970-01-01T00:00:00Z, a time never set
	capped       int        // of those, documents weighing more than options.MaxWeight, read as it
	cappedAt     string     // the first of them and its weight: "document 2, at line 3, with 1e308"
	ids          *idCheck   // nil for aggregates
	idFrom       [][]string // the paths a document's own id is made from, with the keys' (uniqueID)
	sorted       []order    // what the window's documents are in order of, when it filled up
}

func (a *analysis) problem(e *ingest.Error) {
	a.errCount++
	if len(a.errs) < 100 {
		a.errs = append(a.errs, e)
	}
}

// choose picks the time field and candidate keys from the window and feeds
// the window to them; filled is whether the window ended before the input
// may have.
func (a *analysis) choose(window []*ingest.Document, filled bool) {
	// The path table describes the window, which is complete now; the
	// collector's counts, all in the table, can go.
	a.paths, a.described, a.describedBytes = a.collector.Paths(), a.collector.Documents(), a.collector.Bytes()
	a.omittedPaths, a.omittedDocs = a.collector.Omitted()
	a.collector = nil
	if filled {
		a.sorted = sortedBy(a.paths, window)
	}
	if a.ids != nil && mongoExport(a.paths, a.described) {
		a.ids.mongoExport = true
		a.paths = asID(a.paths)
	}
	if a.ids != nil && a.described > 0 && !slices.ContainsFunc(a.paths, func(p paths.Path) bool { return p.Path == "/id" || p.Path == "/_id" }) {
		a.ids.unique = true
	}
	a.timePath = a.opts.TimePath
	if a.timePath == nil {
		a.timePath = detectTime(a.paths, window, a.orderedPaths())
	}
	// A key named twice (/a and " /a", or in two settings) is measured
	// and shown once.
	var specs []key.Spec
	for _, k := range a.opts.Keys {
		if !slices.ContainsFunc(specs, func(s key.Spec) bool { return s.String() == k.String() }) {
			specs = append(specs, k)
		}
	}
	a.named = len(specs)
	if !a.opts.NoSuggest {
		target := a.targetBytes()
		// A time field given that holds no time (--time-field on a name or
		// a count) would make keys of buckets every document lacks.
		timePath := a.timePath
		span, timed := timeSpan(window, timePath)
		if timed == 0 {
			timePath = nil
		}
		item := itemOf(a.paths, a.described, a.docs, a.bytes)
		for _, s := range advisor.Candidates(advisor.Sample{Paths: a.paths, Documents: a.described, Bytes: a.describedBytes, UniqueIDs: a.ids != nil && a.ids.unique,
			TimePath: timePath, TimeSpan: span, TargetBytes: target, WriteRU: advisor.WriteRU(a.opts.Workload, a.ops, item),
			Operations: a.ops, Version: a.opts.HashVersion, NewValues: a.opts.NewValuePaths}) {
			if !slices.ContainsFunc(specs, func(k key.Spec) bool { return k.String() == s.String() }) {
				specs = append(specs, s)
			}
		}
	}
	// The accumulators of the groupings the queries' filters need follow
	// the candidates' (see workload.go).
	a.candidates = len(specs)
	specs = append(specs, filterSpecs(a.ops, specs)...)
	a.accs = make([]*partition.Accumulator, len(specs))
	if a.ids != nil && a.ids.unique {
		a.idFrom = idSources(a.paths)
	}
	a.reads = newReads(specs, a.timePath, a.opts.WeightPath, a.idFrom)
	a.shareExact(len(specs))
	for i, s := range specs {
		limit := a.exact
		if i >= a.named {
			limit = a.added
		}
		a.accs[i] = partition.New(s, partition.Options{
			Version:     a.opts.HashVersion,
			MaxDistinct: limit,
			// The filters' groupings answer only how many documents a
			// value has.
			CountOnly:     i >= a.candidates,
			TimePath:      a.timePath,
			WeightPath:    a.opts.WeightPath,
			NewValuePaths: a.opts.NewValuePaths,
			// With more than one core, keys count while the reader reads.
			Background: runtime.GOMAXPROCS(0) > 1,
		})
	}
	// Each document is let go once counted, so that the window and the
	// keys' counts of it are not both held whole. In WebAssembly this
	// yields as reading does (see run), so that a cancel or another
	// request does not wait for the whole window.
	for i, d := range window {
		a.add(d)
		window[i] = nil
		if yields && i%256 == 255 {
			runtime.Gosched()
		}
	}
}

// shareExact sets the distinct values each of n keys keeps exactly: the
// keys named, maxDistinct (options.Parse has checked that they keep no
// more than options.MaxExactValues in all); the keys pkcalc adds share
// what they leave, each at least options.MinAddedExact and at most
// maxDistinct, so that the values kept exactly stay within what the
// memory budget holds (docs/PERFORMANCE.md, Memory).
func (a *analysis) shareExact(n int) {
	a.exact = a.opts.MaxDistinct
	if a.exact <= 0 {
		a.exact = options.DefaultMaxDistinct
	}
	a.added = a.exact
	if added := n - a.named; added > 0 {
		left := a.maxExact() - int64(a.named)*int64(a.exact)
		a.added = int(min(int64(a.exact), max(options.MinAddedExact, left/int64(added))))
	}
}

// maxExact is the most values all keys keep exactly.
func (a *analysis) maxExact() int64 {
	return cmp.Or(a.opts.MaxExactValues, options.MaxExactValues)
}

// exactWarnings say that keys pkcalc added kept fewer values exactly than
// the keys named, and that it made a difference: past their share their
// figures are estimated.
func (a *analysis) exactWarnings(dists []*partition.Distribution) []report.Notice {
	if a.added >= a.exact {
		return nil
	}
	estimated := 0
	for _, d := range dists[a.named:] {
		if d.Estimated {
			estimated++
		}
	}
	if estimated == 0 {
		return nil
	}
	added := len(dists) - a.named
	return []report.Notice{{Code: report.ExactValuesShared, Message: fmt.Sprintf("pkcalc keeps at most %s distinct values exactly in all, for memory, and the keys named (%d) keep %s each: the %d %s pkcalc added (the candidates it suggests and the groupings of the workload's filters) kept %s each, and %d of them had more, which are estimated (logicalPartitionsEstimated). Name fewer keys, or lower the distinct values kept exactly, for exact figures of those too.",
		human.Count(a.maxExact()), a.named, human.Count(int64(a.exact)),
		added, human.Plural(int64(added), "key", "keys"), human.Count(int64(a.added)), estimated)}}
}

func (a *analysis) add(d *ingest.Document) {
	// Each path the keys, the time field and the weight field read is looked
	// up once: the ten default keys read six paths fifteen times.
	r := &a.reads
	for i, p := range r.paths {
		r.values[i] = key.Lookup(&d.Root, p)
	}
	f := partition.FactsOf(r.at(r.time), r.at(r.weight), a.opts.WeightPath != nil)
	a.ids.check(r.at(r.id), d)
	if a.ids.mongoExport && r.id >= 0 && r.values[r.id] == nil {
		// A MongoDB export: its _id is the id (mongoExport).
		r.values[r.id] = key.Lookup(&d.Root, mongoIDPath)
	}
	if a.ids.unique && r.id >= 0 && r.values[r.id] == nil {
		r.values[r.id] = uniqueID(r.values, d.Bytes)
	}
	if !math.IsNaN(f.Time) {
		a.timed++
	} else if t, ok := key.Seconds(r.at(r.time)); ok && t == 0 {
		a.zeroTimed++ // no time: FactsOf
	}
	if f.Weight > 0 {
		a.weighed++
	}
	if f.Weight > options.MaxWeight {
		// Past it the sums of weights overflow (options.MaxWeight).
		if a.capped++; a.capped == 1 {
			a.cappedAt = fmt.Sprintf("document %d, at line %d, with %s", d.Index, d.Line, shortValue(r.at(r.weight)))
		}
		f.Weight = options.MaxWeight
	}
	for k, acc := range a.accs {
		read := r.byKey[k]
		for j, i := range r.uses[k] {
			read[j] = r.values[i]
		}
		acc.AddValues(read, d.Bytes, f)
	}
}

// reads are the paths the analysis reads, each once (see add).
type reads struct {
	paths        [][]string
	values       []*jsontree.Value   // a document's, by path
	uses         [][]int             // by key: its paths (key.Spec.Paths)
	byKey        [][]*jsontree.Value // by key: their values
	time, weight int                 // the time and weight fields' paths; -1 for none
	id           int                 // idPath's
}

func newReads(specs []key.Spec, timePath, weightPath []string, extra [][]string) reads {
	var r reads
	index := func(p []string) int {
		if p == nil {
			return -1
		}
		i := slices.IndexFunc(r.paths, func(q []string) bool { return slices.Equal(p, q) })
		if i < 0 {
			i = len(r.paths)
			r.paths = append(r.paths, p)
		}
		return i
	}
	for _, s := range specs {
		var use []int
		for _, p := range s.Paths {
			use = append(use, index(p))
		}
		r.uses = append(r.uses, use)
		r.byKey = append(r.byKey, make([]*jsontree.Value, len(use)))
	}
	r.time, r.weight = index(timePath), index(weightPath)
	r.id = index(idPath)
	for _, p := range extra {
		index(p)
	}
	r.values = make([]*jsontree.Value, len(r.paths))
	return r
}

// at is the current document's value at path i, nil for none.
func (r *reads) at(i int) *jsontree.Value {
	if i < 0 {
		return nil
	}
	return r.values[i]
}

// timeSpan is the time the window's documents cover, and how many of them
// have a time.
func timeSpan(window []*ingest.Document, path []string) (span time.Duration, timed int) {
	if path == nil {
		return 0, 0
	}
	var lo, hi time.Time
	for _, d := range window {
		if at, ok := key.Time(key.Lookup(&d.Root, path)); ok {
			timed++
			if lo.IsZero() || at.Before(lo) {
				lo = at
			}
			if at.After(hi) {
				hi = at
			}
		}
	}
	return hi.Sub(lo), timed
}

// isTime reports whether v is a time since 1990 and before 2101: text in a
// form key.Time reads, or, when its field's name says time (named), a
// number of seconds, milliseconds or microseconds since 1970. Without the
// name an id such as userId: 1600000000 would read as 2020.
func isTime(v *jsontree.Value, named bool) bool {
	if v == nil || v.Kind == jsontree.Number && !named {
		return false
	}
	at, ok := key.Time(v)
	return ok && at.Year() >= 1990 && at.Year() <= 2100
}

// order is a path the window's documents are in order of.
type order struct {
	path        string
	rising      bool
	first, last *jsontree.Value
}

// sortedBy finds the usable paths whose values never fall (or never rise)
// from one of the window's documents to the next, at least three distinct
// values of them in at least half the documents: by chance that is all but
// impossible past a few dozen documents, so the input is likely sorted by
// them (or written in their order, as times and counters are), and the
// documents past the window may hold values the window has not. One pass,
// and a path leaves it at its first turn.
func sortedBy(ps []paths.Path, window []*ingest.Document) []order {
	type run struct {
		p           paths.Path
		up, down    bool
		first, last *jsontree.Value
	}
	var live []*run
	for _, p := range ps {
		if p.Usable && p.Distinct >= advisor.MinDistinct && 2*p.Documents >= len(window) {
			live = append(live, &run{p: p, up: true, down: true})
		}
	}
	for _, d := range window {
		live = slices.DeleteFunc(live, func(r *run) bool {
			v := key.Lookup(&d.Root, r.p.Segments)
			if v == nil || !v.Kind.Scalar() {
				return false
			}
			if r.last != nil {
				c := compareScalars(r.last, v)
				r.up = r.up && c <= 0
				r.down = r.down && c >= 0
			} else {
				r.first = v
			}
			r.last = v
			return !r.up && !r.down
		})
		if len(live) == 0 {
			return nil
		}
	}
	var out []order
	for _, r := range live {
		out = append(out, order{path: r.p.Path, rising: r.up, first: r.first, last: r.last})
	}
	return out
}

// compareScalars orders scalars as Cosmos DB's ORDER BY orders types (null,
// booleans, numbers, strings), numbers by value and strings by their bytes.
func compareScalars(a, b *jsontree.Value) int {
	rank := func(v *jsontree.Value) int {
		switch v.Kind {
		case jsontree.Null:
			return 0
		case jsontree.Bool:
			if v.Bool {
				return 2
			}
			return 1
		case jsontree.Number:
			return 3
		}
		return 4
	}
	if c := cmp.Compare(rank(a), rank(b)); c != 0 || a.Kind == jsontree.Null || a.Kind == jsontree.Bool {
		return c
	}
	if a.Kind == jsontree.Number {
		return cmp.Compare(a.Num, b.Num)
	}
	return strings.Compare(a.Str, b.Str)
}

// windowWarnings say when the path table and the candidates come from the
// first documents only, and more strongly when those look sorted.
// pathsWarnings say that the path table leaves paths out.
func (a *analysis) pathsWarnings() []report.Notice {
	if a.omittedPaths == 0 {
		return nil
	}
	return []report.Notice{{Code: report.PathsCapped, Message: fmt.Sprintf("The documents hold more distinct property paths than pkcalc describes (%s): about %s more, in %s %s, are counted but not in the path table, and no candidate is suggested on them. Property names that are data (ids or dates as names) make a path each; store them as values, or name the keys to measure them.",
		human.Count(paths.MaxPaths), human.Count(int64(a.omittedPaths)), human.Count(int64(a.omittedDocs)), human.Plural(int64(a.omittedDocs), "document", "documents"))}}
}

func (a *analysis) windowWarnings() []report.Notice {
	held, all := a.described, a.docs
	if a.paths == nil || held >= all { // aggregates have no window
		return nil
	}
	first := fmt.Sprintf("the first %s of %s documents", human.Count(int64(held)), human.Count(int64(all)))
	limit := fmt.Sprintf("the most pkcalc holds at once: %s documents", human.Count(int64(a.opts.Window)))
	if held < a.opts.Window {
		limit = fmt.Sprintf("as many as pkcalc holds at once: %s of memory", human.Bytes(windowHeap))
	}
	if len(a.sorted) == 0 {
		return []report.Notice{{Code: report.WindowPartial, Message: fmt.Sprintf("The path table, the time field and the candidate keys come from %s (%s); each candidate's figures cover all %s. If the file is in some order (by time, by tenant), shuffle it or give a sample drawn from across the data, so that its first documents stand for all.",
			first, limit, human.Count(int64(all)))}}
	}
	var by []string
	for _, o := range a.sorted[:min(3, len(a.sorted))] {
		way := "falling"
		if o.rising {
			way = "rising"
		}
		by = append(by, fmt.Sprintf("%s (%s, from %s to %s)", o.path, way, shortValue(o.first), shortValue(o.last)))
	}
	paths, it := by[0], "it"
	if len(by) > 1 {
		paths, it = strings.Join(by[:len(by)-1], ", ")+" and "+by[len(by)-1], "them"
	}
	if len(a.sorted) > len(by) {
		paths += fmt.Sprintf(" (and %d more)", len(a.sorted)-len(by))
	}
	return []report.Notice{{Code: report.WindowSorted, Message: fmt.Sprintf("The path table, the time field and the candidate keys come from %s (%s), and those are in order of %s: the file looks sorted by %s, so the later documents may hold values the first do not, and the candidates may miss a key that fits them all. Shuffle the documents, or give a sample drawn from across the data; each candidate's figures cover all %s.",
		first, limit, paths, it, human.Count(int64(all)))}}
}

// shortValue is a value's JSON, cut to 40 characters for a message, with
// the characters a path escapes escaped (paths.EscapeJSON).
func shortValue(v *jsontree.Value) string {
	text := []rune(v.JSON())
	if len(text) > 40 {
		text = append(text[:39], '…')
	}
	return paths.EscapeJSON(string(text))
}

// looksLikeTime reports whether a path's most common values read as times
// (isTime): a cheap test that spares the scan of the window for the many
// paths that are not times (a document can have thousands of properties).
func looksLikeTime(top []paths.ValueCount, named bool) bool {
	for _, v := range top {
		var val jsontree.Value
		if err := json.Unmarshal([]byte(v.Value), &val.Str); err == nil {
			val.Kind = jsontree.String
		} else if err := json.Unmarshal([]byte(v.Value), &val.Num); err == nil {
			val.Kind = jsontree.Number
		} else {
			continue
		}
		if isTime(&val, named) {
			return true
		}
	}
	return false
}

// timeWords are the words that end the name of a field holding a
// document's time, best first: timestamp, eventTime, order_date, createdAt,
// modified_on. The event's own time comes before its last change (updated)
// and the epoch, at and on only after another word.
var timeWords = []string{"timestamp", "ts", "time", "datetime", "date", "created", "at", "on", "updated", "modified", "epoch"}

// timeUnits are the words that may follow them: ts_ms, time_utc.
var timeUnits = []string{"ms", "millis", "milliseconds", "us", "micros", "microseconds", "s", "sec", "secs", "seconds", "utc", "unix"}

// timeRank is how well a path's name says it holds a document's time: the
// index in timeWords of its last word (past a unit, and past at or on when
// the word before says more), len(timeWords) for
// the system property _ts (the time of the item's last write, which a bulk
// load sets to the load's), and -1 when it says nothing (uptime, update,
// format, counts, millis, userId).
func timeRank(path []string) int {
	if len(path) == 1 && path[0] == "_ts" {
		return len(timeWords)
	}
	words := nameWords(path[len(path)-1])
	for len(words) > 1 && slices.Contains(timeUnits, words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return -1
	}
	last := words[len(words)-1]
	if last != "at" && last != "on" {
		return slices.Index(timeWords, last)
	}
	if len(words) == 1 {
		return -1
	}
	// createdAt is created; expiresAt, at.
	if r := slices.Index(timeWords, words[len(words)-2]); r >= 0 {
		return r
	}
	return slices.Index(timeWords, last)
}

// nameWords splits a property name into lowercase words at anything but
// letters and digits and where camelCase starts a word: created_at,
// createdAt and CreatedAT are created and at; URLTime is url and time.
func nameWords(name string) []string {
	var words []string
	var word []rune
	rs := []rune(name)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if len(word) > 0 {
				words = append(words, strings.ToLower(string(word)))
			}
			word = word[:0]
			continue
		}
		if len(word) > 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if !unicode.IsUpper(prev) || nextLower {
				words = append(words, strings.ToLower(string(word)))
				word = word[:0]
			}
		}
		word = append(word, r)
	}
	if len(word) > 0 {
		words = append(words, strings.ToLower(string(word)))
	}
	return words
}

// detectTime picks the field that holds each document's time: a top-level
// or nested path, not in an array, whose values are times (isTime) in at
// least 90 % of the window's documents. Of several, one the workload sorts
// by or bounds with a range wins (ordered, from query.Shape.Ordered: a
// taxi trip's /pickup, not the /dropoff first in text), then the one whose
// name says time best (timeRank), then the system property _ts, then a
// path whose name says nothing; then the shallower path, the one with more
// times, and the path first in Cosmos DB's order of path text, so that the
// order of the documents and of their properties does not matter.
func detectTime(ps []paths.Path, window []*ingest.Document, ordered []string) []string {
	if len(window) == 0 {
		return nil
	}
	type found struct {
		path        paths.Path
		rank, timed int
	}
	var all []found
	for _, p := range ps {
		if p.InArray || p.Segments == nil || float64(p.Documents) < 0.9*float64(len(window)) {
			continue
		}
		rank := timeRank(p.Segments)
		named := rank >= 0
		mix := p.TypeMix()
		if len(mix) == 0 || (mix[0].Kind != jsontree.Number && mix[0].Kind != jsontree.String) || !looksLikeTime(p.Top, named) {
			continue
		}
		timed := 0
		for _, d := range window {
			if isTime(key.Lookup(&d.Root, p.Segments), named) {
				timed++
			}
		}
		if float64(timed) >= 0.9*float64(len(window)) {
			if !named {
				rank = len(timeWords) + 1
			}
			all = append(all, found{p, rank, timed})
		}
	}
	if len(all) == 0 {
		return nil
	}
	unused := func(f found) int { // where the workload orders by it, busiest first; past them, not at all
		if i := slices.Index(ordered, f.path.Path); i >= 0 {
			return i
		}
		return len(ordered)
	}
	best := slices.MinFunc(all, func(a, b found) int {
		return cmp.Or(cmp.Compare(unused(a), unused(b)), cmp.Compare(a.rank, b.rank), cmp.Compare(len(a.path.Segments), len(b.path.Segments)),
			cmp.Compare(b.timed, a.timed), strings.Compare(a.path.Path, b.path.Path))
	})
	return best.path.Segments
}

// orderedPaths are the paths the workload's queries sort by or bound with
// a range, busiest query first.
func (a *analysis) orderedPaths() []string {
	ops := slices.Clone(a.ops)
	slices.SortStableFunc(ops, func(x, y query.Op) int { return cmp.Compare(y.Weight, x.Weight) })
	var out []string
	for _, op := range ops {
		if op.Kind != query.QueryOp || op.Query == nil {
			continue
		}
		for _, p := range query.ShapeOf(op.Query).Ordered {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// AnalyzeAggregates reports on one key from per-key aggregates: rows of
// key values with their documents, bytes and optional requests, as the
// user's own engine computed them. Problems are the rows that could not be
// read. Figures that need single documents (monotonicity, write spread,
// the path table) are absent.
func AnalyzeAggregates(rows []aggregate.Row, problems []error, spec key.Spec, opts Options) *report.Report {
	if opts.HashVersion != epk.V1 {
		opts.HashVersion = epk.V2
	}
	opts.Keys, opts.NoSuggest = []key.Spec{spec}, true
	// Rows carry their requests; there are no documents to read a weight
	// field in, nor to warn that they lack one.
	opts.WeightPath = nil
	a := &analysis{opts: opts, format: "per-key aggregates", named: 1}
	a.readWorkload()
	acc := partition.New(spec, partition.Options{Version: opts.HashVersion, MaxDistinct: opts.MaxDistinct})
	var over []*aggregate.LineError
	for _, r := range rows {
		// Counts past any container would overflow the totals.
		if int64(a.docs)+r.Documents > options.MaxTargetDocs || float64(a.bytes)+float64(r.Bytes) > options.MaxTargetGB*(1<<30) {
			over = append(over, &aggregate.LineError{Line: r.Line, Row: r.Row, Msg: fmt.Sprintf("with this row the aggregates pass %s documents or %s GB, more than pkcalc models: the row is left out",
				human.Count(options.MaxTargetDocs), human.Count(options.MaxTargetGB))})
			continue
		}
		if r.Requests > options.MaxWeight {
			over = append(over, &aggregate.LineError{Line: r.Line, Row: r.Row, Msg: fmt.Sprintf("requests %s is more than pkcalc models (%s, as a rate or a weight): the row is left out",
				strconv.FormatFloat(r.Requests, 'g', -1, 64), maxWeightText)})
			continue
		}
		acc.AddAggregate(r.Values, r.Documents, r.Bytes, r.Requests)
		a.docs += int(r.Documents)
		a.bytes += r.Bytes
	}
	a.accs, a.candidates = []*partition.Accumulator{acc}, 1
	// Both lists are in input order; so are the report's problems.
	for len(problems) > 0 || len(over) > 0 {
		var le *aggregate.LineError
		if len(over) == 0 || len(problems) > 0 && (!errors.As(problems[0], &le) || le.Line < over[0].Line || le.Line == over[0].Line && le.Row <= over[0].Row) {
			a.problem(aggregateProblem(problems[0]))
			problems = problems[1:]
		} else {
			a.problem(aggregateProblem(over[0]))
			over = over[1:]
		}
	}
	return a.finish()
}

// maxWeightText is options.MaxWeight as messages write it.
var maxWeightText = human.Count(options.MaxWeight)

// aggregateProblem wraps a row error; its message names the line.
func aggregateProblem(err error) *ingest.Error { return &ingest.Error{Msg: err.Error()} }

// settingWarnings are the time and weight fields and the keys the
// documents did not bear out: without them a report would show 0 % of
// requests everywhere, a time field in its header that nothing was
// measured by, or a key missing from every document with no word of why.
func (a *analysis) settingWarnings() []report.Notice {
	out := []report.Notice{}
	if a.docs == 0 {
		return out
	}
	n := human.Count(int64(a.docs))
	if w := a.opts.WeightPath; w != nil && weightedTraffic(a.opts.Workload.Traffic) {
		switch lacking := a.docs - a.weighed; {
		case a.weighed == 0:
			out = append(out, report.Notice{Code: report.WeightFieldUnused, Message: fmt.Sprintf("The weight field %s holds no number above 0 in any of the %s %s, so requests cannot follow it: every document is weighted the same instead.",
				paths.Format(w), n, human.Plural(int64(a.docs), "document", "documents"))})
		case 2*lacking > a.docs:
			out = append(out, report.Notice{Code: report.WeightFieldSparse, Message: fmt.Sprintf("The weight field %s holds no number above 0 in %s of the %s documents (it is missing, not a number, or 0 or less): they are counted as taking no requests.",
				paths.Format(w), human.Count(int64(lacking)), n)})
		}
		if a.capped > 0 {
			out = append(out, report.Notice{Code: report.WeightFieldCapped, Message: fmt.Sprintf("The weight field %s holds more than %s, the most pkcalc models, in %s %s: %s read as %s, so that the sums of requests stay finite. %s %s.",
				paths.Format(w), maxWeightText, human.Count(int64(a.capped)), human.Plural(int64(a.capped), "document", "documents"),
				human.Plural(int64(a.capped), "it is", "they are"), maxWeightText, human.Plural(int64(a.capped), "It is", "The first is"), a.cappedAt)})
		}
	}
	if t := a.timePath; t != nil {
		switch {
		case a.timed == 0:
			out = append(out, report.Notice{Code: report.TimeFieldNoTimes, Message: fmt.Sprintf("The time field %s holds no time (a date in a form pkcalc reads, such as ISO 8601 or RFC 1123, or seconds, milliseconds or microseconds since 1970) in any of the %s %s: nothing is measured against time, and no write spread is drawn.",
				paths.Format(t), n, human.Plural(int64(a.docs), "document", "documents"))})
		case 2*(a.docs-a.timed) > a.docs:
			out = append(out, report.Notice{Code: report.TimeFieldSparse, Message: fmt.Sprintf("The time field %s holds a time in only %s of the %s documents: the correlation with time and the write spread cover those alone.",
				paths.Format(t), human.Count(int64(a.timed)), n)})
		}
		if a.zeroTimed > 0 {
			out = append(out, report.Notice{Code: report.TimeFieldZero, Message: fmt.Sprintf("The time field %s holds 0, or 1970-01-01T00:00:00Z, in %s %s: what a time never set is written as. %s left out of the time the documents cover, the correlation with time and the write spread; a key's time bucket still reads %s as 1970, as the application's code would.",
				paths.Format(t), human.Count(int64(a.zeroTimed)), human.Plural(int64(a.zeroTimed), "document", "documents"),
				human.Plural(int64(a.zeroTimed), "It is", "They are"), human.Plural(int64(a.zeroTimed), "it", "them"))})
		}
	}
	// Throughput the service would not allow for the target's storage is
	// raised to its minimum (advisor.Evaluate).
	if t := a.opts.Throughput; t.RU > 0 {
		storage := max(a.bytes, a.targetBytes()) // projected up, never down
		if least := capacity.MinRU(t.Autoscale, storage, 0); t.RU < least {
			what := "RU/s"
			if t.Autoscale {
				what = "RU/s as the autoscale maximum"
			}
			out = append(out, report.Notice{Code: report.ThroughputBelowStorage, Message: fmt.Sprintf("%s %s is below the least the service allows for %s of data, %s %s: every figure uses %s instead.",
				human.Count(int64(t.RU)), what, human.Bytes(storage), human.Count(int64(least)), what, human.Count(int64(least)))})
		}
	}
	if f := a.factor(); f >= farProjection {
		// Whether customers to come are new customers or the same ones
		// ordering more, the input cannot tell: it says which it assumed.
		o, _ := options.Lookup("newValues")
		coming := fmt.Sprintf("Where new customers, users or tenants keep coming, each keeping the documents the input shows, name the paths of their ids in the setting %q (--%s, %s): keys on them then grow by new values.", o.Label, o.Flag, o.Name)
		if ps := formatPaths(a.opts.NewValuePaths); len(ps) > 0 {
			coming = fmt.Sprintf("Values of %s keep coming, as the settings say: a key on %s grows by new values, each keeping the documents the input shows.",
				strings.Join(ps, ", "), human.Plural(int64(len(ps)), "it", "one of them"))
		}
		out = append(out, report.Notice{Code: report.FarProjection, Message: fmt.Sprintf("The target, %s, is %s times the input (%s in %s %s): every figure at the target is the input's proportions grown that far. The values seen grow with the data, less what goes to new values: as large a share of the documents to come as the input's documents whose value is seen once (so where most are, the largest value's share falls); documents without the key keep their share; and which value is largest is the input's chance. %s Figures that rest on more: a larger sample, or per-key aggregates of the real data (pkcalc aggregate-query).",
			human.Bytes(a.targetBytes()), human.Count(int64(math.Round(f))), human.Bytes(a.bytes), human.Count(int64(a.docs)), human.Plural(int64(a.docs), "document", "documents"), coming)})
	}
	// A sample is projected up, never down (a factor below 1 is taken as 1).
	switch o := a.opts; {
	case o.TargetBytes > 0 && o.TargetBytes < a.bytes:
		out = append(out, report.Notice{Code: report.TargetBelowInput, Message: fmt.Sprintf("The target size, %s, is below the input's own, %s: a sample is projected up, never down, so every figure is for the input as it is.",
			human.Bytes(o.TargetBytes), human.Bytes(a.bytes))})
	case o.TargetBytes == 0 && o.TargetDocs > 0 && o.TargetDocs < int64(a.docs):
		out = append(out, report.Notice{Code: report.TargetBelowInput, Message: fmt.Sprintf("The target, %s %s, is below the input's own %s: a sample is projected up, never down, so every figure is for the input as it is.",
			human.Count(o.TargetDocs), human.Plural(o.TargetDocs, "document", "documents"), n)})
	}
	out = append(out, a.keysInArrays()...)
	return append(out, a.keysAbsent()...)
}

// keysInArrays are the named keys whose paths step into an array in the
// documents: /items/sku where /items holds arrays. Their text parses (a
// key's [] is refused as it is read), but no item holds a value there.
func (a *analysis) keysInArrays() []report.Notice {
	arrays, of := a.arrayPaths()
	var out []report.Notice
	seen := map[string]bool{}
	for _, k := range a.opts.Keys {
		if seen[k.String()] {
			continue
		}
		seen[k.String()] = true
		for _, p := range k.Paths {
			if at, docs := arrayStep(arrays, p); docs > 0 {
				out = append(out, report.Notice{Code: report.KeyInArray, Message: fmt.Sprintf("The key %s steps into %s, which holds an array in %s %s: a partition key names one value per item, so Cosmos DB stores those items under the undefined value. Name a property outside the array, or copy the value the key should take into the item itself.",
					k, at, human.Count(int64(docs)), of)})
				break
			}
		}
	}
	return out
}

// arrayPaths are the paths that hold an array in documents of the path
// table, with how many; of names those documents for a message ("of the
// first 100,000 documents").
func (a *analysis) arrayPaths() (arrays map[string]int, of string) {
	arrays = map[string]int{}
	for _, p := range a.paths {
		if !p.InArray && p.Types[jsontree.Array] > 0 {
			arrays[p.Path] = p.Types[jsontree.Array]
		}
	}
	// The path table covers the window: the first documents.
	of = "of the " + human.Count(int64(a.described)) + " documents"
	if a.described < a.docs {
		of = "of the first " + human.Count(int64(a.described)) + " documents"
	}
	return arrays, of
}

// farProjection is how many times the input a target must be for the
// report to say that its figures rest on the input's proportions alone.
const farProjection = 1000

// arrayStep is the first array a path steps into, and the documents that
// hold an array there; 0 documents for none.
func arrayStep(arrays map[string]int, path []string) (string, int) {
	for i := 1; i < len(path); i++ {
		at := paths.Format(path[:i])
		if docs := arrays[at]; docs > 0 {
			return at, docs
		}
	}
	return "", 0
}

// targetBytes is the expected size in bytes: as given, or the target's
// documents at the input's average size; 0 for none.
func (a *analysis) targetBytes() int64 {
	if a.opts.TargetBytes == 0 && a.opts.TargetDocs > 0 && a.docs > 0 {
		// In floating point: documents times the sample's bytes passes
		// int64's end long before the target's bytes do.
		return int64(min(float64(a.opts.TargetDocs)*float64(a.bytes)/float64(a.docs), options.MaxTargetGB*(1<<30)))
	}
	return a.opts.TargetBytes
}

// weightedTraffic is whether requests follow the weight field: weighted
// traffic, or none given with a weight field, as package advisor has it.
func weightedTraffic(t partition.Traffic) bool {
	return t == partition.ByWeight || t == ""
}

// whyNoRecommendation says why the report recommends no key: no documents,
// or no candidates.
func (a *analysis) whyNoRecommendation() *report.Notice {
	if a.docs == 0 {
		if a.errCount > 0 {
			return &report.Notice{Code: report.NoDocuments, Message: fmt.Sprintf("No document could be read (%d %s in the input): there is nothing to measure.",
				a.errCount, human.Plural(int64(a.errCount), "problem", "problems"))}
		}
		return &report.Notice{Code: report.NoDocuments, Message: "The input holds no documents: there is nothing to measure."}
	}
	usable, most := 0, 0
	for _, p := range a.paths {
		if p.Usable {
			usable++
			most = max(most, p.Distinct)
		}
	}
	docs := a.described
	switch {
	case usable == 0:
		return &report.Notice{Code: report.NoUsablePath, Message: "No path of the documents can be a partition key: each is in an array, a system property, or holds objects or arrays."}
	case docs < advisor.MinDistinct && most < advisor.MinDistinct:
		return &report.Notice{Code: report.TooFewValues, Message: fmt.Sprintf("Only %d %s: too few to suggest keys, as a suggested key needs at least %d distinct values. Name the keys to measure them.",
			docs, human.Plural(int64(docs), "document", "documents"), advisor.MinDistinct)}
	case most < advisor.MinDistinct:
		return &report.Notice{Code: report.TooFewValues, Message: fmt.Sprintf("No path has the %d distinct values a suggested key needs (the most is %d). Name the keys to measure them.", advisor.MinDistinct, most)}
	}
	return &report.Notice{Code: report.NoSuggestion, Message: "No path looks like a partition key: those with enough distinct values are in fewer than half the documents, have one value in more than a third of them, or hold measurements, counters, times, values that change during an item's life or free text. Name the keys to measure them."}
}
