package search

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"opsassist/storage/embed"
	"opsassist/storage/index"
	"opsassist/storage/retrieval"
	"opsassist/tools"
)

// TestUnrelatedQuestionFindsNothing: over a few real documents with the
// builtin embedder and the default floor, a question none of them is
// about ("how do I bake sourdough bread?" was answered with three
// passages at similarity 0.14–0.23) finds nothing relevant, in Chinese
// and English; a related question still finds its document.
func TestUnrelatedQuestionFindsNothing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	docs := map[string]string{
		"backup.md": "# MySQL backups\n\nThe primary database is backed up every night at 02:00 with xtrabackup.\nBackups are kept for 14 days on the backup host.\n",
		"nginx.md":  "# Nginx\n\nThe web server listens on port 443. TLS certificates are renewed by certbot.\nReload with systemctl reload nginx after editing the configuration.\n",
		"oncall.md": "# On-call\n\nThe on-call engineer answers pages within 15 minutes and escalates to the team lead after 30.\n",
	}
	for name, text := range docs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	x, err := retrieval.Build(ctx, dir, t.TempDir(), embed.NewBuiltin(0))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	tool := New(Config{Index: x, MinScore: index.DefaultMinScore})
	run := func(q string) Output {
		t.Helper()
		args, _ := json.Marshal(map[string]any{"query": q, "scope": "system"})
		out, err := tool.Run(ctx, &tools.Call{}, args)
		if err != nil {
			t.Fatal(err)
		}
		return out.(Output)
	}
	for _, q := range []string{"how do I bake sourdough bread?", "怎么做红烧肉", "what is the weather in paris tomorrow?"} {
		if o := run(q); o.Total != 0 || o.Status != StatusNoRelevant {
			t.Errorf("%q: %+v", q, o)
		}
	}
	for q, want := range map[string]string{"how is the database backed up?": "backup.md", "数据库怎么备份": "backup.md", "which port does nginx listen on?": "nginx.md"} {
		if o := run(q); o.Total == 0 || o.Results[0].Filename != want {
			t.Errorf("%q: %+v, want %s first", q, o, want)
		}
	}
}
