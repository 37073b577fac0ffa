package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"opsassist/access"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
)

// fakeAudit records the queries it gets and answers recs (or err).
type fakeAudit struct {
	mu   sync.Mutex
	got  []auditQuery
	recs []json.RawMessage
	err  error
}

var _ AuditLog = (*fakeAudit)(nil)

func (f *fakeAudit) Query(ctx context.Context, since time.Time, user, tool string, limit int) ([]json.RawMessage, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, auditQuery{since: since, user: user, tool: tool, limit: limit})
	return f.recs, f.err
}

func (f *fakeAudit) last() auditQuery {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.got[len(f.got)-1]
}

// auditUsers adds carol, whose configured role is admin, to alice and
// bob.
func auditUsers(t *testing.T) *access.Directory {
	d, err := access.New([]access.User{
		{Name: "alice", Role: chat.RoleOperator, TokenSHA256: access.HashToken(aliceToken)},
		{Name: "bob", Role: chat.RoleViewer, TokenSHA256: access.HashToken(bobToken)},
		{Name: "carol", Role: "auditor", Admin: true, TokenSHA256: access.HashToken("carol-token-0123456789")},
	}, rootToken)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAuditAdminsOnly: the admins (auth_token's holder, a user of an
// admin role) read the records; an operator and a viewer get 403, no
// credentials 401; the records are answered as stored, oldest first.
func TestAuditAdminsOnly(t *testing.T) {
	fa := &fakeAudit{recs: []json.RawMessage{json.RawMessage(`{"seq":1,"user":"alice"}`), json.RawMessage(`{"seq":2,"user":"bob"}`)}}
	e := newEnv(t, testkit.Scripted{}, withUsers(auditUsers(t)), func(c *Config, _ *chat.Config) { c.Audit = fa })
	for _, tok := range []string{rootToken, "carol-token-0123456789"} {
		res, body := e.do(t, "GET", "/api/audit", nil, bearer(tok)...)
		if res.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != `{"records":[{"seq":1,"user":"alice"},{"seq":2,"user":"bob"}]}` {
			t.Fatalf("%s: %d %s", tok, res.StatusCode, body)
		}
	}
	for _, tok := range []string{aliceToken, bobToken} {
		res, body := e.do(t, "GET", "/api/audit", nil, bearer(tok)...)
		wantError(t, res, body, http.StatusForbidden, api.CodeForbidden)
	}
	res, body := e.do(t, "GET", "/api/audit", nil)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	if q := fa.last(); !q.since.IsZero() || q.user != "" || q.tool != "" || q.limit != DefaultAuditLimit {
		t.Fatalf("default query %+v", q)
	}
	// No records: an empty list, not null.
	fa.mu.Lock()
	fa.recs = nil
	fa.mu.Unlock()
	if res, body := e.do(t, "GET", "/api/audit", nil, bearer(rootToken)...); strings.TrimSpace(string(body)) != `{"records":[]}` {
		t.Fatalf("empty: %d %s", res.StatusCode, body)
	}
}

// TestAuditLocalAndDisabled: the local operator of an open loopback
// server is an admin; without an audit log the endpoint is 404.
func TestAuditLocalAndDisabled(t *testing.T) {
	fa := &fakeAudit{}
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.Audit = fa })
	if res, body := e.do(t, "GET", "/api/audit?user=local", nil); res.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != `{"records":[]}` {
		t.Fatalf("local: %d %s", res.StatusCode, body)
	}
	off := newEnv(t, testkit.Scripted{})
	res, body := off.do(t, "GET", "/api/audit", nil)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	if !strings.Contains(string(body), "audit log not enabled") {
		t.Fatalf("%s", body)
	}
	// A non-admin learns nothing about whether there is a log.
	offUsers := newEnv(t, testkit.Scripted{}, withUsers(auditUsers(t)))
	res, body = offUsers.do(t, "GET", "/api/audit", nil, bearer(bobToken)...)
	wantError(t, res, body, http.StatusForbidden, api.CodeForbidden)
}

