package chat_test

import (
	"errors"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
)

func TestRenamePersistsAndListsTitle(t *testing.T) {
	svc := newService(t, scripted{text: "ok"}, nil)
	se := svc.NewSession(api.ClientCLI, chat.Local())
	sum, err := se.Rename("  夜间巡检  ")
	if err != nil {
		t.Fatal(err)
	}
	if sum.Title != "夜间巡检" || !se.Saved() {
		t.Fatalf("summary %+v saved=%v", sum, se.Saved())
	}
	list := svc.List(chat.Local())
	if len(list) != 1 || list[0].Title != "夜间巡检" {
		t.Fatalf("list %+v", list)
	}
}

func TestRenameRefusesBadTitles(t *testing.T) {
	svc := newService(t, scripted{text: "ok"}, nil)
	se := svc.NewSession(api.ClientCLI, chat.Local())
	for name, tc := range map[string]struct{ title, want string }{
		"long":       {strings.Repeat("a", chat.MaxTitle+1), "title too long"},
		"long zh":    {strings.Repeat("长", chat.MaxTitle+1), "标题太长"},
		"newline":    {"a\nb", "one line"},
		"control zh": {"标题\x1b[31m", "标题只能是一行"},
		"not utf8":   {"a\xffb", "one line"},
	} {
		_, err := se.Rename(tc.title)
		var ce *chat.Error
		if !errors.As(err, &ce) || ce.Code != api.CodeBadRequest || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if se.Saved() {
		t.Fatal("a refused title saved the conversation")
	}
}
