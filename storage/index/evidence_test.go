package index

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"opsassist/storage/embed"
)

// TestRelevanceNeedsTheQuerysOwnWords reproduces the walk-through of
// "如何配置数据库？" / "how do I configure the database?" over the
// repository's docs on a small corpus where config is everywhere: the
// hits it listed were each kept by something other than a passage about
// a database —
//   - configuration.md by its name, which the glossary's "configuration"
//     (for 配置, a generic word here) matched;
//   - security.md by "db" inside key3.db and --db-password, a glossary
//     abbreviation of 数据库 as a piece of other names;
//   - notes.md by "置数" of "设置数量", a bigram that straddles 配置 and
//     数据库 in the question;
//   - guide.md, whose closest passage is about something else, by a
//     database passage elsewhere in the file (the passage shown must be
//     the one with the words).
//
// Only storage.md and the database passage of guide.md are matches; the
// user's own "db" still counts inside a name.
func TestRelevanceNeedsTheQuerysOwnWords(t *testing.T) {
	ctx := context.Background()
	e := embed.NewBuiltin(64)
	x, err := Open(t.TempDir(), Config{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	put := func(id, name string, texts ...string) {
		t.Helper()
		if err := x.Put(ctx, makeFile(t, e, id, name, ScopeSystem, "", texts...)); err != nil {
			t.Fatal(err)
		}
	}
	var conf []string
	for i := range 12 {
		conf = append(conf, fmt.Sprintf("The config key limits.k%d sets limit %d; 配置 k%d in the config file and reload the configuration.", i, i, i))
	}
	put("conf", "configuration.md", conf...)
	put("sec", "security.md",
		"Secrets denied: logins.json, key3.db, key4.db and cookies.sqlite (Firefox) are never read; config cannot widen this.",
		"Arguments such as --db-password=… are shown as *** in every log line of the config.")
	put("notes", "notes.md", "设置数量上限：每个会话最多 20 个文件，在 config 中调整。")
	put("guide", "guide.md",
		"How to set up the server: edit the config file, set the listener and reload the configuration.",
		"Backups run nightly; the database itself is configured by its own tool (数据库的连接池在那里设置).")
	put("db", "storage.md", "The database section: host, port and pool size of the database. 数据库连接池大小。")
	put("own", "hosts.md", "Hosts: app1, cache1, and db1.internal for the primary.")

	for _, q := range []string{"如何配置数据库？", "how do I configure the database?"} {
		hits := search(t, x, Query{Text: q, Scope: QuerySystem, TopK: 20})
		got := map[string]Hit{}
		for _, h := range hits {
			got[h.File.Name] = h
		}
		for _, name := range []string{"configuration.md", "security.md", "notes.md", "hosts.md"} {
			if h, ok := got[name]; ok && (h.KeywordMatch || h.NameMatch) {
				t.Errorf("%q: %s kept (keyword %v, name %v) by %q", q, name, h.KeywordMatch, h.NameMatch, h.Chunk)
			}
		}
		if h := got["storage.md"]; !h.KeywordMatch {
			t.Errorf("%q: storage.md not a match", q)
		}
		if h := got["guide.md"]; !h.KeywordMatch || !strings.Contains(h.Chunk, "database") {
			t.Errorf("%q: guide.md shows %q (match %v), want its database passage", q, h.Chunk, h.KeywordMatch)
		}
	}
	// The user's own word counts wherever it stands.
	hits := search(t, x, Query{Text: "db1 primary", Scope: QuerySystem, TopK: 20})
	if len(hits) == 0 || hits[0].File.Name != "hosts.md" || !hits[0].KeywordMatch {
		t.Errorf("db1 primary: %v", names(hits))
	}
	// A question about the common thing alone is answered by the
	// passages that have it, and names its file: generic is relative to
	// the rest of the question.
	hits = search(t, x, Query{Text: "配置", Scope: QuerySystem, TopK: 20})
	if len(hits) == 0 || hits[0].File.Name != "configuration.md" || !hits[0].KeywordMatch || !hits[0].NameMatch {
		t.Errorf("配置 alone: %+v", hits)
	}
	// A whole file name still names its file.
	hits = search(t, x, Query{Text: "打开 configuration.md", Scope: QuerySystem, TopK: 20})
	if len(hits) == 0 || hits[0].File.Name != "configuration.md" || !hits[0].NameMatch {
		t.Errorf("configuration.md by name: %v", names(hits))
	}
}

// TestConceptShareCountsEachChunkOnce: a chunk that has several words of
// one glossary concept (config, configuration, conf) counts once in the
// concept's share (the review found each word's chunks added up, so a
// concept looked generic sooner the more synonyms the glossary lists).
func TestConceptShareCountsEachChunkOnce(t *testing.T) {
	ctx := context.Background()
	e := embed.NewBuiltin(64)
	x, err := Open(t.TempDir(), Config{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	// 10 of 60 chunks (a sixth, under maxSpecificShare) name the
	// configuration, each with three of its words: summed, 30 of 60.
	for i := range 10 {
		if err := x.Put(ctx, makeFile(t, e, fmt.Sprintf("c%02d", i), fmt.Sprintf("svc%02d.md", i), ScopeSystem, "",
			fmt.Sprintf("Service %d: its config lives in svc%d.conf, see the configuration notes.", i, i))); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 50 {
		if err := x.Put(ctx, makeFile(t, e, fmt.Sprintf("o%02d", i), fmt.Sprintf("other%02d.md", i), ScopeSystem, "",
			fmt.Sprintf("Runbook %d: restart the worker and check the queue depth.", i))); err != nil {
			t.Fatal(err)
		}
	}
	x.mu.RLock()
	cs := x.weighConcepts(x.partitionsFor(Query{Scope: QuerySystem}), queryConcepts("配置在哪里"))
	x.mu.RUnlock()
	if len(cs) != 1 || cs[0].df != 10 || !cs[0].specific() {
		t.Fatalf("concepts %+v, want one in 10 chunks, specific", cs)
	}
	hits := search(t, x, Query{Text: "配置在哪里", Scope: QuerySystem, TopK: 3})
	if len(hits) == 0 || !hits[0].KeywordMatch {
		t.Errorf("config files are not matches: %+v", hits)
	}
}

// TestStraddlers: the bigrams of a Chinese question that join two known
// words are not concepts; a word the glossary does not know still is.
func TestStraddlers(t *testing.T) {
	for q, want := range map[string][]string{
		"如何配置数据库？":   {"何配", "置数"},
		"如何打开网页客户端？": {"何打", "开网", "页客"},
	} {
		got := straddlers(q, embed.Concepts(q), nil)
		if len(got) != len(want) {
			t.Errorf("straddlers(%q) = %v, want %v", q, got, want)
		}
		for _, w := range want {
			if !got[w] {
				t.Errorf("straddlers(%q) = %v, want %v", q, got, want)
			}
		}
	}
	var words []string
	for _, c := range queryConcepts("退款单号的报错") {
		words = append(words, c.forms[0].word)
	}
	if s := strings.Join(words, " "); !strings.Contains(s, "退款") || strings.Contains(s, "的报") {
		t.Errorf("concepts of 退款单号的报错: %s", s)
	}
}

// TestStandsAlone: a glossary word counts where it is a word of its own,
// not as a piece of a file name, flag or path.
func TestStandsAlone(t *testing.T) {
	for _, c := range []struct {
		text, word string
		want       bool
	}{
		{"the db is down", "db", true},
		{"db_host: 10.0.0.5", "db", true},
		{"restart the db.", "db", true},
		{"(db)", "db", true},
		{"key3.db and key4.db", "db", false},
		{"--db-password=x", "db", false},
		{"/var/lib/db", "db", false},
		{"db.internal", "db", false},
		{"mydb", "db", false},
		{"dbs", "db", true},
		{"two databases", "database", true},
		{"数据库连接池", "数据库", true},
		{"web page", "web page", true},
		{"webpage", "web", false},
	} {
		if got := standsAlone(c.text, c.word); got != c.want {
			t.Errorf("standsAlone(%q, %q) = %v, want %v", c.text, c.word, got, c.want)
		}
	}
}
