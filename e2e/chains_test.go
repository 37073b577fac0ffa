package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/agent/eval"
	"opsassist/api"
	"opsassist/client"
)

// chainsFile holds the multi-step eval cases (docs/evals.md).
const chainsFile = "../testdata/evals/chains.jsonl"

// TestChains runs every multi-step eval case through a whole daemon
// with the builtin planner, its real toolset and uploads stored under
// a t.TempDir data directory: each case in a conversation of its own,
// its uploads sent (and indexed) and its messages asked in order. A case
// fails on any unmet expectation; a known_gap case is expected to fail,
// is logged with what it lacks, and fails the test once it passes, so
// its marker is removed when the answer lands.
func TestChains(t *testing.T) {
	t.Parallel()
	f, err := os.Open(chainsFile)
	if err != nil {
		t.Fatal(err)
	}
	chains, err := eval.LoadChains(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(chains) < 20 {
		t.Fatalf("%d chains, want at least 20", len(chains))
	}
	a := startApp(t, t.TempDir())
	defer stop(t, a)
	dir := filepath.Dir(chainsFile)
	gaps := 0
	for _, c := range chains {
		t.Run(c.Name, func(t *testing.T) {
			res := runChain(t, a.NPLTAddr().String(), dir, c)
			problems := c.Check(res)
			t.Logf("tools %v, offers %v, answer:\n%s", res.Tools, res.Offers, res.Answer)
			switch {
			case c.KnownGap != "" && len(problems) == 0:
				t.Errorf("known gap %q is closed: the chain passes; remove its known_gap", c.KnownGap)
			case c.KnownGap != "":
				gaps++
				t.Logf("known gap: %s (%s)", c.KnownGap, strings.Join(problems, "; "))
			case len(problems) > 0:
				t.Error(strings.Join(problems, "\n"))
			}
		})
	}
	t.Logf("%d chains, %d known gaps", len(chains), gaps)
}

// runChain plays c's steps on a new connection, hence a new
// conversation. A permission request is denied (nothing the chains ask
// for should need one, and a denial cannot change the machine) and an
// ask_user question is answered with its first option; the calls show
// among the tools called either way.
func runChain(t *testing.T, addr, dir string, c eval.Chain) eval.ChainResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	notices := make(chan client.Event, eval.MaxChainSteps)
	conn, err := client.Dial(ctx, addr, client.Options{OnUnsolicited: func(e client.Event) {
		if e.Type == client.EventIndexed {
			notices <- e
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var res eval.ChainResult
	for _, s := range c.Steps {
		if s.Upload != "" {
			data, err := s.Data(dir)
			if err != nil {
				t.Fatal(err)
			}
			done, err := conn.UploadData(ctx, s.Upload, data, nil)
			if err != nil {
				t.Fatalf("upload %s: %v", s.Upload, err)
			}
			select {
			case e := <-notices:
				// The store may have cleaned the name (".env" is kept as "env").
				if e.Indexed.Filename != done.Filename {
					t.Fatalf("indexed %q, want %q", e.Indexed.Filename, done.Filename)
				}
			case <-ctx.Done():
				t.Fatalf("no UPLOAD_INDEXED notice for %s", s.Upload)
			}
			continue
		}
		var text strings.Builder
		err := conn.Chat(ctx, s.Say, func(e client.Event) {
			switch e.Type {
			case client.EventDelta:
				text.WriteString(e.Text)
			case client.EventStatus:
				if e.Status.Type == api.StatusToolCall {
					name, _, _ := strings.Cut(e.Status.Content, " ")
					res.Tools = append(res.Tools, name)
				}
			case client.EventDownloadOffer:
				res.Offers = append(res.Offers, e.Offer.Filename)
			case client.EventPermission:
				conn.AnswerPermission(e.Permission.RequestID, api.DecisionDeny)
			case client.EventQuestion:
				answer := ""
				if len(e.Question.Options) > 0 {
					answer = e.Question.Options[0].ID
				}
				conn.AnswerQuestion(e.Question.RequestID, answer)
			}
		})
		if err != nil {
			t.Fatalf("%s: %v", s.Say, err)
		}
		res.Answer = text.String()
	}
	return res
}
