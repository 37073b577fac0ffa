// Command udpimpair runs a netimpair relay: a userspace UDP relay with
// seeded loss, burst loss, duplication, reordering, corruption, delay
// with jitter and a token-bucket bottleneck, for machines without tc
// netem. Clients send to -listen; the relay forwards to -upstream.
//
//	udpimpair -listen 127.0.0.1:9999 -upstream 127.0.0.1:9998 \
//	    -rate 100M -queue 256KiB -delay 10ms -loss 0.05 -seed 1
//
// Impairments apply to both directions unless -dir says forward
// (client→server) or reverse (server→client). It runs until SIGINT or
// SIGTERM and prints the relay's counters at exit. See docs/udpimpair.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"go.uber.org/zap"

	"opsassist/netimpair"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args, runs the relay until ctx is done and prints its
// counters to stdout. It returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("udpimpair", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		cfg      netimpair.Config
		im       netimpair.Impairment
		ge       = fs.String("ge", "", "Gilbert-Elliott burst loss `p,r[,lossbad[,lossgood]]`")
		rate     = fs.String("rate", "0", "bottleneck `rate` in bit/s, e.g. 100M (0: none)")
		queue    = fs.String("queue", "", "bottleneck queue limit: `bytes` (e.g. 256KiB) or packets (e.g. 100p); default 50 ms at -rate")
		burst    = fs.String("burst", "", "token-bucket depth in `bytes` (default 3000)")
		dir      = fs.String("dir", "both", "impaired `direction`: both, forward (client→server) or reverse")
		verbose  = fs.Bool("v", false, "log every client")
		addrFile = fs.String("addr-file", "", "write the listening address to this `file` once ready")
	)
	fs.StringVar(&cfg.Listen, "listen", netimpair.DefaultListen, "UDP `address` clients send to")
	fs.StringVar(&cfg.Upstream, "upstream", "", "UDP `address` of the server (required)")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random `seed`")
	fs.Float64Var(&im.Loss, "loss", 0, "Bernoulli loss `probability` (0.05 = 5%)")
	fs.Float64Var(&im.Duplicate, "dup", 0, "duplication `probability`")
	fs.Float64Var(&im.Reorder, "reorder", 0, "`probability` a packet is held back by -reorder-delay")
	fs.DurationVar(&im.ReorderDelay, "reorder-delay", netimpair.DefaultReorderDelay, "hold-back of a reordered packet")
	fs.Float64Var(&im.Corrupt, "corrupt", 0, "`probability` one bit of a packet is flipped")
	fs.DurationVar(&im.Delay, "delay", 0, "one-way `delay`")
	fs.DurationVar(&im.Jitter, "jitter", 0, "delay `jitter` (±, does not reorder)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := parseImpairment(&im, *ge, *rate, *queue, *burst); err != nil {
		fmt.Fprintln(stderr, "udpimpair:", err)
		return 2
	}
	switch *dir {
	case "both":
		cfg.Forward, cfg.Reverse = im, im
	case "forward":
		cfg.Forward = im
	case "reverse":
		cfg.Reverse = im
	default:
		fmt.Fprintf(stderr, "udpimpair: -dir %q: want both, forward or reverse\n", *dir)
		return 2
	}
	level := zap.InfoLevel
	if *verbose {
		level = zap.DebugLevel
	}
	lc := zap.NewDevelopmentConfig()
	lc.Level = zap.NewAtomicLevelAt(level)
	log, err := lc.Build()
	if err != nil {
		fmt.Fprintln(stderr, "udpimpair:", err)
		return 1
	}
	defer func() { _ = log.Sync() }()
	cfg.Logger = log

	r, err := netimpair.New(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "udpimpair:", err)
		return 1
	}
	if *addrFile != "" {
		if err := os.WriteFile(*addrFile, []byte(r.Addr().String()+"\n"), 0o644); err != nil {
			fmt.Fprintln(stderr, "udpimpair:", err)
			_ = r.Close()
			return 1
		}
	}
	fmt.Fprintf(stdout, "udpimpair: %s -> %s\n", r.Addr(), cfg.Upstream)
	<-ctx.Done()
	err = r.Close()
	st := r.Stats()
	fmt.Fprintf(stdout, "clients: %d\nforward: %v\nreverse: %v\n", st.Clients, st.Forward, st.Reverse)
	if err != nil {
		fmt.Fprintln(stderr, "udpimpair:", err)
		return 1
	}
	return 0
}

// parseImpairment fills the parts of im given as strings.
func parseImpairment(im *netimpair.Impairment, ge, rate, queue, burst string) error {
	var err error
	if im.Rate, err = netimpair.ParseRate(rate); err != nil {
		return err
	}
	if queue != "" {
		if n, ok := strings.CutSuffix(queue, "p"); ok {
			v, err := strconv.Atoi(n)
			if err != nil || v < 0 {
				return fmt.Errorf("-queue %q: bad packet count", queue)
			}
			im.QueuePackets = v
		} else {
			v, err := netimpair.ParseSize(queue)
			if err != nil {
				return err
			}
			im.QueueBytes = int(v)
		}
	}
	if burst != "" {
		v, err := netimpair.ParseSize(burst)
		if err != nil {
			return err
		}
		im.BucketBytes = int(v)
	}
	if ge != "" {
		parts := strings.Split(ge, ",")
		if len(parts) < 2 || len(parts) > 4 {
			return errors.New("-ge wants p,r[,lossbad[,lossgood]]")
		}
		vals := make([]float64, 4)
		for i, p := range parts {
			if vals[i], err = strconv.ParseFloat(strings.TrimSpace(p), 64); err != nil {
				return fmt.Errorf("-ge %q: %w", ge, err)
			}
		}
		im.GE = netimpair.GilbertElliott{P: vals[0], R: vals[1], LossBad: vals[2], LossGood: vals[3]}
	}
	return nil
}
