package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
)

// TestExportSession: md (the default) is the Markdown transcript with
// the user's title, json the stored messages; both are attachments.
func TestExportSession(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	id := newConversation(t, e)
	if res, _ := e.do(t, "POST", "/api/chat", `{"message":"磁盘满了吗","session_id":"`+id+`"}`); res.StatusCode != http.StatusOK {
		t.Fatal(res.StatusCode)
	}
	e.do(t, "PATCH", "/api/sessions/"+id, `{"title":"磁盘"}`)
	for _, p := range []string{"/export", "/export?format=md"} {
		res, body := e.do(t, "GET", "/api/sessions/"+id+p, nil)
		md := string(body)
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/markdown") ||
			res.Header.Get("Content-Disposition") != `attachment; filename="opsassist-`+id[:8]+`.md"` ||
			!strings.HasPrefix(md, "# 磁盘\n") || !strings.Contains(md, "## 用户\n\n磁盘满了吗\n") || !strings.Contains(md, "## 助手") {
			t.Fatalf("%s: %d %v\n%s", p, res.StatusCode, res.Header, md)
		}
	}
	res, body := e.do(t, "GET", "/api/sessions/"+id[:8]+"/export?format=json", nil)
	var v struct {
		Session  history.Summary   `json:"session"`
		Messages []history.Message `json:"messages"`
		Uploads  []json.RawMessage `json:"uploads"`
	}
	decode(t, body, &v)
	if res.StatusCode != http.StatusOK || v.Session.ID != id || v.Session.Title != "磁盘" || len(v.Messages) != 2 ||
		v.Messages[0].Content != "磁盘满了吗" || v.Uploads == nil {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	// A new, empty conversation exports too.
	empty := newConversation(t, e)
	if res, body := e.do(t, "GET", "/api/sessions/"+empty+"/export?format=json", nil); res.StatusCode != http.StatusOK || !strings.Contains(string(body), `"messages":[]`) {
		t.Fatalf("empty: %d %s", res.StatusCode, body)
	}
}

// TestExportBadInput: an unknown format is 400, an unknown id 404,
// another user's conversation 404.
func TestExportBadInput(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, withUsers(twoUsers(t)))
	id := newConversation(t, e, bearer(aliceToken)...)
	res, body := e.do(t, "GET", "/api/sessions/"+id+"/export?format=pdf", nil, bearer(aliceToken)...)
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadRequest)
	res, body = e.do(t, "GET", "/api/sessions/00000000-0000-4000-8000-000000000000/export", nil, bearer(aliceToken)...)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	for _, f := range []string{"md", "json"} {
		res, body = e.do(t, "GET", "/api/sessions/"+id+"/export?format="+f, nil, bearer(bobToken)...)
		wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	}
	res, body = e.do(t, "GET", "/api/sessions/"+id+"/export", nil)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
}

// TestExportRefusalsMapped: the chat core decides an export's refusals
// and the transport maps them: a bad format in the conversation's
// language (400), over the size 413 too_large, the export budget in use
// 503 server_busy.
func TestExportRefusalsMapped(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	id := newConversation(t, e)
	if res, _ := e.do(t, "POST", "/api/chat", `{"message":"磁盘满了吗","session_id":"`+id+`"}`); res.StatusCode != http.StatusOK {
		t.Fatal(res.StatusCode)
	}
	res, body := e.do(t, "GET", "/api/sessions/"+id+"/export?format=pdf", nil)
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadRequest)
	if !strings.Contains(string(body), "导出格式") {
		t.Fatalf("not in the conversation's language: %s", body)
	}
	for code, status := range map[string]int{api.CodeTooLarge: http.StatusRequestEntityTooLarge, api.CodeServerBusy: http.StatusServiceUnavailable} {
		if ae := e.srv.classify(&chat.Error{Code: code, Err: errors.New("x")}); ae.Status != status || ae.Code != code {
			t.Errorf("%s: %+v", code, ae)
		}
	}
}
