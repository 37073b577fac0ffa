package bench

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Plan is a benchmark matrix: every loss rate, Runs times each, for each
// transport, through a link of Rate and Delay; plus the no-bottleneck
// row (loopback, no relay) at 0 % loss.
type Plan struct {
	// File is the file every run moves.
	File File
	// Dir receives the downloads (deleted after each run).
	Dir string
	// Runs is how many times each cell runs; the table shows the median.
	Runs int
	// Losses are the loss rates, as fractions.
	Losses []float64
	// Rate is the bottleneck in bit/s.
	Rate int64
	// Delay is the one-way delay.
	Delay time.Duration
	// QueueBytes is the bottleneck queue; 0 means one BDP at Rate and
	// a round trip of 2×Delay (BDPBytes).
	QueueBytes int
	// FastRate, if not 0, adds a row at 0 % loss through a bottleneck of
	// this many bit/s (its queue one BDP at that rate).
	FastRate int64
	// Fairness adds the fairness scenario: two RDT flows, then RDT and
	// quic-go, at once through one bottleneck at 0 % loss, Runs times.
	Fairness bool
	// PeerLossMax, if not 0, skips the transports other than RDT at
	// random loss above 0 for files larger than this many bytes: quic-go
	// moves 1.5–7 Mbit/s there, 256 MiB would take 5–25 minutes a run.
	PeerLossMax int64
	// Transports are the ones to run: "rdt", "quic-go".
	Transports []string
	// RDTPayload is the DATA payload RDT asks for; 0 means its default.
	RDTPayload int
	// Baseline adds the no-bottleneck row: TCP and the Transports on
	// plain loopback, without a relay.
	Baseline bool
	// Timeout bounds one download.
	Timeout time.Duration
	// Log receives one line per run.
	Log io.Writer
}

// Cell is the results of one transport at one loss rate.
type Cell struct {
	Runs   []Result
	Errors []error
}

// Row is one loss rate.
type Row struct {
	// Loss is the loss rate; -1 marks the no-bottleneck row.
	Loss float64
	// Rate is the bottleneck of this row in bit/s when it is not the
	// plan's (the FastRate row), else 0.
	Rate  int64
	Cells map[string]*Cell
}

// Report is a finished plan.
type Report struct {
	Plan Plan
	Rows []Row
	// Pairs are the fairness runs: two RDT flows, then RDT and quic-go.
	Pairs []PairCell
}

// PairCell is the runs of one fairness scenario.
type PairCell struct {
	Transports [2]string
	Runs       []Pair
	Errors     []error
}

// queue is the bottleneck queue for rate: the plan's, or one BDP.
func (p Plan) queue(rate int64) int {
	if p.QueueBytes > 0 && rate == p.Rate {
		return p.QueueBytes
	}
	return BDPBytes(rate, 2*p.Delay)
}

// Run executes p, interleaving transports within each run so that both
// see the same machine load.
func (p Plan) Run(ctx context.Context) Report {
	rep := Report{Plan: p}
	if p.Baseline {
		row := Row{Loss: -1, Cells: map[string]*Cell{}}
		for i := range p.Runs {
			for _, tr := range append([]string{"tcp"}, p.Transports...) {
				res, err := p.one(ctx, tr, nil)
				p.note(&row, tr, -1, i, res, err)
			}
		}
		rep.Rows = append(rep.Rows, row)
	}
	for li, loss := range p.Losses {
		row := Row{Loss: loss, Cells: map[string]*Cell{}}
		for i := range p.Runs {
			for _, tr := range p.Transports {
				if tr != "rdt" && loss > 0 && p.PeerLossMax > 0 && p.File.Size > p.PeerLossMax {
					continue
				}
				link := &Link{Rate: p.Rate, Delay: p.Delay, Loss: loss, QueueBytes: p.queue(p.Rate),
					Seed: uint64(1000*li + i + 1)}
				res, err := p.one(ctx, tr, link)
				p.note(&row, tr, loss, i, res, err)
			}
		}
		rep.Rows = append(rep.Rows, row)
	}
	if p.FastRate > 0 {
		row := Row{Loss: 0, Rate: p.FastRate, Cells: map[string]*Cell{}}
		for i := range p.Runs {
			for _, tr := range p.Transports {
				link := &Link{Rate: p.FastRate, Delay: p.Delay, QueueBytes: p.queue(p.FastRate), Seed: uint64(90000 + i)}
				res, err := p.one(ctx, tr, link)
				p.note(&row, tr, 0, i, res, err)
			}
		}
		rep.Rows = append(rep.Rows, row)
	}
	if p.Fairness {
		for _, pair := range [][2]string{{"rdt", "rdt"}, {"rdt", "quic-go"}} {
			pc := PairCell{Transports: pair}
			for i := range p.Runs {
				link := Link{Rate: p.Rate, Delay: p.Delay, QueueBytes: p.queue(p.Rate), Seed: uint64(70000 + i)}
				pctx, cancel := context.WithTimeout(ctx, p.Timeout)
				res, err := RunPair(pctx, p.File, p.Dir, link, pair[0], pair[1])
				cancel()
				if err != nil {
					pc.Errors = append(pc.Errors, err)
				} else {
					pc.Runs = append(pc.Runs, res)
				}
				if p.Log != nil {
					if err != nil {
						fmt.Fprintf(p.Log, "fairness %s+%s run %d: FAILED: %v\n", pair[0], pair[1], i+1, err)
					} else {
						fmt.Fprintf(p.Log, "fairness %s+%s run %d: %.1f + %.1f Mbit/s over %v, shares %.0f %% / %.0f %%, Jain %.3f, queue drops %d\n",
							pair[0], pair[1], i+1, res.Mbps(0), res.Mbps(1), res.Window.Round(time.Millisecond),
							100*res.Share(0), 100*res.Share(1), res.Jain(), res.Relay.Reverse.QueueDropped)
					}
				}
			}
			rep.Pairs = append(rep.Pairs, pc)
		}
	}
	return rep
}

