package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/plan"
	"github.com/pkcalc/pkcalc/core/telemetry"
)

const planUsage = `Usage: pkcalc plan scale|merge|redistribute|burst|ingest|migrate|hierarchy [flags]

Plans an operation on a container as steps, each with the documented rule
it follows, the az command that carries it out and the layout it leaves
(each physical partition's key space, RU/s and storage); docs/PLAN.md has
every rule and an example of each.
  scale         change the RU/s: instant, or by the splits that keep the key space even
  merge         whether the partitions can be merged, and what a merge leaves
  redistribute  give hot partitions RU/s of their own
  burst         what burst capacity absorbs of a spike; per-partition autoscale's bill
  ingest        a bulk load: the partitions to create, the RU/s, the hours
  migrate       copy the items to a container with a new partition key
  hierarchy     load a hierarchical key of few first-level values: the FAQ's two ways, on your documents
Start from a planned container (--partitions, --ru, --storage-gb) or from a
real one's partition key ranges (--ranges FILE). Run 'pkcalc plan
SUBCOMMAND --help' for its flags.`

var planUsages = map[string]string{
	"scale": `Usage: pkcalc plan scale --ru N --to N [--partitions N | --ranges FILE] [--storage-gb G] [--autoscale]

Plans a change of the RU/s to --to. Example:
  pkcalc plan scale --partitions 5 --ru 50000 --to 150000`,
	"merge": `Usage: pkcalc plan merge --ru N [--partitions N | --ranges FILE] --storage-gb G [--autoscale]

Says whether the container is a merge candidate and what a merge leaves. Example:
  pkcalc plan merge --partitions 5 --ru 5000 --autoscale --storage-gb 74`,
	"redistribute": `Usage: pkcalc plan redistribute --ru N [--partitions N | --ranges FILE] --demand ID=RU[:429S:CHARGE]...

Gives each partition named by --demand its consumed RU/s plus its 429s a
second times their average charge; the others keep their share. Example:
  pkcalc plan redistribute --partitions 3 --ru 6000 --demand 0=2000 --demand 1=3000:20:50 --demand 2=1000`,
	"burst": `Usage: pkcalc plan burst --ru N [--partitions N | --ranges FILE] --spike-ru N --seconds S [--used-ru N]
       [--autoscale --usage "1,0;0,0"]

Says what burst capacity absorbs of a spike on one partition, and with
--usage what per-partition autoscale bills against uniform scaling. Example:
  pkcalc plan burst --partitions 1 --ru 100 --spike-ru 3000 --seconds 10`,
	"ingest": `Usage: pkcalc plan ingest --storage-gb G [--documents N] [--doc-kb K] [--write-ru W] [--ru N] [--key SPEC] [--autoscale]

Plans a bulk load into a new container; --ru is the RU/s to lower to after. Example:
  pkcalc plan ingest --storage-gb 1000 --documents 1e9 --write-ru 10 --ru 20000`,
	"migrate": `Usage: pkcalc plan migrate --key SPEC --ru N --storage-gb G [--documents N] [--doc-kb K] [--write-ru W]

Plans copying the container to one keyed --key, at --ru RU/s. Example:
  pkcalc plan migrate --key /tenantId,/userId,/id --ru 50000 --storage-gb 200 --doc-kb 2`,
	"hierarchy": `Usage: pkcalc plan hierarchy --key SPEC --ru N [--target-gb G] [--autoscale] [--approach 1|2] FILE...

Simulates, on the documents in FILE grown to --target-gb, the hierarchical
partition keys FAQ's two ways to load a container whose key's first level
has few values, each step with its layout: 1, create it with one partition,
ingest 5 GB and scale up to --ru, so that the partitions split where the
data is; 2, create it at --ru, ingest everything and merge. Says which
leaves the data more evenly. FILE is read as pkcalc analyze reads it. Example:
  pkcalc plan hierarchy --key /tenantId,/userId --ru 50000 --target-gb 200 orders.jsonl`,
}

