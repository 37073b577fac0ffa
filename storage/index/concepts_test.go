package index

import (
	"context"
	"fmt"
	"testing"

	"opsassist/storage/embed"
)

// TestGenericWordsDoNotCarryRelevance: over a small manual where config
// (配置) is in most passages, a file sharing only that generic word with
// "如何配置数据库？" / "how do I configure the database?" is not a keyword
// match (the shared-word rule took it: "找到 3 条相关内容" about nothing);
// a file with the specific word (database, 数据库) is, in either
// language; and a Chinese question about the web client finds the
// English passage through the glossary (it found nothing).
func TestGenericWordsDoNotCarryRelevance(t *testing.T) {
	ctx := context.Background()
	e := embed.NewBuiltin(64)
	x, err := Open(t.TempDir(), Config{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	put := func(id, name string, texts ...string) {
		if err := x.Put(ctx, makeFile(t, e, id, name, ScopeSystem, "", texts...)); err != nil {
			t.Fatal(err)
		}
	}
	// Ten files whose passages all name the configuration: config is in
	// well over a fifth of the chunks.
	for i := range 10 {
		put(fmt.Sprintf("g%02d", i), fmt.Sprintf("topic%02d.md", i),
			fmt.Sprintf("The config key topic%d sets the listener; 配置 topic%d in the config file.", i, i),
			fmt.Sprintf("Reload the config after editing topic%d.", i))
	}
	put("db", "storage.md", "The database section: host, port and pool size of the database.", "数据库的连接池大小在这里设置。")
	put("web", "web.md", "Open the web client in a browser at http://127.0.0.1:8080/.")

	match := func(q string) map[string]bool {
		hits := search(t, x, Query{Text: q, Scope: QuerySystem, TopK: 20, Mode: ModeHybrid})
		out := map[string]bool{}
		for _, h := range hits {
			out[h.File.Name] = h.KeywordMatch
		}
		return out
	}
	for _, q := range []string{"如何配置数据库？", "how do I configure the database?", "数据库连接池"} {
		got := match(q)
		if !got["storage.md"] {
			t.Errorf("%q: the file about the database is not a keyword match: %v", q, got)
		}
		for name, kw := range got {
			if kw && name != "storage.md" {
				t.Errorf("%q: %s shares only the generic word, yet matches", q, name)
			}
		}
	}
	// A specific word matches even when the generic one is there too.
	if got := match("topic3 的配置"); !got["topic03.md"] {
		t.Errorf("topic3: %v", got)
	}
	for _, q := range []string{"如何打开网页客户端？", "how do I open the web client?"} {
		if got := match(q); !got["web.md"] {
			t.Errorf("%q: web.md not a keyword match: %v", q, got)
		}
	}
}
