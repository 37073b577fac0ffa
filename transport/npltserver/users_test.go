package npltserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/access"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/asktest"
	"opsassist/internal/authlimit"
	"opsassist/internal/testkit"
	"opsassist/nplt"
	"opsassist/storage/tokens"
)

const (
	aliceToken = testkit.AliceToken
	bobToken   = testkit.BobToken
)

// twoUsers is testkit.TwoUsers with the auth_token goodToken.
func twoUsers(t testing.TB) *access.Directory { return testkit.TwoUsers(t, goodToken) }

// login dials and authenticates with token, returning the client after
// the greeting and the HELLO reply's session id.
func login(t *testing.T, addr, token string) (*client, string) {
	t.Helper()
	c := dialFrom(t, "127.0.0.1", addr)
	fs := c.helloWith(token)
	if fs[0].Type != nplt.Hello {
		t.Fatalf("%s refused: %v", token, fs)
	}
	var h nplt.HelloReply
	json.Unmarshal(fs[0].Payload, &h)
	c.reply() // greeting
	return c, h.SessionID
}

// TestUsersSeeOnlyTheirOwn: the principal is per connection, from the
// HELLO token. Over a real listener bob (viewer) cannot resume, list,
// switch to, delete or download from alice's conversation, cannot list
// or revoke her grants, and cannot answer her pending permission
// request, while she can; each conversation is owned by its user.
func TestUsersSeeOnlyTheirOwn(t *testing.T) {
	a, probe, err := asktest.NewAgent()
	if err != nil {
		t.Fatal(err)
	}
	store := tokens.NewStore(0)
	ts := startServer(t, "", func(c *Config, cc *chat.Config) {
		c.Users, c.Tokens = twoUsers(t), store
		cc.Agent, cc.PermissionTimeout = a, time.Minute
	})
	alice, sid := login(t, ts.addr, aliceToken)
	bob, bobSid := login(t, ts.addr, bobToken)
	if sid == bobSid {
		t.Fatal("one conversation for two users")
	}

	alice.send(nplt.ChatText, []byte("probe a"))
	p := alice.untilPermission()
	// Bob answers alice's request id: unknown to him.
	bob.answer(p.RequestID, api.DecisionAllowSession)
	if code := errorCode(t, []nplt.Frame{bob.read()}); code != api.CodePermissionUnknown {
		t.Fatalf("bob answering alice's request: %q", code)
	}
	if len(probe.Runs()) != 0 {
		t.Fatal("bob's answer ran the call")
	}
	alice.answer(p.RequestID, api.DecisionAllowSession)
	if text := replyText(alice.reply()); !strings.Contains(text, `call-a {"success":true`) {
		t.Fatalf("alice's reply %q", text)
	}
	alice.send(nplt.PermissionGrants, nil)
	var grants struct {
		SessionID string       `json:"session_id"`
		Grants    []chat.Grant `json:"grants"`
	}
	if kind := result(t, alice.reply(), &grants); kind != "permissions" || grants.SessionID != sid || len(grants.Grants) != 1 {
		t.Fatalf("alice's grants: %s %+v", kind, grants)
	}
	grant := grants.Grants[0].ID

	path := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(path, []byte("secret"), 0o600)
	tok, _ := store.Issue(tokens.Token{Path: path, Filename: "f.txt", Size: 6, SessionID: sid}, time.Now())

	// Bob's grants are his conversation's (none); he cannot revoke hers.
	bob.send(nplt.PermissionGrants, nil)
	if result(t, bob.reply(), &grants); grants.SessionID != bobSid || len(grants.Grants) != 0 {
		t.Fatalf("bob's grants: %+v", grants)
	}
	bob.sendJSON(nplt.PermissionGrants, map[string]string{"revoke": grant})
	if code := errorCode(t, bob.reply()); code != api.CodeNotFound {
		t.Fatalf("bob revoking alice's grant: %q", code)
	}
	for _, typ := range []nplt.Type{nplt.SessionSwitch, nplt.SessionDelete} {
		for _, ref := range []string{sid, sid[:8]} {
			bob.sendJSON(typ, map[string]string{"session_id": ref})
			if code := errorCode(t, bob.reply()); code != api.CodeNotFound {
				t.Fatalf("bob %v %s: %q", typ, ref, code)
			}
		}
	}
	bob.send(nplt.SessionList, nil)
	if text := replyText(bob.reply()); strings.Contains(text, sid[:8]) {
		t.Fatalf("bob lists alice's: %s", text)
	}
	bob.sendJSON(nplt.FileRequest, nplt.FileRequestPayload{DownloadToken: tok.ID})
	if code := errorCode(t, bob.reply()); code != api.CodeTokenUnknown {
		t.Fatalf("bob downloading: %q", code)
	}
	// A new connection of bob's cannot resume it either.
	again := dialFrom(t, "127.0.0.1", ts.addr)
	again.sendJSON(nplt.Hello, nplt.HelloPayload{Client: "t", ClientType: "cli", Token: bobToken, SessionID: sid})
	for {
		f := again.read()
		if f.Type == nplt.Error && errorCode(t, []nplt.Frame{f}) != api.CodeNotFound {
			t.Fatalf("resume: %q", f.Payload)
		}
		if f.Type == nplt.Hello {
			var h nplt.HelloReply
			if json.Unmarshal(f.Payload, &h); h.SessionID == sid {
				t.Fatal("bob resumed alice's conversation")
			}
			break
		}
	}

	// Alice's grant is intact; she lists her conversation on a second
	// connection; it is owned by her user id.
	alice2, _ := login(t, ts.addr, aliceToken)
	alice2.send(nplt.SessionList, nil)
	if text := replyText(alice2.reply()); !strings.Contains(text, sid[:8]) {
		t.Fatalf("alice's list: %s", text)
	}
	alice.send(nplt.PermissionGrants, nil)
	if result(t, alice.reply(), &grants); len(grants.Grants) != 1 || grants.Grants[0].ID != grant {
		t.Fatalf("alice's grants after bob's tries: %+v", grants)
	}
	if sum, err := ts.svc.NewSession("cli", chat.Local()).Switch(sid); err != nil || sum.Owner != "u-alice" {
		t.Fatalf("owner: %+v %v", sum, err)
	}
	// The auth_token's holder keeps its principal (today's owner ids).
	root, rootSid := login(t, ts.addr, goodToken)
	root.chat("hi")
	if sum, err := ts.svc.NewSession("cli", chat.Local()).Switch(rootSid); err != nil || sum.Owner != chat.TokenPrincipal(goodToken, true).ID {
		t.Fatalf("auth_token owner: %+v %v", sum, err)
	}
}

