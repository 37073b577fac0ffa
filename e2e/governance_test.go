package e2e

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/cli"
	"opsassist/client"
	"opsassist/config"
	"opsassist/tools/audit"
)

// Tokens of the governance test's users.
const (
	aliceToken = "alice-token-0123456789abcdef"
	bobToken   = "bob-token-0123456789abcdef"
	carolToken = "carol-token-0123456789abcdef"
)

// auditLine is the part of an audit record the test reads.
type auditLine struct {
	Seq        int64  `json:"seq"`
	User       string `json:"user"`
	Role       string `json:"role"`
	Session    string `json:"session"`
	Client     string `json:"client"`
	ToolCallID string `json:"tool_call_id"`
	Tool       string `json:"tool"`
	Decision   string `json:"decision"`
	DecidedBy  string `json:"decided_by"`
	Rule       string `json:"rule"`
	Status     string `json:"status"`
	Prev       string `json:"prev"`
}

// TestGovernanceScriptedSession runs a scripted session of three users
// through a whole daemon with the offline planner — alice (operator),
// bob (viewer, token given as its hash), carol (admin) — with a rate
// limit on sys_monitor, then checks the audit log: every tool call of
// the conversations appears exactly once, with its decision and
// decider; only the admin reads it over HTTP; `opsassist audit verify`
// passes, and fails naming the record once a byte of it is changed or a
// record is deleted.
func TestGovernanceScriptedSession(t *testing.T) {
	t.Setenv("OPSASSIST_TEST_ALICE", aliceToken)
	t.Setenv("OPSASSIST_TEST_CAROL", carolToken)
	bobHash := sha256.Sum256([]byte(bobToken))
	data := t.TempDir()
	a := startApp(t, data, func(c *config.Config) {
		c.Users = config.Users{
			{Name: "alice", Role: "operator", TokenEnv: "OPSASSIST_TEST_ALICE"},
			{Name: "bob", Role: "viewer", TokenSHA256: hex.EncodeToString(bobHash[:])},
			{Name: "carol", Role: "admin", TokenEnv: "OPSASSIST_TEST_CAROL"},
		}
		c.RateLimits = map[string]config.RateLimit{"sys_monitor": {PerMinute: 2}}
	})
	stopped := false
	defer func() {
		if !stopped {
			stop(t, a)
		}
	}()
	dial := func(token string) *client.Conn {
		t.Helper()
		conn, err := client.Dial(context.Background(), a.NPLTAddr().String(), client.Options{Token: token})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return conn
	}

	alice := dial(aliceToken)
	for _, q := range []string{"磁盘还剩多少", "内存使用情况怎么样", "CPU 使用率是多少"} {
		chatAnswering(t, alice, q)
	}
	if text, _ := chatAnswering(t, alice, "执行 df -h"); !strings.Contains(text, "/") {
		t.Fatalf("df -h: %q", text)
	}
	if _, reqs := chatAnswering(t, alice, "重启 nginx", api.DecisionDeny); len(reqs) != 1 {
		t.Fatalf("alice (operator) was asked %d times about restarting nginx, want once", len(reqs))
	}
	bob := dial(bobToken)
	chatAnswering(t, bob, "磁盘还剩多少") // bob's own bucket: not limited by alice's calls
	if text, reqs := chatAnswering(t, bob, "重启 nginx", api.DecisionAllowOnce); len(reqs) != 0 || strings.Contains(text, "已执行") {
		t.Fatalf("bob (viewer) was asked %d times, answer %q; want a refusal without asking", len(reqs), text)
	}

	// Only the admin reads the audit log over HTTP.
	base := "http://" + a.HTTPAddr().String()
	for tok, want := range map[string]int{aliceToken: 403, bobToken: 403, carolToken: 200} {
		if got := auditStatus(t, base, tok); got != want {
			t.Errorf("GET /api/audit with %.5s…'s token: %d, want %d", tok, got, want)
		}
	}
	var page struct{ Records []auditLine }
	getAuthJSON(t, base+"/api/audit?user=alice&tool=sys_monitor", carolToken, &page)
	if len(page.Records) != 3 {
		t.Errorf("/api/audit?user=alice&tool=sys_monitor: %d records, want 3", len(page.Records))
	}

	// The conversations' tool calls, as the users' own history shows them.
	calls := map[string]string{} // tool call id → user
	for user, tok := range map[string]string{"alice": aliceToken, "bob": bobToken} {
		for _, id := range historyToolCalls(t, base, tok) {
			calls[id] = user
		}
	}
	stop(t, a)
	stopped = true

	recs := readAudit(t, filepath.Join(data, audit.DirName))
	seen := map[string]bool{}
	var got []string
	for _, r := range recs {
		if r.ToolCallID == "" || seen[r.ToolCallID] {
			t.Errorf("record %d: tool call id %q empty or seen before", r.Seq, r.ToolCallID)
		}
		seen[r.ToolCallID] = true
		if calls[r.ToolCallID] != r.User {
			t.Errorf("record %d: %s's call %s is not in their conversation", r.Seq, r.User, r.ToolCallID)
		}
		if r.Session == "" || r.Client != "cli" {
			t.Errorf("record %d: session %q, client %q", r.Seq, r.Session, r.Client)
		}
		got = append(got, strings.Join([]string{r.User, r.Role, r.Tool, r.Decision, r.DecidedBy, r.Rule, r.Status}, " "))
	}
	if len(recs) != len(calls) {
		t.Errorf("%d audit records for %d tool calls", len(recs), len(calls))
	}
	want := []string{
		"alice operator sys_monitor allow default  ok",
		"alice operator sys_monitor allow default  ok",
		"alice operator sys_monitor allow rate_limit  denied",
		"alice operator command_executor allow default  ok",
		"alice operator command_executor ask user  denied",
		"bob viewer sys_monitor allow default  ok",
		"bob viewer command_executor deny role roles.viewer denied",
	}
	if !slices.Equal(got, want) {
		t.Errorf("audit records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// opsassist audit verify: ok, then the changed byte and the deleted
	// record are named.
	verify := func() (int, string) {
		var out, errOut bytes.Buffer
		code := (&cli.CLI{Stdout: &out, Stderr: &errOut}).Run(context.Background(), []string{"audit", "verify", "--data", data})
		return code, out.String() + errOut.String()
	}
	if code, out := verify(); code != 0 || strings.TrimSpace(out) != "audit: ok (7 records)" {
		t.Fatalf("verify: exit %d, %q", code, out)
	}
	file := auditFiles(t, filepath.Join(data, audit.DirName))[0]
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(orig, []byte("\n"))
	// One byte of record 3's user: "alice" → "alicf".
	edited := bytes.Clone(orig)
	off := len(lines[0]) + len(lines[1]) + bytes.Index(lines[2], []byte(`"alice"`)) + 5
	edited[off] = 'f'
	os.WriteFile(file, edited, 0o600)
	if code, out := verify(); code != 1 || !strings.Contains(out, ":3 (record 3): ") {
		t.Errorf("after editing record 3: exit %d, %q", code, out)
	}
	// Record 5 deleted.
	deleted := slices.Concat(lines[:4]...)
	deleted = append(deleted, slices.Concat(lines[5:]...)...)
	os.WriteFile(file, deleted, 0o600)
	if code, out := verify(); code != 1 || !strings.Contains(out, "(record 6): ") || !strings.Contains(out, "record 5 is missing") {
		t.Errorf("after deleting record 5: exit %d, %q", code, out)
	}
}

// auditStatus is the status of GET /api/audit with a bearer token.
func auditStatus(t *testing.T, base, token string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", base+"/api/audit", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// getAuthJSON decodes a GET with a bearer token into v.
func getAuthJSON(t *testing.T, url, token string, v any) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d", url, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// historyToolCalls returns the tool call ids of every conversation the
// token's user sees, from their tool messages.
func historyToolCalls(t *testing.T, base, token string) []string {
	t.Helper()
	var list struct {
		Sessions []struct {
			ID string `json:"session_id"`
		} `json:"sessions"`
	}
	getAuthJSON(t, base+"/api/sessions", token, &list)
	var ids []string
	for _, s := range list.Sessions {
		var h struct {
			Messages []struct {
				Role       string `json:"role"`
				ToolCallID string `json:"tool_call_id"`
			} `json:"messages"`
		}
		getAuthJSON(t, base+"/api/sessions/"+s.ID+"/history", token, &h)
		for _, m := range h.Messages {
			if m.Role == "tool" {
				ids = append(ids, m.ToolCallID)
			}
		}
	}
	return ids
}

// auditFiles returns the day files of an audit directory, oldest first.
func auditFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("audit files in %s: %v, %v", dir, files, err)
	}
	sort.Strings(files)
	return files
}

// readAudit reads every record of an audit directory, in order.
func readAudit(t *testing.T, dir string) []auditLine {
	t.Helper()
	var out []auditLine
	for _, f := range auditFiles(t, dir) {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var r auditLine
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out = append(out, r)
		}
		fh.Close()
	}
	return out
}
