package builtin

import (
	"strings"
	"testing"
)

// TestDescribeReadPrefersTheNamedSection: in a file not read for settings
// (keyFile: a .md), the lines of the named section are quoted.
func TestDescribeReadPrefersTheNamedSection(t *testing.T) {
	yaml := "server:\n  host: 0.0.0.0\n  port: 8080\ndatabase:\n  host: db.local\n  port: 5432\n  pool:\n    max: 10\nredis:\n  port: 6379\nmetrics:\n  port: 9100\n"
	ini := "[server]\nport = 8080\n\n[mysql]\nhost = 10.0.0.5\nport = 3306\n\n[cache]\nport = 6379\n"
	toml := "title = \"app\"\n[http]\nport = 80\n[database.primary]\nport = 5433\nuser = \"app\"\n"
	nested := "app:\n  db:\n    port: 5432\n  web:\n    port: 80\n"
	flat := "listen_port: 80\ndb_port: 5432\nadmin_port: 9000\n"
	for _, c := range []struct {
		name, question, content string
		want                    []string
		not                     []string
	}{
		{"yaml zh", "这个文件里数据库端口是多少？", yaml, []string{"4: database:", "6: port: 5432"}, []string{"8080", "6379", "9100"}},
		{"yaml en", "what port is the database on in this file?", yaml, []string{"6: port: 5432"}, []string{"8080", "6379"}},
		{"ini mysql", "mysql 的端口是多少", ini, []string{"4: [mysql]", "6: port = 3306"}, []string{"8080", "6379"}},
		{"toml", "数据库端口", toml, []string{"4: [database.primary]", "5: port = 5433"}, []string{"= 80", "title"}},
		{"nested db", "数据库端口", nested, []string{"2: db:", "3: port: 5432"}, []string{"port: 80"}},
		{"flat key", "数据库端口", flat, []string{"2: db_port: 5432"}, []string{"listen_port", "admin_port"}},
		// One group only: every line that mentions it, as before.
		{"port only", "端口是多少", yaml, []string{"port: 8080", "port: 5432", "port: 6379", "port: 9100"}, nil},
		// Nothing ties two groups: every line that mentions one.
		{"no section", "数据库端口", "port: 1\nother: 2\nport: 3\n", []string{"1: port: 1", "3: port: 3"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := describeRead(true, Intent{input: c.question}, "f.md", c.content, false)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("answer lacks %q:\n%s", w, got)
				}
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("answer has %q:\n%s", n, got)
				}
			}
		})
	}
}

func TestScopedLinesLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("database:\n")
	for range 50 {
		b.WriteString("  port: 1\n")
	}
	got := scopedLines(b.String(), []wordGroup{{"port"}, {"database"}}, 20)
	if len(got) != 20 || got[0] != "1: database:" {
		t.Fatalf("%d lines: %v", len(got), got[:3])
	}
}
