// Command rdtbench compares RDT with quic-go (and plain TCP) moving the
// same random file through the same netimpair relay, and prints a
// Markdown table of median goodputs:
//
//	cd bench && go run ./cmd/rdtbench -size 64MiB -runs 3 -loss 0,1,5,10
//
// Defaults: a 100 Mbit/s bottleneck with a 256 KiB queue and 10 ms of
// one-way delay in both directions, loss applied to both directions,
// plus a no-bottleneck row (TCP, RDT and quic-go straight over
// loopback). Per-run lines go to stderr as they finish.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"time"

	"opsassist/bench"
	"opsassist/netimpair"
)

func main() {
	// quic-go asks for 7 MB socket buffers; the kernel caps them at
	// rmem_max, which is fine for 100 Mbit/s.
	os.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "true")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rdtbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		size       = fs.String("size", "64MiB", "file `size`")
		runs       = fs.Int("runs", 3, "runs per cell (the table shows the median)")
		losses     = fs.String("loss", "0,1,5,10", "loss rates in `percent`, comma-separated; none: only the no-bottleneck row")
		rate       = fs.String("rate", "100M", "bottleneck `rate` in bit/s")
		delay      = fs.Duration("delay", 10*time.Millisecond, "one-way `delay`")
		queue      = fs.String("queue", "256KiB", "bottleneck queue `bytes`")
		transports = fs.String("transports", "rdt,quic-go", "transports to compare")
		baseline   = fs.Bool("baseline", true, "add the no-bottleneck row (TCP, and the transports, on loopback)")
		timeout    = fs.Duration("timeout", 5*time.Minute, "limit per download")
		payload    = fs.Int("rdt-payload", 0, "RDT DATA payload `bytes` to ask for (0: RDT's default, 1200)")
		dir        = fs.String("dir", "", "scratch `directory` (default: a new temporary one)")
	)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "rdtbench:", err); return 1 }
	n, err := netimpair.ParseSize(*size)
	if err != nil {
		return fail(err)
	}
	r, err := netimpair.ParseRate(*rate)
	if err != nil {
		return fail(err)
	}
	q, err := netimpair.ParseSize(*queue)
	if err != nil {
		return fail(err)
	}
	var ls []float64
	for _, s := range strings.Split(*losses, ",") {
		if *losses == "none" {
			break
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v < 0 || v >= 100 {
			return fail(fmt.Errorf("-loss %q: bad percentage", s))
		}
		ls = append(ls, v/100)
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "rdtbench")
		if err != nil {
			return fail(err)
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	f, err := bench.MakeFile(*dir, "payload.bin", n, 1)
	if err != nil {
		return fail(err)
	}
	plan := bench.Plan{
		File: f, Dir: *dir, Runs: *runs, Losses: ls, Rate: r, Delay: *delay, QueueBytes: int(q),
		Transports: strings.Split(*transports, ","), Baseline: *baseline, RDTPayload: *payload, Timeout: *timeout, Log: stderr,
	}
	start := time.Now()
	rep := plan.Run(ctx)
	host, _ := os.Hostname()
	fmt.Fprintf(stdout, "rdtbench %s: %s file, %d runs, bottleneck %s bit/s, queue %s, one-way delay %v, loss both ways, rdt payload %d (0: default); %s/%s, %d CPUs, %s, host %s, took %v\n\n",
		time.Now().UTC().Format(time.RFC3339), *size, *runs, *rate, *queue, *delay, *payload,
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), host, time.Since(start).Round(time.Second))
	fmt.Fprint(stdout, rep.Markdown())
	return 0
}
