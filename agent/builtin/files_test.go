package builtin

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"opsassist/tools/command"
)

// TestClassifyFiles covers downloads, references to uploads and searches.
func TestClassifyFiles(t *testing.T) {
	tests := []struct {
		in, tool, args string
	}{
		{"下载 /var/log/app/app.log", "file_download", `{"file_path":"/var/log/app/app.log"}`},
		{"给我传一下 settings.json", "semantic_search", `{"query":"settings.json","scope":"all","top_k":1}`},
		{"pull down config.yaml for me", "semantic_search", `{"query":"config.yaml","scope":"all","top_k":1}`},
		{"please download the file I just uploaded", "file_upload", `{"action":"list","reference":"this"}`},
		{"整体资源占用情况发我看看", "sys_monitor", `{"metric":"all"}`},
		{"下载速度怎么样", "", ``},
		{"看看这个log里有没有timeout", "file_upload", `{"action":"read","file_type":"log","reference":"this"}`},
		{"这个文件多大", "file_upload", `{"action":"list","reference":"this"}`},
		{"之前发给你的那个日志帮我看看有什么异常", "file_upload", `{"action":"read","file_type":"log","reference":"previous"}`},
		{"比较一下刚才传的两个yaml", "file_upload", `{"action":"list","count":2,"file_type":"yaml","reference":"these"}`},
		{"compare config.yaml and config_old.yaml", "file_upload", `{"action":"list","count":2,"file_type":"yaml","reference":"these"}`},
		{"我上传了几个文件", "file_upload", `{"action":"list","reference":"all"}`},
		{"which files did I upload?", "file_upload", `{"action":"list","reference":"all"}`},
		{"在我上传的文件里找一下数据库密码", "semantic_search", `{"query":"数据库密码","scope":"uploads","top_k":3}`},
		{"search my uploads for \"connection refused\"", "semantic_search", `{"query":"connection refused","scope":"uploads","top_k":3}`},
		{"上传的文件会保存多久？", "semantic_search", ``},
		{"docker-compose.yml 在哪", "semantic_search", `{"query":"docker-compose.yml","scope":"all","top_k":3}`},
		{"where do I set the auth token?", "semantic_search", `{"query":"where do I set the auth token","scope":"system","top_k":3}`},
		{"今天天气怎么样", "", ``},
	}
	for _, tt := range tests {
		in := Planner{}.Classify(tt.in, true)
		if in.Tool != tt.tool {
			t.Errorf("%q: tool %q (%s), want %q", tt.in, in.Tool, in.Kind, tt.tool)
			continue
		}
		if tt.args != "" {
			b, _ := json.Marshal(in.Args)
			if string(b) != tt.args {
				t.Errorf("%q: args %s, want %s", tt.in, b, tt.args)
			}
		}
	}
}

// TestDownloadByNameNeedsThatFile: a download by file name follows the
// search only when its first result is that file.
func TestDownloadByNameNeedsThatFile(t *testing.T) {
	hit := func(name string) result {
		out, _ := json.Marshal(map[string]any{"total": 1, "results": []map[string]any{{"filename": name, "filepath": "/docs/" + name}}})
		return result{tool: "semantic_search", Success: true, Output: out}
	}
	in := Intent{Kind: "download", Tool: "semantic_search", Query: "config.yaml"}
	if next, ok := chainNext(in, []result{hit("config.yaml")}, nil); !ok || next.args["file_path"] != "/docs/config.yaml" {
		t.Fatalf("exact hit: %+v %v", next, ok)
	}
	if next, ok := chainNext(in, []result{hit("README.md")}, nil); ok {
		t.Fatalf("another file was offered: %+v", next)
	}
	// By description, the best match will do.
	in.Query = "数据库配置文件"
	if _, ok := chainNext(in, []result{hit("db.yaml")}, nil); !ok {
		t.Fatal("descriptive download not continued")
	}
}

