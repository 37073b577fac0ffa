package builtin

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"opsassist/agent"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/storage/index"
	"opsassist/tools"
	"opsassist/tools/search"
)

// TestDescribeSearchNoRelevant: hits all under the relevance floor are
// reported as nothing relevant, with a hint, in the user's language; a
// plain empty result keeps its old text.
func TestDescribeSearchNoRelevant(t *testing.T) {
	raw := []byte(`{"total":0,"results":[],"status":"no_relevant","message":"…"}`)
	if got := describeSearch(true, raw); !strings.HasPrefix(got, "没有找到足够相关的内容。") || !strings.Contains(got, "关键词") || strings.Contains(got, "找到 0") {
		t.Errorf("zh: %q", got)
	}
	if got := describeSearch(false, raw); !strings.HasPrefix(got, "Nothing relevant enough was found.") || !strings.Contains(got, "file name") {
		t.Errorf("en: %q", got)
	}
	if got := describeSearch(true, []byte(`{"total":0,"results":[]}`)); got != "没有找到相关内容。" {
		t.Errorf("empty: %q", got)
	}
}

// TestAnswerSizesReadable: sizes the planner quotes are human-readable
// (internal/bytesize), never raw byte counts, and written as the CLI's
// offer line and the web page's card write them (bytesize.Format, one
// decimal: "15.0 MiB", not "15 MiB").
func TestAnswerSizesReadable(t *testing.T) {
	big := []byte(`{"transport_mode":"rdt","download_url":"x","filename":"big.bin","file_size":15728640,"sha256":"abcdef0123456789"}`)
	for _, zh := range []bool{true, false} {
		if got := describeDownload(zh, big); !strings.Contains(got, "15.0 MiB") {
			t.Errorf("download zh=%v: %q", zh, got)
		}
	}
	dl := []byte(`{"transport_mode":"http","download_url":"http://h/d/x","filename":"big.iso","file_size":80000000,"sha256":"abcdef0123456789"}`)
	for _, zh := range []bool{true, false} {
		if got := describeDownload(zh, dl); !strings.Contains(got, "76.3 MiB") || strings.Contains(got, "80000000") {
			t.Errorf("download zh=%v: %q", zh, got)
		}
	}
	list := result{tool: "file_upload", Success: true, Output: []byte(`{"total":1,"files":[{"filename":"a.log","file_id":"f1","uploaded_at":"2026-01-02","size":104857600}]}`)}
	if got := describeUpload(true, Intent{}, list); !strings.Contains(got, "100.0 MiB") || strings.Contains(got, "字节") {
		t.Errorf("upload list: %q", got)
	}
	q := whichFile(false, []history.Upload{{FileID: "f1", Filename: "a.log", Size: 1536}, {FileID: "f2", Filename: "b.log", Size: 10}})
	opts := q["options"].([]map[string]any)
	if d := opts[0]["description"].(string); !strings.HasPrefix(d, "1.5 KiB, uploaded ") {
		t.Errorf("which file: %q", d)
	}
}

// TestSearchAnswerOrderAndPunctuation: hits are listed in the order of the
// similarity shown (they came in fused order: 0.19, 0.23, 0.14), and the
// English answer uses ASCII punctuation ("search.md（Pieces，similarity"
// was seen).
func TestSearchAnswerOrderAndPunctuation(t *testing.T) {
	raw := []byte(`{"total":3,"results":[
	 {"filename":"a.md","similarity":0.19,"chunk":"x","position":"1"},
	 {"filename":"b.md","similarity":0.23,"chunk":"y","position":"2"},
	 {"filename":"c.md","similarity":0.14,"chunk":"z","position":"3"}]}`)
	en := describeSearch(false, raw)
	if !(strings.Index(en, "b.md") < strings.Index(en, "a.md") && strings.Index(en, "a.md") < strings.Index(en, "c.md")) {
		t.Errorf("not in similarity order: %q", en)
	}
	list := result{tool: "file_upload", Success: true, Output: []byte(`{"total":1,"files":[{"filename":"a.log","file_id":"f1","uploaded_at":"2026-01-02","size":10}]}`)}
	for _, s := range []string{en, describeUpload(false, Intent{}, list)} {
		if i := strings.IndexAny(s, "（），：；。、"); i >= 0 {
			t.Errorf("full-width punctuation in English: %q", s)
		}
	}
	if zh := describeSearch(true, raw); !strings.Contains(zh, "（") {
		t.Errorf("Chinese answer lost its punctuation: %q", zh)
	}
}

// fixedHits is a search index that returns the same hits for every
// query.
type fixedHits []index.Hit

func (f fixedHits) Search(context.Context, index.Query) ([]index.Hit, error) { return f, nil }

