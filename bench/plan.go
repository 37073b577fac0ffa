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
	// QueueBytes is the bottleneck queue (0: netimpair's default).
	QueueBytes int
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
	Loss  float64
	Cells map[string]*Cell
}

// Report is a finished plan.
type Report struct {
	Plan Plan
	Rows []Row
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
				link := &Link{Rate: p.Rate, Delay: p.Delay, Loss: loss, QueueBytes: p.QueueBytes,
					Seed: uint64(1000*li + i + 1)}
				res, err := p.one(ctx, tr, link)
				p.note(&row, tr, loss, i, res, err)
			}
		}
		rep.Rows = append(rep.Rows, row)
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
	if loss < 0 {
		label = "no bottleneck"
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

// Markdown renders the report as the table in docs/benchmarks.md:
// median goodput per transport, the RDT/quic-go ratio, RDT goodput as a
// share of what the link can carry, RDT's median spurious retransmission
// share and its worst stall over all runs.
func (r Report) Markdown() string {
	var b strings.Builder
	b.WriteString("| Loss | RDT Mbit/s | quic-go Mbit/s | TCP Mbit/s | RDT/quic-go | RDT / (rate×(1−loss)) | RDT spurious % | RDT max stall ms |\n")
	b.WriteString("|-----:|-----------:|---------------:|-----------:|------------:|----------------------:|---------------:|-----------------:|\n")
	for _, row := range r.Rows {
		label := fmt.Sprintf("%g %%", row.Loss*100)
		if row.Loss < 0 {
			label = "0 % (no bottleneck, loopback)"
		}
		rdt, rdtOK := row.median("rdt")
		q, qOK := row.median("quic-go")
		t, tOK := row.median("tcp")
		ratio, share := "—", "—"
		if rdtOK && qOK && q.Goodput() > 0 {
			ratio = fmt.Sprintf("%.3f", rdt.Goodput()/q.Goodput())
		}
		if rdtOK && row.Loss >= 0 && r.Plan.Rate > 0 {
			capacity := float64(r.Plan.Rate) / 1e6 * (1 - row.Loss)
			share = fmt.Sprintf("%.0f %%", 100*rdt.Goodput()/capacity)
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
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", label,
			row.cell("rdt", rdt, rdtOK), row.cell("quic-go", q, qOK), row.cell("tcp", t, tOK),
			ratio, share, spur, stall)
	}
	return b.String()
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