func runPlan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, planUsage)
		return 2
	}
	sub := args[0]
	switch sub {
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, planUsage)
		return 0
	}
	usage, ok := planUsages[sub]
	if !ok {
		fmt.Fprintf(stderr, "pkcalc plan: unknown subcommand %q: give scale, merge, redistribute, burst, ingest, migrate or hierarchy\n", sub)
		return 2
	}
	c := newCommand("plan "+sub, usage, stdout, stderr)
	help := func(name string) string {
		o, _ := options.Lookup(name)
		return o.Help
	}
	var (
		ct      plan.Container
		to      int
		ranges  string
		format  string
		keyText string
		demands demandFlags
		spike   plan.Spike
		usage_  string
		load    plan.Load
		// hierarchy's
		targetGB    float64
		approach    int
		inputFormat string
	)
	fs := c.fs
	wholeVar(fs, &ct.RU, "ru", 0, help("ru"))
	fs.BoolVar(&ct.Autoscale, "autoscale", false, help("autoscale"))
	fs.StringVar(&format, "format", "text", "output `format`: text, json or markdown")
	fs.StringVar(&ct.Account, "account", "", "the account, for the commands (default: a placeholder)")
	fs.StringVar(&ct.ResourceGroup, "resource-group", "", "the account's resource group, for the commands")
	fs.StringVar(&ct.Database, "database", "", "the database, for the commands (default: appdb)")
	fs.StringVar(&ct.Name, "container", "", "the container, for the commands (default: items)")
	if sub != "hierarchy" {
		realVar(fs, &ct.StorageGB, "storage-gb", 0, "the data the container holds, in `GB`")
	}
	if sub != "ingest" && sub != "hierarchy" {
		wholeVar(fs, &ct.Partitions, "partitions", 0, "the container's physical `partitions` (default: as the service creates it for --ru and --storage-gb)")
		fs.StringVar(&ranges, "ranges", "", help("ranges"))
	}
	switch sub {
	case "scale":
		wholeVar(fs, &to, "to", 0, "the `RU/s` to scale to (the autoscale maximum with --autoscale)")
	case "redistribute":
		fs.Var(&demands, "demand", "a partition's demand, `ID=RU[:429S:CHARGE]`: the RU/s it consumed, its requests answered 429 a second and their average charge (repeatable)")
	case "burst":
		realVar(fs, &spike.RU, "spike-ru", 0, "the `RU/s` the spike asks of one partition")
		realVar(fs, &spike.Seconds, "seconds", 0, "how many `seconds` the spike lasts")
		realVar(fs, &spike.UsedRU, "used-ru", 0, "the `RU/s` the partition used in the 5 minutes before (default 0: idle)")
		fs.StringVar(&usage_, "usage", "", "each partition's highest use in an hour as a share of its part of the autoscale maximum, `0.9,0.1;0.5,0.1`: partitions by commas, regions by semicolons")
	case "ingest", "migrate":
		realVar(fs, &load.Documents, "documents", 0, "the `documents` to write (default: --storage-gb over --doc-kb)")
		realVar(fs, &load.DocKB, "doc-kb", 0, "their average size in `KB` (default 1)")
		realVar(fs, &load.WriteRU, "write-ru", 0, "`RU` per write (default: pkcalc's model for --doc-kb)")
		def := ""
		if sub == "ingest" {
			def = "/id"
		}
		fs.StringVar(&keyText, "key", def, "the new container's partition key, as pkcalc analyze --key writes keys")
	case "hierarchy":
		fs.StringVar(&keyText, "key", "", "the hierarchical partition key, as pkcalc analyze --key writes keys (/tenantId,/userId)")
		realVar(fs, &targetGB, "target-gb", 0, "the data the container is to hold, in `GB` (default: the documents' own size)")
		wholeVar(fs, &approach, "approach", 0, "show the steps of one approach only, `number` 1 or 2 (default: both)")
		fs.StringVar(&inputFormat, "input-format", "", inputFormatUsage)
	}
	if len(args) == 1 {
		c.help(stderr)
		return 2
	}
	rest, code, ok := c.parse(args[1:], sub == "hierarchy")
	if !ok {
		return code
	}
	if len(rest) > 0 && sub != "hierarchy" {
		return c.fail("unexpected argument %q", rest[0])
	}
	if format != "text" && format != "json" && format != "markdown" {
		return c.fail("--format is %q: give text, json or markdown", format)
	}
	if ranges != "" {
		src, done, err := open(ranges, stdin)
		if err != nil {
			return c.fail("--ranges: %v", err)
		}
		rs, errs := telemetry.ReadRanges(src)
		done()
		for _, err := range errs {
			var te *telemetry.Error
			if errors.As(err, &te) && te.Note {
				continue
			}
			return c.fail("--ranges %s: %v", ranges, err)
		}
		for _, r := range rs {
			ct.Ranges = append(ct.Ranges, plan.Range{ID: r.ID, Range: r.Range, ThroughputFraction: r.ThroughputFraction})
		}
	}
	if keyText != "" {
		spec, err := key.Parse(keyText)
		if err != nil {
			return c.fail("--key: %v", err)
		}
		load.Key = spec
	}
	var (
		p   plan.Plan
		err error
	)
	switch sub {
	case "scale":
		if to == 0 {
			return c.fail("give the RU/s to scale to with --to")
		}
		p, err = plan.Scale(ct, to)
	case "merge":
		p, err = plan.Merge(ct)
	case "redistribute":
		p, err = plan.Redistribute(ct, demands)
	case "burst":
		if spike.Usage, err = parseUsage(usage_); err != nil {
			return c.fail("--usage: %v", err)
		}
		p, err = plan.Burst(ct, spike)
	case "ingest":
		p, err = plan.Ingest(ct, load)
	case "migrate":
		if keyText == "" {
			return c.fail("give the new partition key with --key")
		}
		p, err = plan.Migrate(ct, load)
	case "hierarchy":
		if keyText == "" {
			return c.fail("give the hierarchical partition key with --key, such as /tenantId,/userId")
		}
		if !(targetGB >= 0) || targetGB > float64(options.MaxTargetGB) {
			return c.fail("--target-gb is %v: give 0 to %s GB", targetGB, human.Count(options.MaxTargetGB))
		}
		if err := checkInputFormat(inputFormat); err != nil {
			return c.fail("%v", err)
		}
		if len(rest) == 0 {
			return c.fail("no documents: name a FILE of documents, or - for standard input")
		}
		d, derr := distribution(rest, inputFormat, stdin, load.Key)
		if derr != nil {
			return c.fail("%v", derr)
		}
		ct.StorageGB = targetGB
		p, err = plan.Hierarchy(ct, documentsOf(d), approach)
	}
	if err != nil {
		return c.fail("%v", err)
	}
	switch format {
	case "json":
		err = plan.WriteJSON(stdout, p)
	case "markdown":
		err = plan.WriteMarkdown(stdout, p)
	default:
		err = plan.WriteText(stdout, p)
	}
	if err != nil {
		fmt.Fprintf(stderr, "pkcalc plan: writing: %v\n", err)
		return 1
	}
	return 0
}