// TestUserWrongTokensThrottled: wrong tokens against a directory of
// users are refused and counted per address as before; a user's token
// still works from another address.
func TestUserWrongTokensThrottled(t *testing.T) {
	ts := startServer(t, "", func(c *Config, _ *chat.Config) { c.Users = twoUsers(t) })
	for i, tok := range []string{"alice-token", aliceToken + " ", strings.ToUpper(bobToken), "x"} {
		if i >= authlimit.MaxFailures {
			break
		}
		if code := errorCode(t, dialFrom(t, "127.0.0.1", ts.addr).helloWith(tok)); code != api.CodeUnauthorized {
			t.Fatalf("%q: %s", tok, code)
		}
	}
	for range authlimit.MaxFailures {
		dialFrom(t, "127.0.0.1", ts.addr).helloWith("guess")
	}
	checkRefusal(t, dialFrom(t, "127.0.0.1", ts.addr).expectClosed(), api.CodeTooManyAttempts)
	if fs := dialFrom(t, "127.0.0.2", ts.addr).helloWith(bobToken); fs[0].Type != nplt.Hello {
		t.Fatalf("bob from another address: %v", fs)
	}
}

// TestUsersAndAuthTokenRefused: a server given both a directory and an
// auth_token is a configuration error, not a silent choice.
func TestUsersAndAuthTokenRefused(t *testing.T) {
	ts := startServer(t, "")
	_, err := New(Config{Chat: ts.svc, Users: twoUsers(t), AuthToken: "another-token-0123"})
	if err == nil || !strings.Contains(err.Error(), "not both") {
		t.Fatalf("New with Users and AuthToken: %v", err)
	}
}