// TestAuditQuery: since as RFC 3339, a date or a duration ago; user,
// tool and limit pass through; limit is capped; each bad value is 400
// naming the parameter; a failing log is 500.
func TestAuditQuery(t *testing.T) {
	fa := &fakeAudit{}
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.Audit = fa })
	now := e.clock.Now()
	for _, tc := range []struct {
		query string
		want  auditQuery
	}{
		{"since=2026-03-04T05:06:07Z", auditQuery{since: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC), limit: DefaultAuditLimit}},
		{"since=" + url.QueryEscape("2026-03-04T05:06:07+02:00"), auditQuery{since: time.Date(2026, 3, 4, 3, 6, 7, 0, time.UTC), limit: DefaultAuditLimit}},
		{"since=2026-03-04", auditQuery{since: time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC), limit: DefaultAuditLimit}},
		{"since=1h", auditQuery{since: now.Add(-time.Hour), limit: DefaultAuditLimit}},
		{"since=90m&user=alice&tool=command_executor&limit=5", auditQuery{since: now.Add(-90 * time.Minute), user: "alice", tool: "command_executor", limit: 5}},
		{"limit=1000", auditQuery{limit: 1000}},
		{"limit=10000", auditQuery{limit: MaxAuditLimit}},
		{"limit=99999999", auditQuery{limit: MaxAuditLimit}},
		{"limit=99999999999999999999999", auditQuery{limit: MaxAuditLimit}},
		{"user=" + url.QueryEscape("张三"), auditQuery{user: "张三", limit: DefaultAuditLimit}},
		{"unknown=1", auditQuery{limit: DefaultAuditLimit}},
	} {
		res, body := e.do(t, "GET", "/api/audit?"+tc.query, nil)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d %s", tc.query, res.StatusCode, body)
			continue
		}
		if q := fa.last(); !q.since.Equal(tc.want.since) || q.user != tc.want.user || q.tool != tc.want.tool || q.limit != tc.want.limit {
			t.Errorf("%s: query %+v, want %+v", tc.query, q, tc.want)
		}
	}
	for query, want := range map[string]string{
		"since=yesterday":                    "since:",
		"since=-1h":                          "since:",
		"since=2026-13-01":                   "since:",
		"since=" + strings.Repeat("9", 5000): "since:",
		"limit=0":                            "limit:",
		"limit=-5":                           "limit:",
		"limit=ten":                          "limit:",
		"limit=1&limit=2":                    "limit: given more than once",
		"since=1h&since=2h":                  "since: given more than once",
		"user=" + strings.Repeat("u", 300):   "user and tool",
		"tool=%zz":                           "bad query string",
	} {
		res, body := e.do(t, "GET", "/api/audit?"+query, nil)
		wantError(t, res, body, http.StatusBadRequest, api.CodeBadRequest)
		if !strings.Contains(string(body), want) || len(body) > 1024 {
			t.Errorf("%.40s: %s, want %q", query, body, want)
		}
	}
	fa.mu.Lock()
	fa.err = errors.New("disk on fire")
	fa.mu.Unlock()
	res, body := e.do(t, "GET", "/api/audit", nil)
	wantError(t, res, body, http.StatusInternalServerError, api.CodeInternal)
	if strings.Contains(string(body), "disk on fire") {
		t.Errorf("internal detail in the answer: %s", body)
	}
	// The server still answers.
	if res, _ := e.do(t, "GET", "/api/health", nil); res.StatusCode != http.StatusOK {
		t.Fatal("health after a failed audit query")
	}
}

// FuzzParseAuditQuery: no query string panics the parser, and an
// accepted one has a limit within bounds and bounded user and tool.
func FuzzParseAuditQuery(f *testing.F) {
	for _, s := range []string{"", "since=1h", "since=2026-01-02&limit=5", "since=2026-01-02T03:04:05Z&user=a&tool=b", "limit=0", "%zz", "since=-1h", "limit=1&limit=2"} {
		f.Add(s)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := parseAuditQuery(raw, now)
		if err != nil {
			return
		}
		if q.limit < 1 || q.limit > MaxAuditLimit || len(q.user) > maxAuditParam || len(q.tool) > maxAuditParam {
			t.Fatalf("%q: %+v", raw, q)
		}
	})
}

// TestAuditReplayed: the same query twice gets the same answer (a GET
// changes nothing); an oversized URL is refused by the server's header
// limit, and the server goes on.
func TestAuditReplayed(t *testing.T) {
	fa := &fakeAudit{recs: []json.RawMessage{json.RawMessage(`{"seq":1}`)}}
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.Audit = fa })
	_, first := e.do(t, "GET", "/api/audit?since=2026-01-01&tool=x", nil)
	_, second := e.do(t, "GET", "/api/audit?since=2026-01-01&tool=x", nil)
	if string(first) != string(second) || len(fa.got) != 2 || fa.got[0] != fa.got[1] {
		t.Fatalf("%s / %s, queries %+v", first, second, fa.got)
	}
	res, _ := e.do(t, "GET", "/api/audit?user="+strings.Repeat("u", 128<<10), nil)
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge && res.StatusCode != http.StatusBadRequest {
		t.Fatalf("oversized URL: %d", res.StatusCode)
	}
	if res, _ := e.do(t, "GET", "/api/health", nil); res.StatusCode != http.StatusOK {
		t.Fatal("health after an oversized URL")
	}
}
