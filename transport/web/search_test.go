package web

import (
	"net/http"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
)

type listReply struct {
	Sessions []struct {
		SessionID string `json:"session_id"`
		Title     string `json:"title"`
	} `json:"sessions"`
	Total    int    `json:"total"`
	Next     string `json:"next"`
	Complete *bool  `json:"complete"`
}

func (e *testEnv) chatIn(t *testing.T, id, msg string, hdr ...string) {
	t.Helper()
	if res, _ := e.do(t, "POST", "/api/chat", `{"message":"`+msg+`","session_id":"`+id+`"}`, hdr...); res.StatusCode != http.StatusOK {
		t.Fatal(res.StatusCode)
	}
}

// TestSearchSessions: ?q= matches titles and message text, ignoring
// case; another user's conversations never match.
func TestSearchSessions(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, withUsers(twoUsers(t)))
	alice := bearer(aliceToken)
	disk := newConversation(t, e, alice...)
	e.chatIn(t, disk, "Why is the DISK full", alice...)
	named := newConversation(t, e, alice...)
	e.chatIn(t, named, "hello", alice...)
	e.do(t, "PATCH", "/api/sessions/"+named, `{"title":"夜间巡检 Disk"}`, alice...)
	other := newConversation(t, e, alice...)
	e.chatIn(t, other, "cpu load", alice...)
	bobs := newConversation(t, e, bearer(bobToken)...)
	e.chatIn(t, bobs, "disk too", bearer(bobToken)...)

	_, b := e.do(t, "GET", "/api/sessions?q=disk", nil, alice...)
	var v listReply
	decode(t, b, &v)
	if v.Total != 2 || len(v.Sessions) != 2 || v.Complete == nil || !*v.Complete || strings.Contains(string(b), bobs) || strings.Contains(string(b), other) {
		t.Fatalf("q=disk: %s", b)
	}
	v = listReply{}
	_, b = e.do(t, "GET", "/api/sessions?q=%E5%B7%A1%E6%A3%80", nil, alice...) // 巡检
	decode(t, b, &v)
	if v.Total != 1 || v.Sessions[0].SessionID != named {
		t.Fatalf("q=巡检: %s", b)
	}
	res, b := e.do(t, "GET", "/api/sessions?q="+strings.Repeat("x", maxQuery+1), nil, alice...)
	wantError(t, res, b, http.StatusBadRequest, api.CodeBadRequest)
}

// TestSearchIsBounded: with a budget smaller than the history, the
// search stops and says it is not complete.
func TestSearchIsBounded(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.SearchBytes = 8 })
	old := newConversation(t, e)
	e.chatIn(t, old, "needle in an old conversation")
	recent := newConversation(t, e)
	e.chatIn(t, recent, "a recent conversation, long")
	_, b := e.do(t, "GET", "/api/sessions?q=needle", nil)
	var v listReply
	decode(t, b, &v)
	if v.Complete == nil || *v.Complete || v.Total != 0 {
		t.Fatalf("%s", b)
	}
}

// TestListPaging: limit and before walk the list page by page; bad
// values are 400, an unknown cursor 404.
func TestListPaging(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	for i := 0; i < 5; i++ {
		e.chatIn(t, newConversation(t, e), "m")
	}
	var seen []string
	before := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("paging does not end")
		}
		_, b := e.do(t, "GET", "/api/sessions?limit=2&before="+before, nil)
		var v listReply
		decode(t, b, &v)
		if len(v.Sessions) > 2 {
			t.Fatalf("page of %d", len(v.Sessions))
		}
		for _, s := range v.Sessions {
			seen = append(seen, s.SessionID)
		}
		if v.Next == "" {
			break
		}
		before = v.Next
	}
	_, b := e.do(t, "GET", "/api/sessions", nil)
	var all listReply
	decode(t, b, &all)
	if len(seen) != 5 || all.Total != 5 {
		t.Fatalf("seen %v, all %s", seen, b)
	}
	for i, s := range all.Sessions {
		if seen[i] != s.SessionID {
			t.Fatalf("page order %v vs %s", seen, b)
		}
	}
	for _, q := range []string{"limit=0", "limit=-1", "limit=x", "limit=501"} {
		res, b := e.do(t, "GET", "/api/sessions?"+q, nil)
		wantError(t, res, b, http.StatusBadRequest, api.CodeBadRequest)
	}
	res, b := e.do(t, "GET", "/api/sessions?before=no-such", nil)
	wantError(t, res, b, http.StatusNotFound, api.CodeNotFound)
	res, b = e.do(t, "GET", "/api/sessions?before=c1.!!", nil)
	wantError(t, res, b, http.StatusBadRequest, api.CodeBadRequest)
	// A conversation id, as earlier versions' "next" was, still pages.
	_, b = e.do(t, "GET", "/api/sessions?limit=2&before="+all.Sessions[1].SessionID, nil)
	var v listReply
	decode(t, b, &v)
	if len(v.Sessions) != 2 || v.Sessions[0].SessionID != all.Sessions[2].SessionID {
		t.Fatalf("before=ID: %s", b)
	}
}

// TestListPagingWhileUpdating: a conversation updated between pages
// (it moves to the top) makes the walk neither skip nor repeat any
// other: every untouched conversation is seen exactly once, the
// updated one at most once, and the next walk shows it first.
func TestListPagingWhileUpdating(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	for i := 0; i < 7; i++ {
		e.chatIn(t, newConversation(t, e), "m")
	}
	seen := map[string]int{}
	touched := ""
	before := ""
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("paging does not end")
		}
		_, b := e.do(t, "GET", "/api/sessions?limit=3&before="+before, nil)
		var v listReply
		decode(t, b, &v)
		for _, s := range v.Sessions {
			seen[s.SessionID]++
		}
		if v.Next == "" {
			break
		}
		before = v.Next
		if pages == 0 {
			// The page's last conversation, where the old id cursor
			// pointed, is updated: it moves to the top.
			touched = v.Sessions[len(v.Sessions)-1].SessionID
			e.chatIn(t, touched, "again")
		}
	}
	_, b := e.do(t, "GET", "/api/sessions", nil)
	var all listReply
	decode(t, b, &all)
	if all.Total != 7 || all.Sessions[0].SessionID != touched {
		t.Fatalf("after the walk: %s", b)
	}
	for _, s := range all.Sessions {
		if n := seen[s.SessionID]; n != 1 {
			t.Errorf("%s seen %d times (touched: %v)", s.SessionID, n, s.SessionID == touched)
		}
	}
}