func TestDownloadOfMissingFileSaysSo(t *testing.T) {
	out, _ := json.Marshal(map[string]any{"total": 1, "results": []map[string]any{{"filename": "http.md", "filepath": "/docs/http.md"}}})
	got := answer(true, Intent{Kind: "download", Query: "big.bin"}, []result{{tool: "semantic_search", Success: true, Output: out}}, command.Tiers{})
	if !strings.Contains(got, "没有找到名为 big.bin 的文件") || strings.Contains(got, "http.md") {
		t.Fatalf("%q", got)
	}
}

// TestKeyQuestionWithoutTheKey: "数据库端口" on the example config, which
// has no database port, quoted a comment about postgresql; now it says
// none was found and names the file's top-level keys, and lists the
// port keys that exist; a file with the key answers with it.
func TestKeyQuestionWithoutTheKey(t *testing.T) {
	example, err := os.ReadFile("../../opsassist.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	zh := describeRead(true, Intent{input: "这个文件里数据库端口是多少？"}, "opsassist.example.yaml", string(example), false)
	if !strings.HasPrefix(zh, "opsassist.example.yaml 里没有找到数据库端口的配置项。\n文件的顶层配置项：nplt、rdt、http、") || strings.Contains(zh, "postgres") {
		t.Errorf("zh: %q", zh)
	}
	en := describeRead(false, Intent{input: "what is the database port in this file?"}, "opsassist.example.yaml", string(example), false)
	if !strings.HasPrefix(en, "No database port setting found in opsassist.example.yaml.\nIts top-level keys: nplt, rdt, http, ") {
		t.Errorf("en: %q", en)
	}
	other := "# database: {port: 1}\nweb:\n  port: 8080\nmetrics_port: 9100\n"
	got := describeRead(true, Intent{input: "数据库端口"}, "app.yaml", other, false)
	if !strings.HasPrefix(got, "app.yaml 里没有找到数据库端口的配置项。") || !strings.Contains(got, "web.port = 8080  # 第 3 行") ||
		!strings.Contains(got, "metrics_port = 9100  # 第 4 行") || strings.Contains(got, "1: #") || !strings.HasSuffix(got, "文件的顶层配置项：web、metrics_port。") {
		t.Errorf("other ports: %q", got)
	}
	with := "# the database\ndatabase:\n  host: db\n  port: 5432\n"
	if got := describeRead(true, Intent{input: "数据库端口"}, "app.yaml", with, false); got != "app.yaml 里数据库端口是 5432（`database.port = 5432`，第 4 行）。" {
		t.Errorf("with the key: %q", got)
	}
	log := "# boot\nERROR db timeout\n"
	if got := describeRead(false, Intent{input: "any timeout?"}, "app.log", log, false); !strings.Contains(got, "2: ERROR db timeout") || strings.Contains(got, "1: #") {
		t.Errorf("log: %q", got)
	}
}

// TestErrorsQuestionReadsTheUpload: with an upload in the conversation an
// errors question reads it (it was "unknown"); without one, or about the
// machine's logs, it does not.
func TestErrorsQuestionReadsTheUpload(t *testing.T) {
	for _, q := range []string{"有什么错误？", "any errors in this log?", "分析一下日志里的错误", "what errors are there?", "有哪些警告"} {
		in := Planner{}.Classify(q, true)
		if in.Tool != "file_upload" || in.Args["action"] != "read" {
			t.Errorf("%q with uploads: %s %s %v", q, in.Kind, in.Tool, in.Args)
		}
		if in := (Planner{}).Classify(q, false); in.Tool == "file_upload" && in.Args["action"] == "read" && in.Args["reference"] == "this" && q == "有什么错误？" {
			t.Errorf("%q without uploads reads one", q)
		}
	}
	if in := (Planner{}).Classify("系统日志里有什么错误", true); in.Tool == "file_upload" {
		t.Errorf("system log question read the upload: %v", in.Args)
	}
	log := "2026-01-02 10:00:01 ERROR db timeout after 30s\nINFO ok\n2026-01-02 10:00:09 ERROR db timeout after 31s\nWARN slow\nFATAL out of memory\n"
	zh := describeRead(true, Intent{input: "有什么错误？"}, "app.log", log, false)
	want := "在 app.log 中找到 3 条错误、1 条警告（按出现次数排列）：\n```\n2 × 2026-01-02 10:00:01 ERROR db timeout after 30s\n1 × FATAL out of memory\n1 × WARN slow\n```"
	if zh != want {
		t.Errorf("zh:\n%s\nwant\n%s", zh, want)
	}
	if en := describeRead(false, Intent{input: "any errors?"}, "ok.log", "INFO fine\n", false); en != "No errors or warnings found in ok.log." {
		t.Errorf("en none: %q", en)
	}
}

// TestDownloadWords: "下下来", "拉下来" and a "dl PATH" line download the
// path.
func TestDownloadWords(t *testing.T) {
	for in, path := range map[string]string{
		"dl /var/log/nginx/access.log":   "/var/log/nginx/access.log",
		"把 /var/log/nginx/error.log 下下来": "/var/log/nginx/error.log",
		"帮我把 /var/log/syslog 拉下来":        "/var/log/syslog",
	} {
		got := Planner{}.Classify(in, true)
		if got.Tool != "file_download" || got.Args["file_path"] != path {
			t.Errorf("%q: %s %v, want file_download %s", in, got.Tool, got.Args, path)
		}
	}
}

// TestDownloadByNameOffers: "下载 NAME" is a download — a search for
// the file that goes on to offer it — not a plain search, though
// train2 labels its first call as the search it is.
func TestDownloadByNameOffers(t *testing.T) {
	for _, s := range []string{"下载report.txt", "download report.txt", "下载 config.yaml"} {
		if in := (Planner{}).Classify(s, true); in.Kind != "download" {
			t.Errorf("%q: %s %s %v, want a download", s, in.Kind, in.Tool, in.Args)
		}
	}
}

// TestDownloadPaths: a file to download by its absolute path in any
// script, with a space quoted or before its extension, goes straight to
// file_download; by a bare name of any extension or script, to a search
// for it.
func TestDownloadPaths(t *testing.T) {
	for in, want := range map[string]string{
		"把 /home/deploy/报表 2026.xlsx 下载给我":         "/home/deploy/报表 2026.xlsx",
		"download '/srv/share/Q3 report.pdf'":      "/srv/share/Q3 report.pdf",
		"帮我下载 /data/导出/用户列表.csv":                   "/data/导出/用户列表.csv",
		`download "/home/ci/build output.log"`:     "/home/ci/build output.log",
		"下载 /data/归档/2025年日志.tar.gz":               "/data/归档/2025年日志.tar.gz",
		"下载这个：/opt/data/orders_2026.csv":           "/opt/data/orders_2026.csv",
		"download /var/log/app.log and /tmp/b.txt": "/var/log/app.log",
		"麻烦下载 /etc/logrotate.d/nginx，我要看看轮转配置。":    "/etc/logrotate.d/nginx",
	} {
		in2, ok := downloadIntent(in)
		if !ok || in2.Tool != "file_download" || in2.Args["file_path"] != want {
			t.Errorf("%q: %v %s %v, want file_download %q", in, ok, in2.Tool, in2.Args, want)
		}
	}
	for in, want := range map[string]string{"把 架构设计.docx 下载下来": "架构设计.docx", "download report-q3.xlsx for me": "report-q3.xlsx"} {
		in2, ok := downloadIntent(in)
		if !ok || in2.Tool != "semantic_search" || in2.Args["query"] != want {
			t.Errorf("%q: %v %s %v, want a search for %q", in, ok, in2.Tool, in2.Args, want)
		}
	}
}
