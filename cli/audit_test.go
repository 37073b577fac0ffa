package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"opsassist/tools"
	"opsassist/tools/audit"
)

// auditLog writes n records to data/audit and returns the files' paths.
func auditLog(t *testing.T, data string, n int) []string {
	t.Helper()
	l, err := audit.Open(filepath.Join(data, audit.DirName), audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		err := l.Record(tools.CallRecord{
			Time: time.Date(2026, 11, 24, 10, i, 0, 0, time.UTC), User: "alice", Role: "operator", Session: "s1",
			Client: "nplt", ToolCallID: "c", Tool: "command_executor", Args: json.RawMessage(`{"command":"uptime"}`),
			Decision: "ask", DecidedBy: tools.DecidedByRule, Status: tools.StatusOK, Attempts: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(data, audit.DirName, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no log files: %v", err)
	}
	return files
}

// editLines rewrites a file's lines with edit.
func editLines(t *testing.T, path string, edit func([]string) []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := edit(strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"))
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestAuditVerify(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, file string)
		want   string // stdout, a regexp
	}{
		{"intact", func(*testing.T, string) {}, `^audit: ok \(5 records\)\n$`},
		{"one byte of a record changed", func(t *testing.T, file string) {
			editLines(t, file, func(l []string) []string {
				l[1] = strings.Replace(l[1], `"alice"`, `"alicf"`, 1)
				return l
			})
		}, `^audit: broken: 2026-11-24\.jsonl:2 \(record 2\): the record's hash does not match its content: this record was changed\n$`},
		{"a middle record deleted", func(t *testing.T, file string) {
			editLines(t, file, func(l []string) []string { return append(l[:2:2], l[3:]...) })
		}, `^audit: broken: 2026-11-24\.jsonl:3 \(record 4\): seq is 4, expected 3: record 3 is missing \(deleted\)\n$`},
		{"the last record deleted", func(t *testing.T, file string) {
			editLines(t, file, func(l []string) []string { return l[:4] })
		}, `^audit: broken: 2026-11-24\.jsonl:5 \(record 5\): the log ends at record 4 but HEAD names record 5: records were deleted from the end\n$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			files := auditLog(t, data, 5)
			tc.damage(t, files[0])
			code, stdout, stderr := runCLIEnv(t, map[string]string{}, "", "audit", "verify", "--data", data)
			want := ExitError
			if tc.name == "intact" {
				want = ExitOK
			}
			if code != want || stderr != "" || !regexp.MustCompile(tc.want).MatchString(stdout) {
				t.Errorf("exit %d (want %d), stdout %q (want %s), stderr %q", code, want, stdout, tc.want, stderr)
			}
		})
	}
}

func TestAuditVerifyDirs(t *testing.T) {
	empty := t.TempDir()
	withEmptyAudit := t.TempDir()
	if err := os.Mkdir(filepath.Join(withEmptyAudit, audit.DirName), 0o700); err != nil {
		t.Fatal(err)
	}
	fromEnv := t.TempDir()
	auditLog(t, fromEnv, 2)
	noHead := t.TempDir()
	auditLog(t, noHead, 3)
	if err := os.Remove(filepath.Join(noHead, audit.DirName, "HEAD")); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name           string
		env            map[string]string
		args           []string
		code           int
		stdout, stderr string // regexps
	}{
		// A mistyped data dir or a removed log does not pass.
		{"no audit dir", nil, []string{"--data", empty}, ExitUsage, `^$`, `^opsassist: audit verify: no audit log in ` + regexp.QuoteMeta(empty) + ` \(expected ` + regexp.QuoteMeta(filepath.Join(empty, "audit")) + `\)\n$`},
		{"empty audit dir", nil, []string{"--data", withEmptyAudit}, ExitOK, `^audit: ok \(0 records\)\n$`, `^$`},
		{"records without HEAD", nil, []string{"--data", noHead}, ExitOK, `^audit: ok \(3 records\)\n$`, `^opsassist: audit verify: warning: .*audit has records but no HEAD file`},
		{"data dir from the environment", map[string]string{"OPSASSIST_DATA": fromEnv}, nil, ExitOK, `^audit: ok \(2 records\)\n$`, `^$`},
		{"--data over the environment", map[string]string{"OPSASSIST_DATA": empty}, []string{"--data", fromEnv}, ExitOK, `^audit: ok \(2 records\)\n$`, `^$`},
		{"default data dir (./data here: none)", nil, nil, ExitUsage, `^$`, `no data directory \./data `},
		{"no such data dir", nil, []string{"--data", filepath.Join(empty, "nope")}, ExitUsage, `^$`, `no data directory .*nope`},
		{"data is a file", nil, []string{"--data", notDir}, ExitUsage, `^$`, `is not a directory`},
		{"extra argument", nil, []string{"--data", empty, "more"}, ExitUsage, `^$`, `no other arguments`},
		{"unknown flag", nil, []string{"--bogus"}, ExitUsage, `^$`, `flag provided but not defined`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := tc.env
			if env == nil {
				env = map[string]string{}
			}
			code, stdout, stderr := runCLIEnv(t, env, "", append([]string{"audit", "verify"}, tc.args...)...)
			if code != tc.code || !regexp.MustCompile(tc.stdout).MatchString(stdout) || !regexp.MustCompile(tc.stderr).MatchString(stderr) {
				t.Errorf("exit %d (want %d), stdout %q, stderr %q", code, tc.code, stdout, stderr)
			}
		})
	}
}

func TestAuditUsage(t *testing.T) {
	code, stdout, _ := runCLIEnv(t, map[string]string{}, "", "audit", "--help")
	if code != ExitOK || !strings.Contains(stdout, "opsassist audit verify [--data DIR]") {
		t.Errorf("audit --help: exit %d, %q", code, stdout)
	}
	code, _, stderr := runCLIEnv(t, map[string]string{}, "", "audit")
	if code != ExitUsage || !strings.Contains(stderr, "audit needs the verify command") {
		t.Errorf("audit: exit %d, %q", code, stderr)
	}
	code, _, stderr = runCLIEnv(t, map[string]string{}, "", "audit", "check")
	if code != ExitUsage || !strings.Contains(stderr, "usage: opsassist audit verify") {
		t.Errorf("audit check: exit %d, %q", code, stderr)
	}
	code, stdout, _ = runCLIEnv(t, map[string]string{}, "", "help")
	if code != ExitOK || !strings.Contains(stdout, "opsassist audit verify [--data DIR]") {
		t.Errorf("help does not list audit verify: %q", stdout)
	}
}
