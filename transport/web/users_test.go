package web

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/access"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/asktest"
	"opsassist/internal/testkit"
	"opsassist/storage/tokens"
)

const (
	aliceToken = testkit.AliceToken
	bobToken   = testkit.BobToken
	rootToken  = "root-token-0123456789"
)

// twoUsers is testkit.TwoUsers with the auth_token rootToken.
func twoUsers(t testing.TB) *access.Directory { return testkit.TwoUsers(t, rootToken) }

func withUsers(d *access.Directory) envOpt {
	return func(c *Config, _ *chat.Config) { c.Public, c.Users = true, d }
}

func bearer(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

// chatAs posts a message with hdr and returns its open stream.
func (e *testEnv) chatAs(t testing.TB, msg string, hdr ...string) *sseStream {
	t.Helper()
	j, _ := json.Marshal(map[string]string{"message": msg})
	req, _ := http.NewRequest("POST", e.ts.URL+"/api/chat", strings.NewReader(string(j)))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("chat: %d", res.StatusCode)
	}
	t.Cleanup(func() { res.Body.Close() })
	return &sseStream{t: t, res: res, sc: bufio.NewScanner(res.Body)}
}

// TestUsersSeeOnlyTheirOwn: over a real listener, bob (viewer) neither
// lists, reads, switches to, deletes nor downloads from alice's
// conversation, neither lists nor revokes her grants, and cannot answer
// her pending permission request; alice can, with her bearer token and
// with a login cookie of her token. Each acts as their own principal.
func TestUsersSeeOnlyTheirOwn(t *testing.T) {
	a, _, err := asktest.NewAgent()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, a, withUsers(twoUsers(t)), func(_ *Config, cc *chat.Config) { cc.PermissionTimeout = time.Minute })
	alice, bob := bearer(aliceToken), bearer(bobToken)

	st := e.chatAs(t, "probe a", alice...)
	start, _ := st.until(api.EventStreamStart, nil)
	sid := start.Data["session_id"].(string)
	_, raw := st.until(api.EventPermissionRequest, nil)
	var p api.PermissionRequest
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	// Bob cannot answer alice's pending request.
	res, body := e.do(t, "POST", "/api/sessions/"+sid+"/permissions/"+p.RequestID, map[string]string{"decision": api.DecisionAllowSession}, bob...)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	// Nor through a session of his own: the request is unknown there.
	res, body = e.do(t, "POST", "/api/sessions", nil, bob...)
	var own struct {
		ID string `json:"session_id"`
	}
	if res.StatusCode != http.StatusCreated || json.Unmarshal(body, &own) != nil || own.ID == "" {
		t.Fatalf("bob's new session: %d %s", res.StatusCode, body)
	}
	res, body = e.do(t, "POST", "/api/sessions/"+own.ID+"/permissions/"+p.RequestID, map[string]string{"decision": api.DecisionAllowSession}, bob...)
	wantError(t, res, body, http.StatusNotFound, api.CodePermissionUnknown)
	// Alice answers allow_session: a grant.
	res, body = e.do(t, "POST", "/api/sessions/"+sid+"/permissions/"+p.RequestID, map[string]string{"decision": api.DecisionAllowSession}, alice...)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("alice answers: %d %s", res.StatusCode, body)
	}
	st.until(api.EventEnd, nil)

	res, body = e.do(t, "GET", "/api/sessions/"+sid+"/permissions", nil, alice...)
	var grants struct{ Grants []chat.Grant }
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &grants) != nil || len(grants.Grants) != 1 {
		t.Fatalf("alice's grants: %d %s", res.StatusCode, body)
	}
	grant := grants.Grants[0].ID

	path := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(path, []byte("secret"), 0o600)
	tok, _ := e.tokens.Issue(tokens.Token{Path: path, Filename: "f.txt", Size: 6, SessionID: sid}, e.clock.Now())

	for _, req := range [][2]string{
		{"GET", "/api/sessions/" + sid},
		{"GET", "/api/sessions/" + sid[:8]},
		{"GET", "/api/sessions/" + sid + "/history"},
		{"POST", "/api/sessions/" + sid + "/clear"},
		{"GET", "/api/sessions/" + sid + "/permissions"},
		{"DELETE", "/api/sessions/" + sid + "/permissions/" + grant},
		{"DELETE", "/api/sessions/" + sid},
		{"GET", "/api/files/download/" + tok.ID},
	} {
		res, body := e.do(t, req[0], req[1], nil, bob...)
		wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	}
	// The message is a sentence for people: no package prefix, the id
	// as it is.
	res, body = e.do(t, "GET", "/api/sessions/"+sid+"/permissions", nil, bob...)
	if want := `{"code":"not_found","message":"conversation not found: ` + sid + `"}`; strings.TrimSpace(string(body)) != want {
		t.Fatalf("another user's permissions: %s, want %s", body, want)
	}
	// Switching: a chat naming alice's conversation is refused.
	res, body = e.do(t, "POST", "/api/chat", map[string]string{"message": "hi", "session_id": sid}, bob...)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	res, body = e.do(t, "GET", "/api/sessions", nil, bob...)
	if res.StatusCode != http.StatusOK || strings.Contains(string(body), sid) {
		t.Fatalf("bob's list: %d %s", res.StatusCode, body)
	}

	// Alice still has it all, also through a login cookie of her token.
	c := e.login(t, aliceToken)
	cookie := []string{"Cookie", c.Name + "=" + c.Value}
	for _, hdr := range [][]string{alice, cookie} {
		res, body = e.do(t, "GET", "/api/sessions", nil, hdr...)
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), sid) {
			t.Fatalf("alice's list: %d %s", res.StatusCode, body)
		}
		res, body = e.do(t, "GET", "/api/sessions/"+sid+"/permissions", nil, hdr...)
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), grant) {
			t.Fatalf("alice's grants after bob's tries: %d %s", res.StatusCode, body)
		}
	}
	res, body = e.do(t, "GET", "/api/files/download/"+tok.ID, nil, alice...)
	if res.StatusCode != http.StatusOK || string(body) != "secret" {
		t.Fatalf("alice's download: %d %s", res.StatusCode, body)
	}
	// The owner recorded is alice's user id.
	if sum, err := e.svc.NewSession("cli", chat.Local()).Switch(sid); err != nil || sum.Owner != "u-alice" {
		t.Fatalf("owner: %+v %v", sum, err)
	}
	// Bob's own conversation is his, and alice does not see it.
	bs := e.chatAs(t, "hello", bob...)
	bstart, _ := bs.until(api.EventStreamStart, nil)
	bs.until(api.EventEnd, nil)
	res, body = e.do(t, "GET", "/api/sessions/"+bstart.Data["session_id"].(string), nil, alice...)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
}