func (p Plan) one(ctx context.Context, tr string, link *Link) (Result, error) {
	ctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	switch tr {
	case "rdt":
		return RunRDT(ctx, p.File, p.Dir, link, p.RDTPayload)
	case "quic-go":
		return RunQUIC(ctx, p.File, p.Dir, link)
	case "tcp":
		return RunTCP(ctx, p.File, p.Dir)
	}
	return Result{}, fmt.Errorf("bench: unknown transport %q", tr)
}

func (p Plan) note(row *Row, tr string, loss float64, run int, res Result, err error) {
	c := row.Cells[tr]
	if c == nil {
		c = &Cell{}
		row.Cells[tr] = c
	}
	label := fmt.Sprintf("loss %g%%", loss*100)
	switch {
	case loss < 0:
		label = "no bottleneck"
	case row.Rate > 0:
		label = rateLabel(row.Rate)
	}
	if err != nil {
		c.Errors = append(c.Errors, err)
		if p.Log != nil {
			fmt.Fprintf(p.Log, "%-14s %-8s run %d: FAILED after %v: %v\n", label, tr, run+1, res.Elapsed.Round(time.Millisecond), err)
		}
		return
	}
	c.Runs = append(c.Runs, res)
	if p.Log != nil {
		fmt.Fprintf(p.Log, "%-14s %-8s run %d: %7.1f Mbit/s in %v", label, tr, run+1, res.Goodput(), res.Elapsed.Round(time.Millisecond))
		if tr == "rdt" {
			fmt.Fprintf(p.Log, "  sent %d retx %d spurious %d (%.2f%%) max stall %v",
				res.PacketsSent, res.Retransmits, res.Spurious, res.SpuriousPct(), res.MaxStall.Round(time.Millisecond))
		}
		if rev := res.Relay.Reverse; rev.PacketsIn > 0 {
			fmt.Fprintf(p.Log, "  relay to client: in %d lost %d queue-dropped %d", rev.PacketsIn, rev.Lost, rev.QueueDropped)
			if tr == "rdt" {
				fmt.Fprintf(p.Log, " (retx beyond drops %d)", res.ImpliedSpurious)
			}
		}
		fmt.Fprintln(p.Log)
	}
}

