package npltserver

import (
	"testing"

	"opsassist/nplt"
	"opsassist/storage/history"
)

// TestModelBelongsToConversation: MODEL_SWITCH sets the current
// conversation's model; SESSION_SWITCH switches to that conversation's
// model, on this connection and on another.
func TestModelBelongsToConversation(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	var models struct {
		Current string `json:"current"`
	}
	c.send(nplt.ModelSwitch, []byte("deepseek"))
	result(t, c.reply(), &models)
	c.chat("on deepseek")
	var a history.Summary
	c.send(nplt.SessionNew, nil)
	result(t, c.reply(), nil)
	c.send(nplt.ModelSwitch, []byte("builtin"))
	result(t, c.reply(), &models)
	c.chat("on builtin")

	c.send(nplt.SessionList, nil)
	var list struct {
		Sessions []history.Summary `json:"sessions"`
	}
	result(t, c.reply(), &list)
	for _, s := range list.Sessions {
		if s.Title == "on deepseek" {
			a = s
		}
	}
	if a.ID == "" || a.Model != "deepseek" {
		t.Fatalf("list %+v", list.Sessions)
	}
	c.sendJSON(nplt.SessionSwitch, nplt.SessionRef{SessionID: a.ID})
	var sw history.Summary
	result(t, c.reply(), &sw)
	if sw.Model != "deepseek" {
		t.Fatalf("switch reply %+v", sw)
	}
	c.send(nplt.ModelSwitch, nil)
	result(t, c.reply(), &models)
	if models.Current != "deepseek" {
		t.Fatalf("current model %q after switching back, want deepseek", models.Current)
	}

	c2 := dial(t, ts.addr, true)
	c2.sendJSON(nplt.SessionSwitch, nplt.SessionRef{SessionID: a.ID})
	result(t, c2.reply(), &sw)
	c2.send(nplt.ModelSwitch, nil)
	result(t, c2.reply(), &models)
	if sw.Model != "deepseek" || models.Current != "deepseek" {
		t.Fatalf("other connection: %+v %q", sw, models.Current)
	}
}

// TestModelDoesNotLeakIntoSwitch: /switch A, /model deepseek, /switch B
// reports and uses B's model (the default: B never chose one), not the
// one chosen in A on this connection (walk-through).
func TestModelDoesNotLeakIntoSwitch(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	c.chat("conversation B")
	var b history.Summary
	c.send(nplt.SessionNew, nil)
	result(t, c.reply(), nil)
	c.chat("conversation A")
	c.send(nplt.SessionList, nil)
	var list struct {
		Sessions []history.Summary `json:"sessions"`
	}
	result(t, c.reply(), &list)
	for _, s := range list.Sessions {
		if s.Title == "conversation B" {
			b = s
		}
	}
	var models struct {
		Current string `json:"current"`
	}
	c.send(nplt.ModelSwitch, []byte("deepseek"))
	result(t, c.reply(), &models)
	c.sendJSON(nplt.SessionSwitch, nplt.SessionRef{SessionID: b.ID})
	var sw history.Summary
	result(t, c.reply(), &sw)
	c.send(nplt.ModelSwitch, nil)
	result(t, c.reply(), &models)
	if sw.Model != "builtin" || models.Current != "builtin" {
		t.Fatalf("after switching to B: reply model %q, current %q; want builtin", sw.Model, models.Current)
	}
}