// TestUserTokens: every user's token works as a bearer header and in the
// login form, each acting as its own principal; a wrong token is
// refused and counted; the old AuthToken field alone still works.
func TestUserTokens(t *testing.T) {
	e := newEnv(t, asktestAgent(t), withUsers(twoUsers(t)))
	for _, tok := range []string{aliceToken, bobToken, rootToken} {
		if res, body := e.do(t, "GET", "/api/sessions", nil, bearer(tok)...); res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d %s", tok, res.StatusCode, body)
		}
		e.login(t, tok)
	}
	for _, tok := range []string{"", "alice-token", aliceToken + "x", strings.ToUpper(bobToken)} {
		res, body := e.do(t, "GET", "/api/sessions", nil, bearer(tok)...)
		wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	}
	res, body := e.do(t, "GET", "/api/sessions", nil)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)

	// AuthToken without Users: the admin, as before.
	old := newEnv(t, asktestAgent(t), public)
	if res, _ := old.do(t, "GET", "/api/audit", nil, "Authorization", "Bearer s3cret-token"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("auth_token holder on /api/audit without a log: %d", res.StatusCode)
	}
	// Public without any token is refused at New.
	if _, err := New(Config{Chat: e.svc, Tokens: e.tokens, Public: true, Users: &access.Directory{}}); err != ErrNoToken {
		t.Fatalf("public without tokens: %v", err)
	}
	// Users and AuthToken at once: which one holds the admin is unclear.
	if _, err := New(Config{Chat: e.svc, Tokens: e.tokens, Users: twoUsers(t), AuthToken: "another-token-0123"}); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Fatalf("Users and AuthToken: %v", err)
	}
}

func asktestAgent(t testing.TB) chat.Agent {
	a, _, err := asktest.NewAgent()
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestLoopbackWithUsersNeedsToken: users on a loopback server demand a
// token as auth_token does.
func TestLoopbackWithUsersNeedsToken(t *testing.T) {
	e := newEnv(t, asktestAgent(t), func(c *Config, _ *chat.Config) { c.Users = twoUsers(t) })
	res, body := e.do(t, "GET", "/api/sessions", nil)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	if res, _ := e.do(t, "GET", "/api/sessions", nil, bearer(bobToken)...); res.StatusCode != http.StatusOK {
		t.Fatalf("bob on loopback: %d", res.StatusCode)
	}
}