// TestSearchBelowFloorThroughAgent: through the real agent and the
// real semantic_search tool with the configured floor, a question whose
// hits all fall below it is answered "nothing relevant enough" in the
// question's language — no file named, no snippet quoted — and one with
// a relevant hit lists it; an index with no hits at all says nothing
// was found, in the question's language too.
func TestSearchBelowFloorThroughAgent(t *testing.T) {
	weak := fixedHits{
		{File: index.FileInfo{Name: "vpn-access-guide.md", Path: "/docs/vpn-access-guide.md"}, Similarity: 0.09, Chunk: "connect to the VPN", KeywordMatch: true},
		{File: index.FileInfo{Name: "CHANGELOG.md", Path: "/docs/CHANGELOG.md"}, Similarity: 0.30, Chunk: "v1.2"},
	}
	strong := append(fixedHits{{File: index.FileInfo{Name: "db-backup-restore.md", Path: "/docs/db-backup-restore.md"}, Similarity: 0.41, Chunk: "Restore the database from the nightly backup.", KeywordMatch: true}}, weak...)
	agentWith := func(ix fixedHits) *agent.Agent {
		reg := tools.NewRegistry(tools.Config{})
		if err := reg.Register(search.New(search.Config{Index: ix, MinScore: index.DefaultMinScore})); err != nil {
			t.Fatal(err)
		}
		a, err := agent.New(agent.Config{Planners: map[string]agent.Planner{"builtin": Planner{}}, Tools: reg})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, c := range []struct {
		ix      fixedHits
		q, want string
		not     []string
	}{
		{weak, "如何配置数据库？", "没有找到足够相关的内容。", []string{"vpn-access-guide", "CHANGELOG", "Nothing"}},
		{weak, "How do I configure the database?", "Nothing relevant enough was found.", []string{"vpn-access-guide", "CHANGELOG", "没有"}},
		{weak, "数据库 backup 怎么恢复", "没有找到足够相关的内容。", []string{"vpn-access-guide"}},
		{fixedHits{}, "如何配置数据库？", "没有找到相关内容。", nil},
		{fixedHits{}, "How do I configure the database?", "Nothing relevant was found.", nil},
		{strong, "How do I restore the database?", "Found 1 relevant passage:\n1. db-backup-restore.md", []string{"vpn-access-guide", "CHANGELOG"}},
	} {
		r, msgs := ask(t, agentWith(c.ix), c.q, nil)
		got := r.text.String()
		if len(msgs) < 2 || msgs[1].Name != "semantic_search" {
			t.Errorf("%q: no search: %+v", c.q, msgs)
			continue
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%q: answer %q, want it to start with %q", c.q, got, c.want)
		}
		for _, n := range c.not {
			if strings.Contains(got, n) {
				t.Errorf("%q: answer has %q: %q", c.q, n, got)
			}
		}
	}
}

// TestLongSearchQueryFitsSchema: a long question searched with its own
// words is sent as the part the index reads (search.CutQuery), so the
// tool's maxLength never refuses it.
func TestLongSearchQueryFitsSchema(t *testing.T) {
	for _, input := range []string{
		"如何配置数据库？" + strings.Repeat("数据库连接池的超时时间应该怎么设置", 200),
		"how do I configure the database? " + strings.Repeat("connection pool timeout settings ", 200),
	} {
		st, err := Planner{}.Plan(context.Background(), &agent.PlanRequest{Turn: &chat.Turn{Input: input}, Tools: []tools.Spec{{Name: "semantic_search"}}},
			func(string) error { return nil })
		if err != nil || len(st.ToolCalls) != 1 || st.ToolCalls[0].Name != "semantic_search" {
			t.Fatalf("%.20q: %+v, %v", input, st, err)
		}
		var args struct{ Query string }
		if err := json.Unmarshal([]byte(st.ToolCalls[0].Arguments), &args); err != nil {
			t.Fatal(err)
		}
		if len(args.Query) > index.MaxQueryBytes || utf8.RuneCountInString(args.Query) > search.MaxQueryChars || !utf8.ValidString(args.Query) || args.Query == "" {
			t.Errorf("%.20q: query of %d bytes", input, len(args.Query))
		}
	}
}

// TestSearchCountsOnePassage: one passage is "1 passage" in English
// ("1 passages" before), and the Chinese answer is unchanged.
func TestSearchCountsOnePassage(t *testing.T) {
	raw := []byte(`{"total":1,"results":[{"filename":"a.md","similarity":0.2,"chunk":"the database","position":"1"}]}`)
	if got := describeSearch(false, raw); !strings.HasPrefix(got, "Nothing clearly relevant was found; 1 passage that may be related") {
		t.Errorf("en: %q", got)
	}
	if got := describeSearch(true, raw); !strings.HasPrefix(got, "没有找到明确相关的内容；以下 1 条可能有关（") {
		t.Errorf("zh: %q", got)
	}
}
