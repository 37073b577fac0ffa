package cli

import (
	"context"
	"flag"
	"fmt"
	"os"

	"opsassist/config"
	"opsassist/storage/embed"
	"opsassist/storage/index"
	"opsassist/storage/retrieval"
)

const evalRetrievalUsage = `usage: opsassist eval-retrieval --corpus DIR --cases FILE [--config FILE] [--mode hybrid|vector|keyword] [--min-score X] [--part all|train|heldout] [--choose-floor]

Indexes every file under DIR into a temporary index with the configured
embedder (builtin unless --config names another) and runs the cases, one
JSON object per line: {"query": …, "want_file": "<file name>"}. Hits
under the relevance floor (--min-score, default the configured
search.min_score; 0 keeps every hit) are left out, as semantic_search
leaves them out. Prints a line per query whose file was not ranked
first, then recall@1, MRR and a last line "recall@3: 0.XXX (K/N)". Exit
status 0 whenever the eval ran.

--part runs half of the cases (train: even lines, heldout: odd lines);
--choose-floor prints, instead, the relevance floor the fixed rule
chooses on those cases (the highest that keeps 95 % of the wanted files
sharing a word with their query). Choose on train, report heldout.
`

// runEvalRetrieval runs "opsassist eval-retrieval".
func (c *CLI) runEvalRetrieval(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("eval-retrieval", flag.ContinueOnError)
	fs.SetOutput(c.stderr())
	fs.Usage = func() {} // flagError prints the help or the usage
	corpus := fs.String("corpus", "", "")
	file := fs.String("cases", "", "")
	cfgFile := fs.String("config", "", "")
	mode := fs.String("mode", "hybrid", "")
	minScore := fs.Float64("min-score", -1, "")
	part := fs.String("part", retrieval.PartAll, "")
	choose := fs.Bool("choose-floor", false, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return c.flagError(fs, err)
	}
	modes := map[string]string{"hybrid": index.ModeHybrid, "vector": index.ModeVector, "keyword": index.ModeKeyword}
	m, ok := modes[*mode]
	if *corpus == "" || *file == "" || len(pos) > 0 || !ok {
		c.printf(c.stderr(), "opsassist: eval-retrieval needs --corpus DIR and --cases FILE\n%s", evalRetrievalUsage)
		return ExitUsage
	}
	cfg := config.Defaults()
	if *cfgFile != "" {
		if err := cfg.LoadFile(*cfgFile); err != nil {
			c.printf(c.stderr(), "opsassist: %v\n", err)
			return ExitUsage
		}
	}
	ec := cfg.Search.EmbedConfig(func(k string) (string, bool) { v := c.getenv(k); return v, v != "" })
	ec.Logger = c.logger()
	emb, err := embed.New(ec)
	if err != nil {
		c.printf(c.stderr(), "opsassist: %v\n", err)
		return ExitUsage
	}
	cases, err := retrieval.LoadFile(*file)
	if err == nil {
		cases, err = retrieval.Split(cases, *part)
	}
	if err != nil {
		c.printf(c.stderr(), "opsassist: %v\n", err)
		return ExitError
	}
	tmp, err := os.MkdirTemp("", "opsassist-eval-index-")
	if err != nil {
		c.printf(c.stderr(), "opsassist: %v\n", err)
		return ExitError
	}
	defer os.RemoveAll(tmp)
	ctx, stop := c.interruptible(ctx)
	defer stop()
	idx, err := retrieval.Build(ctx, *corpus, tmp, emb)
	if err != nil {
		c.printf(c.stderr(), "opsassist: %v\n", err)
		return ExitError
	}
	defer idx.Close()
	if *choose {
		f, kept, n, err := retrieval.ChooseFloor(ctx, idx, cases, 0.95)
		if err != nil {
			c.printf(c.stderr(), "opsassist: %v\n", err)
			return ExitError
		}
		c.printf(c.stdout(), "floor: %.2f (keeps %d/%d wanted files that share a word with their query)\n", f, kept, n)
		return ExitOK
	}
	floor := cfg.Search.MinScore
	if *minScore >= 0 {
		floor = *minScore
	}
	r, err := retrieval.Evaluate(ctx, idx, cases, m, floor)
	if err != nil {
		c.printf(c.stderr(), "opsassist: %v\n", err)
		return ExitError
	}
	for _, miss := range r.Misses {
		c.printf(c.stdout(), "%s\n", miss)
	}
	if _, err := fmt.Fprintln(c.stdout(), r.Summary()); err != nil {
		c.printf(c.stderr(), "opsassist: writing output: %v\n", err)
		return ExitError
	}
	return ExitOK
}
