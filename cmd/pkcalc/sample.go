package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/sample"
)

const sampleUsage = `Usage: pkcalc sample [--count N] orders|telemetry

Writes a built-in sample as JSON Lines, the one the web app's "Try a
sample" loads: orders of a multi-tenant shop (one tenant places almost half
of them), or readings of a fleet of sensors. The same count gives the same
documents everywhere.

Example: pkcalc sample orders > orders.json && pkcalc analyze orders.json`

// maxSample bounds --count: a sample is for trying pkcalc out.
const maxSample = 10_000_000

func runSample(args []string, stdout, stderr io.Writer) int {
	c := newCommand("sample", sampleUsage, stdout, stderr)
	count := whole(c.fs, "count", 0, fmt.Sprintf("`documents` to write (default %s orders or %s readings)",
		human.Count(sample.DefaultOrders), human.Count(sample.DefaultTelemetry)))
	if len(args) == 0 {
		c.help(stderr)
		return 2
	}
	rest, code, ok := c.parse(args, true)
	given := false // --count 0 is refused, not taken for the default
	c.fs.Visit(func(f *flag.Flag) { given = given || f.Name == "count" })
	switch {
	case !ok:
		return code
	case len(rest) != 1:
		return c.fail("name one sample: orders or telemetry")
	case *count < 0 || *count > maxSample || given && *count == 0:
		return c.fail("--count must be from 1 to %s, not %d", human.Count(maxSample), *count)
	}
	var write func(io.Writer, int) error
	n := *count
	switch rest[0] {
	case "orders":
		write = sample.Orders
		if n == 0 {
			n = sample.DefaultOrders
		}
	case "telemetry":
		write = sample.Telemetry
		if n == 0 {
			n = sample.DefaultTelemetry
		}
	default:
		return c.fail("no sample %q: the samples are orders and telemetry", rest[0])
	}
	if err := write(stdout, n); err != nil {
		fmt.Fprintf(stderr, "pkcalc sample: writing: %v\n", err)
		return 1
	}
	return 0
}