// demandFlags are every --demand, in order.
type demandFlags []plan.Demand

func (d *demandFlags) String() string { return "" }

func (d *demandFlags) Set(s string) error {
	id, rest, ok := strings.Cut(s, "=")
	if !ok || id == "" {
		return fmt.Errorf("%q is not ID=RU[:429S:CHARGE], such as 0=2500:10:55", s)
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 1 && len(parts) != 3 {
		return fmt.Errorf("%q: give the consumed RU/s alone, or with the 429s a second and their average charge (ID=RU:429S:CHARGE)", s)
	}
	var nums []float64
	for _, p := range parts {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || !(f >= 0) || f > 1e9 {
			return fmt.Errorf("%q: %q is not a number from 0 to 10^9", s, p)
		}
		nums = append(nums, f)
	}
	dm := plan.Demand{ID: id, ConsumedRU: nums[0]}
	if len(nums) == 3 {
		dm.Throttled, dm.AvgCharge = nums[1], nums[2]
	}
	*d = append(*d, dm)
	return nil
}

// parseUsage reads "0.9,0.1;0.5,0.1": shares by partition, regions apart.
func parseUsage(s string) ([][]float64, error) {
	if s == "" {
		return nil, nil
	}
	var out [][]float64
	for i, region := range strings.Split(s, ";") {
		var row []float64
		for _, v := range strings.Split(region, ",") {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || !(f >= 0 && f <= 1) {
				return nil, fmt.Errorf("region %d: %q is not a share from 0 to 1", i+1, v)
			}
			row = append(row, f)
		}
		if len(row) > plan.MaxPartitions {
			return nil, fmt.Errorf("region %d lists more than %d partitions", i+1, plan.MaxPartitions)
		}
		out = append(out, row)
	}
	if len(out) > 100 {
		return nil, errors.New("more than 100 regions")
	}
	return out, nil
}

// documentsOf is d as plan.Hierarchy takes it: projected as pkcalc
// analyze projects, against the logical partition limits.
func documentsOf(d *partition.Distribution) *plan.Documents {
	alert := int64(capacity.AlertFraction * float64(capacity.LogicalPartitionMaxBytes))
	return &plan.Documents{Spec: d.Spec, Documents: d.Documents, Bytes: d.Bytes,
		Project: func(factor float64, ranges []epk.Range, maxPhysical int64) []plan.Placed {
			var out []plan.Placed
			for _, ph := range d.Project(factor, ranges, capacity.LogicalPartitionMaxBytes, alert, maxPhysical).Physical {
				out = append(out, plan.Placed{MinInclusive: ph.MinInclusive, MaxExclusive: ph.MaxExclusive, Documents: ph.Documents, Bytes: ph.Bytes, Requests: ph.Requests})
			}
			return out
		}}
}

// distribution reads the documents of files, as pkcalc analyze reads them,
// into spec's distribution; the first problem in them is the error.
func distribution(files []string, format string, stdin io.Reader, spec key.Spec) (*partition.Distribution, error) {
	in, done, err := openInputs(files, format, stdin)
	if err != nil {
		return nil, err
	}
	defer done()
	acc := partition.New(spec, partition.Options{})
	for {
		doc, err := in.Next()
		if err == io.EOF {
			break
		}
		var ie *ingest.Error
		if errors.As(err, &ie) && len(files) == 1 {
			return nil, fmt.Errorf("%s: %v", in.name(), err)
		}
		if err != nil {
			return nil, err
		}
		acc.Add(doc)
	}
	return acc.Finish(), nil
}