// Markdown renders the report as the tables in docs/benchmarks.md:
// median goodput per transport; RDT's completion time (min / median /
// max of the runs) and its median and worst against the ideal
// 2×RTT + size / (rate × (1 − loss)); quic-go's times; the RDT/quic-go
// and RDT/TCP ratios of the medians; RDT goodput as a share of what the
// link can carry; RDT's median spurious retransmission share and its
// worst stall over all runs. With the fairness scenario, a second table
// gives each flow's share and Jain's index.
func (r Report) Markdown() string {
	var b strings.Builder
	b.WriteString("| Loss | RDT Mbit/s | quic-go Mbit/s | TCP Mbit/s | RDT ms min/med/max | RDT med/ideal | RDT max/ideal | quic-go ms min/med/max | RDT/quic-go | RDT/TCP | RDT / (rate×(1−loss)) | RDT spurious % | RDT max stall ms |\n")
	b.WriteString("|-----:|-----------:|---------------:|-----------:|-------------------:|--------------:|--------------:|-----------------------:|------------:|--------:|----------------------:|---------------:|-----------------:|\n")
	rtt := 2 * r.Plan.Delay
	for _, row := range r.Rows {
		rate := r.Plan.Rate
		label := fmt.Sprintf("%g %%", row.Loss*100)
		switch {
		case row.Loss < 0:
			label, rate = "0 % (no bottleneck, loopback)", 0
		case row.Rate > 0:
			rate = row.Rate
			label = fmt.Sprintf("%g %% (%s bottleneck)", row.Loss*100, rateLabel(rate))
		}
		rdt, rdtOK := row.median("rdt")
		q, qOK := row.median("quic-go")
		t, tOK := row.median("tcp")
		ratio, tcpRatio, share := "—", "—", "—"
		if rdtOK && qOK && q.Goodput() > 0 {
			ratio = fmt.Sprintf("%.3f", rdt.Goodput()/q.Goodput())
		}
		if rdtOK && tOK && t.Goodput() > 0 {
			tcpRatio = fmt.Sprintf("%.3f", rdt.Goodput()/t.Goodput())
		}
		if rdtOK && rate > 0 {
			capacity := float64(rate) / 1e6 * (1 - row.Loss)
			share = fmt.Sprintf("%.0f %%", 100*rdt.Goodput()/capacity)
		}
		times, qtimes, medIdeal, maxIdeal := "—", "—", "—", "—"
		if rdtOK {
			sp := SpreadOf(row.Cells["rdt"].Runs)
			times = sp.String()
			if ideal := Ideal(r.Plan.File.Size, rate, rtt, max(row.Loss, 0)); ideal > 0 {
				medIdeal = fmt.Sprintf("%.2f", float64(sp.Median)/float64(ideal))
				maxIdeal = fmt.Sprintf("%.2f", float64(sp.Max)/float64(ideal))
			}
		}
		if qOK {
			qtimes = SpreadOf(row.Cells["quic-go"].Runs).String()
		}
		spur, stall := "—", "—"
		if rdtOK {
			c := row.Cells["rdt"]
			spurs := make([]float64, 0, len(c.Runs))
			var worst time.Duration
			for _, x := range c.Runs {
				spurs = append(spurs, x.SpuriousPct())
				worst = max(worst, x.MaxStall)
			}
			slices.Sort(spurs)
			spur = fmt.Sprintf("%.2f", spurs[(len(spurs)-1)/2])
			stall = fmt.Sprintf("%d", worst.Milliseconds())
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", label,
			row.cell("rdt", rdt, rdtOK), row.cell("quic-go", q, qOK), row.cell("tcp", t, tOK),
			times, medIdeal, maxIdeal, qtimes, ratio, tcpRatio, share, spur, stall)
	}
	if len(r.Pairs) > 0 {
		b.WriteString("\n| Flows (at once, 0 % loss) | Mbit/s each (median run) | Shares (median run) | Jain min/med/max | 2nd flow's share min |\n")
		b.WriteString("|---------------------------|-------------------------:|--------------------:|-----------------:|---------------------:|\n")
		for _, pc := range r.Pairs {
			name := pc.Transports[0] + " + " + pc.Transports[1]
			if len(pc.Runs) == 0 {
				fmt.Fprintf(&b, "| %s | fail (%d failed) | — | — | — |\n", name, len(pc.Errors))
				continue
			}
			runs := slices.Clone(pc.Runs)
			slices.SortFunc(runs, func(a, b Pair) int { return cmpFloat(a.Jain(), b.Jain()) })
			med := runs[(len(runs)-1)/2]
			minShare := 1.0
			for _, x := range runs {
				minShare = min(minShare, x.Share(1))
			}
			failed := ""
			if n := len(pc.Errors); n > 0 {
				failed = fmt.Sprintf(" (%d/%d failed)", n, n+len(runs))
			}
			fmt.Fprintf(&b, "| %s | %.1f + %.1f%s | %.0f %% / %.0f %% | %.3f / %.3f / %.3f | %.0f %% |\n", name,
				med.Mbps(0), med.Mbps(1), failed, 100*med.Share(0), 100*med.Share(1),
				runs[0].Jain(), med.Jain(), runs[len(runs)-1].Jain(), 100*minShare)
		}
	}
	return b.String()
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// rateLabel writes a rate in bit/s as "100 Mbit/s" or "1 Gbit/s".
func rateLabel(rate int64) string {
	if rate >= 1e9 && rate%1e9 == 0 {
		return fmt.Sprintf("%d Gbit/s", rate/1e9)
	}
	return fmt.Sprintf("%g Mbit/s", float64(rate)/1e6)
}

// String formats the spread in milliseconds, "min/median/max".
func (s Spread) String() string {
	return fmt.Sprintf("%d/%d/%d", s.Min.Milliseconds(), s.Median.Milliseconds(), s.Max.Milliseconds())
}

func (row Row) median(tr string) (Result, bool) {
	c := row.Cells[tr]
	if c == nil || len(c.Runs) == 0 {
		return Result{}, false
	}
	return Median(c.Runs), true
}

// cell formats a median goodput, flagging failed runs.
func (row Row) cell(tr string, r Result, ok bool) string {
	c := row.Cells[tr]
	if c == nil {
		return "—"
	}
	s := "fail"
	if ok {
		s = fmt.Sprintf("%.1f", r.Goodput())
	}
	if n := len(c.Errors); n > 0 {
		s += fmt.Sprintf(" (%d/%d failed)", n, n+len(c.Runs))
	}
	return s
}
