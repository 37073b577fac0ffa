package builtin

import (
	"testing"

	"opsassist/storage/history"
)

// TestFollowUp: an elliptical question about another setting reads the
// upload the previous question read; without such a previous question,
// or without uploads, it is no follow-up.
func TestFollowUp(t *testing.T) {
	msgs := func(prev, cur string) []history.Message {
		return []history.Message{{Role: "user", Content: prev}, {Role: "assistant", Content: "5432"}, {Role: "user", Content: cur}}
	}
	for _, tc := range []struct {
		prev, cur string
		want      bool
	}{
		{"这个配置文件里数据库端口是多少？", "那 redis 的端口呢？", true},
		{"What is the database port in this config file?", "and the redis port?", true},
		{"what about the cache host?", "and the redis port?", false}, // the previous read nothing
		{"CPU 使用率多少", "那内存呢？", false},
		{"这个配置文件里数据库端口是多少？", "谢谢", false},
	} {
		_, ok := Planner{}.followUp(tc.cur, msgs(tc.prev, tc.cur), true)
		if ok != tc.want {
			t.Errorf("%q after %q: follow-up %v, want %v", tc.cur, tc.prev, ok, tc.want)
		}
	}
	if _, ok := (Planner{}).followUp("那 redis 的端口呢？", msgs("这个配置文件里数据库端口是多少？", "那 redis 的端口呢？"), false); ok {
		t.Error("a follow-up without uploads")
	}
}
