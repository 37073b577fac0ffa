// Command rdtbench compares RDT with quic-go (and plain TCP) moving the
// same random file through the same netimpair relay, and prints one
// Markdown table per file size (median goodputs, completion times
// min/median/max against the ideal) and, with -fairness, the fairness
// table:
//
//	cd bench && go run ./cmd/rdtbench -size 1MiB,16MiB,256MiB -runs 5 -loss 0,1,5,10 -fast-rate 1G -fairness
//
// Defaults: a 100 Mbit/s bottleneck with a queue of one BDP and 10 ms
// of one-way delay in both directions, loss applied to both directions,
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
		sizes      = fs.String("size", "1MiB,16MiB,256MiB", "file `sizes`, comma-separated: one table each")
		runs       = fs.Int("runs", 5, "runs per cell (the tables show min, median and max)")
		losses     = fs.String("loss", "0,1,5,10", "loss rates in `percent`, comma-separated; none: only the no-bottleneck row")
		rate       = fs.String("rate", "100M", "bottleneck `rate` in bit/s")
		delay      = fs.Duration("delay", 10*time.Millisecond, "one-way `delay`")
		queue      = fs.String("queue", "bdp", "bottleneck queue `bytes`, or bdp for one bandwidth-delay product")
		fastRate   = fs.String("fast-rate", "", "add a 0 % loss row through a bottleneck of this `rate` (e.g. 1G)")
		fairness   = fs.Bool("fairness", false, "add the fairness scenario (two RDT flows; RDT + quic-go) at 0 % loss")
		fairSize   = fs.String("fair-size", "64MiB", "file `size` each flow of the fairness scenario moves")
		transports = fs.String("transports", "rdt,quic-go", "transports to compare")
		peerMax    = fs.String("peer-loss-max", "16MiB", "run transports other than rdt at loss > 0 only for files up to this `size` (0: always)")
		baseline   = fs.Bool("baseline", true, "add the no-bottleneck row (TCP, and the transports, on loopback)")
		timeout    = fs.Duration("timeout", 5*time.Minute, "limit per download")
		payload    = fs.Int("rdt-payload", 0, "RDT DATA payload `bytes` to ask for (0: RDT's default, 1200)")
		dir        = fs.String("dir", "", "scratch `directory` (default: a new temporary one)")
	)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "rdtbench:", err); return 1 }
	r, err := netimpair.ParseRate(*rate)
	if err != nil {
		return fail(err)
	}
	var q int64
	if *queue != "bdp" {
		if q, err = netimpair.ParseSize(*queue); err != nil {
			return fail(err)
		}
	}
	var fr int64
	if *fastRate != "" {
		if fr, err = netimpair.ParseRate(*fastRate); err != nil {
			return fail(err)
		}
	}
	pm, err := netimpair.ParseSize(*peerMax)
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
	base := bench.Plan{
		Dir: *dir, Runs: *runs, Losses: ls, Rate: r, Delay: *delay, QueueBytes: int(q), FastRate: fr, PeerLossMax: pm,
		Transports: strings.Split(*transports, ","), Baseline: *baseline, RDTPayload: *payload, Timeout: *timeout, Log: stderr,
	}
	queueText := *queue
	if q == 0 {
		queueText = fmt.Sprintf("1 BDP = %d B", bench.BDPBytes(r, 2**delay))
	}
	host, _ := os.Hostname()
	fmt.Fprintf(stdout, "rdtbench %s: %d runs, bottleneck %s bit/s, queue %s, one-way delay %v, loss both ways, rdt payload %d (0: default); %s/%s, %d CPUs, %s, host %s\n",
		time.Now().UTC().Format(time.RFC3339), *runs, *rate, queueText, *delay, *payload,
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), host)
	for i, s := range strings.Split(*sizes, ",") {
		n, err := netimpair.ParseSize(strings.TrimSpace(s))
		if err != nil {
			return fail(err)
		}
		f, err := bench.MakeFile(*dir, fmt.Sprintf("payload%d.bin", i), n, 1)
		if err != nil {
			return fail(err)
		}
		plan := base
		plan.File = f
		start := time.Now()
		rep := plan.Run(ctx)
		fmt.Fprintf(stdout, "\n#### %s file (took %v)\n\n", strings.TrimSpace(s), time.Since(start).Round(time.Second))
		fmt.Fprint(stdout, rep.Markdown())
		os.Remove(f.Path)
	}
	if *fairness {
		n, err := netimpair.ParseSize(*fairSize)
		if err != nil {
			return fail(err)
		}
		f, err := bench.MakeFile(*dir, "fair.bin", n, 2)
		if err != nil {
			return fail(err)
		}
		plan := base
		plan.File, plan.Losses, plan.Baseline, plan.FastRate, plan.Fairness = f, nil, false, 0, true
		start := time.Now()
		rep := plan.Run(ctx)
		fmt.Fprintf(stdout, "\n#### Fairness: two %s downloads at once (took %v)\n", *fairSize, time.Since(start).Round(time.Second))
		md := rep.Markdown()
		if i := strings.Index(md, "\n\n"); i >= 0 {
			md = md[i:] // only the fairness table
		}
		fmt.Fprint(stdout, md)
	}
	return 0
}
