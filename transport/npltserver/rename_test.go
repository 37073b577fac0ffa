package npltserver

import (
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
	"opsassist/storage/history"
)

// TestSessionRename: SESSION_RENAME names the current conversation; the
// list shows the title, a replay is harmless, and the title is in the
// history file.
func TestSessionRename(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	c.chat("hello")
	c.send(nplt.SessionRename, []byte(`{"title":"  夜间巡检 "}`))
	fs := c.reply()
	var s history.Summary
	if kind := result(t, fs, &s); kind != "session" || s.Title != "夜间巡检" {
		t.Fatalf("%s %+v", kind, s)
	}
	if text := replyText(fs); !strings.Contains(text, "夜间巡检") {
		t.Fatalf("text %q", text)
	}
	c.send(nplt.SessionRename, []byte(`{"title":"夜间巡检"}`))
	if code := errorCode(t, c.reply()); code != "" {
		t.Fatalf("replay: %s", code)
	}
	c.send(nplt.SessionList, nil)
	if text := replyText(c.reply()); !strings.Contains(text, "夜间巡检") {
		t.Fatalf("list %q", text)
	}
	h, err := history.Open(ts.dataDir+"/history", nil)
	if err != nil {
		t.Fatal(err)
	}
	if l := h.List(); len(l) != 1 || l[0].Title != "夜间巡检" {
		t.Fatalf("not persisted: %+v", l)
	}
}

// TestSessionRenameBadInput: a malformed, title-less, trailing-data or
// oversized payload and a bad title are refused with ERROR, end; the
// connection stays usable and nothing is renamed. A published client
// (no HELLO) gets the refusal as text.
func TestSessionRenameBadInput(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	for _, tc := range []struct {
		payload string
		code    string
	}{
		{``, api.CodeBadJSON},
		{`nope`, api.CodeBadJSON},
		{`{}`, api.CodeBadJSON},
		{`{"title":1}`, api.CodeBadJSON},
		{`{"title":"a"} x`, api.CodeBadJSON},
		{`{"title":"` + strings.Repeat("x", maxRenamePayload) + `"}`, api.CodeTooLarge},
		{`{"title":"` + strings.Repeat("x", chat.MaxTitle+1) + `"}`, api.CodeBadRequest},
		{`{"title":"a\nb"}`, api.CodeBadRequest},
	} {
		c.send(nplt.SessionRename, []byte(tc.payload))
		if code := errorCode(t, c.reply()); code != tc.code {
			t.Errorf("%.40q: code %q, want %q", tc.payload, code, tc.code)
		}
	}
	c.send(nplt.SessionRename, []byte(`{"title":"标题\u0007"}`))
	fs := c.reply()
	if code := errorCode(t, fs); code != api.CodeBadRequest || !strings.Contains(string(fs[0].Payload), "标题只能是一行") {
		t.Fatalf("zh refusal %v", fs)
	}
	if text := replyText(c.chat("still here")); text == "" {
		t.Fatal("connection unusable after refusals")
	}
	c.send(nplt.SessionList, nil)
	var l struct{ Sessions []history.Summary }
	result(t, c.reply(), &l)
	if len(l.Sessions) != 1 || l.Sessions[0].Title != "still here" {
		t.Fatalf("renamed anyway: %+v", l.Sessions)
	}

	p := dial(t, ts.addr, false)
	p.send(nplt.SessionRename, []byte(`nope`))
	if text := replyText(p.reply()); !strings.Contains(text, "bad_json") {
		t.Fatalf("published client: %q", text)
	}
}

// TestSessionListSearch: SESSION_LIST with {"q"} lists only matching
// conversations (title or text, ignoring case); an empty payload lists
// them all as before; a malformed or oversized query is refused.
func TestSessionListSearch(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	c.chat("Disk is FULL")
	c.send(nplt.SessionNew, nil)
	c.reply()
	c.chat("cpu load")
	c.send(nplt.SessionList, []byte(`{"q":"full"}`))
	fs := c.reply()
	var l struct {
		Sessions []history.Summary
		Total    int
	}
	result(t, fs, &l)
	if l.Total != 1 || l.Sessions[0].Title != "Disk is FULL" || !strings.Contains(replyText(fs), `"full"`) {
		t.Fatalf("search %+v %q", l, replyText(fs))
	}
	c.send(nplt.SessionList, []byte(`{"q":"nothing"}`))
	if text := replyText(c.reply()); !strings.Contains(text, "no matching sessions") {
		t.Fatalf("no match %q", text)
	}
	c.send(nplt.SessionList, nil)
	l.Sessions = nil
	result(t, c.reply(), &l)
	if len(l.Sessions) != 2 {
		t.Fatalf("plain list %+v", l)
	}
	for _, tc := range []struct{ payload, code string }{
		{`nope`, api.CodeBadJSON},
		{`{"q":1}`, api.CodeBadJSON},
		{`{"q":"` + strings.Repeat("x", maxSearchQuery+1) + `"}`, api.CodeBadRequest},
	} {
		c.send(nplt.SessionList, []byte(tc.payload))
		if code := errorCode(t, c.reply()); code != tc.code {
			t.Errorf("%.30q: %q, want %q", tc.payload, code, tc.code)
		}
	}
}

// TestSessionResultsSayWhatTheyDid: every session command's RESULT data
// carries action (new, switch, rename, delete) and a delete names the
// deleted conversation, so clients word results from data, not text.
func TestSessionResultsSayWhatTheyDid(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	type data struct {
		SessionID string `json:"session_id"`
		Title     string `json:"title"`
		Action    string `json:"action"`
		Deleted   *struct {
			SessionID string `json:"session_id"`
			Title     string `json:"title"`
		} `json:"deleted"`
	}
	get := func(ft nplt.Type, payload string) data {
		t.Helper()
		c.send(ft, []byte(payload))
		var d data
		if kind := result(t, c.reply(), &d); kind != "session" {
			t.Fatalf("%v: kind %q", ft, kind)
		}
		return d
	}
	c.chat("hello")
	first := get(nplt.SessionRename, `{"title":"first"}`)
	if first.Action != "rename" || first.Title != "first" {
		t.Fatalf("rename: %+v", first)
	}
	second := get(nplt.SessionNew, ``)
	if second.Action != "new" || second.SessionID == first.SessionID {
		t.Fatalf("new: %+v", second)
	}
	if d := get(nplt.SessionSwitch, `{"session_id":"`+first.SessionID+`"}`); d.Action != "switch" || d.SessionID != first.SessionID {
		t.Fatalf("switch: %+v", d)
	}
	d := get(nplt.SessionDelete, `{"session_id":"`+first.SessionID+`"}`)
	if d.Action != "delete" || d.Deleted == nil || d.Deleted.SessionID != first.SessionID || d.Deleted.Title != "first" || d.SessionID == first.SessionID {
		t.Fatalf("delete: %+v %+v", d, d.Deleted)
	}
}
