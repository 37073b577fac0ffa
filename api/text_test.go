package api

import "testing"

func TestText(t *testing.T) {
	q := Text{Zh: "是否仍要执行？", En: "Run it anyway?"}
	r := Text{Zh: "需要确认。", En: "It needs your confirmation."}
	for _, tc := range []struct{ got, want string }{
		{q.Both(), "是否仍要执行？Run it anyway?"},
		{Text{Zh: "中文", En: "English."}.Both(), "中文 English."},
		{Text{En: "English."}.Both(), "English."},
		{Text{Zh: "中文。"}.Both(), "中文。"},
		{q.In(true), "是否仍要执行？"},
		{q.In(false), "Run it anyway?"},
		{Text{En: "only"}.In(true), "only"},
		{Text{Zh: "只有"}.In(false), "只有"},
		{q.Then(r).Zh, "是否仍要执行？需要确认。"},
		{q.Then(r).En, "Run it anyway? It needs your confirmation."},
		{q.Then(Text{}).En, "Run it anyway?"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if !(Text{}).IsZero() || q.IsZero() {
		t.Error("IsZero")
	}
}
