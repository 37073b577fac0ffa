package builtin

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// longQuestion is a pasted 64 KiB question of distinct words, and a
// Chinese one of glossary words.
func longQuestion(zh bool) string {
	var q strings.Builder
	for i := 0; q.Len() < 64<<10-20; i++ {
		if zh {
			q.WriteString("密码超时")
			continue
		}
		fmt.Fprintf(&q, "k%05d ", i)
	}
	return q.String()
}

// TestLongQuestionIsBounded: however long the question, it is read for
// at most maxQuestionGroups things (the last ones, so what is asked is
// kept), and the label an answer repeats is at most maxLabelBytes and
// valid UTF-8. That bound is what keeps describeRead's line matching
// linear in the file: lines × maxQuestionGroups word checks.
func TestLongQuestionIsBounded(t *testing.T) {
	for _, zh := range []bool{false, true} {
		q := longQuestion(zh)
		groups, label := questionGroups(q, zh)
		if len(groups) > maxQuestionGroups {
			t.Errorf("zh=%v: %d groups, want at most %d", zh, len(groups), maxQuestionGroups)
		}
		if len(label) > maxLabelBytes+len("…") || !utf8.ValidString(label) {
			t.Errorf("zh=%v: label %d bytes %q", zh, len(label), label)
		}
		if !zh && groups[len(groups)-1][0] != strings.Fields(q)[len(strings.Fields(q))-1] {
			t.Errorf("the last word asked was dropped: %v", groups)
		}
	}
	// An ordinary question is read whole.
	if g, label := questionGroups("数据库端口是多少", true); len(g) != 2 || label != "数据库端口" {
		t.Errorf("groups %v label %q", g, label)
	}
}

// TestNoSuchKeyAnswerIsBounded: the "no such key" answer to a 64 KiB
// question names a short label, not the question.
func TestNoSuchKeyAnswerIsBounded(t *testing.T) {
	content := "database:\n  host: db1\n  port: 5432\nserver:\n  port: 80\n"
	for _, zh := range []bool{false, true} {
		q := longQuestion(zh) + " cache port"
		if zh {
			q = longQuestion(zh) + "缓存端口"
		}
		out := describeRead(zh, Intent{input: q}, "config.yaml", content, false)
		if len(out) > 400 {
			t.Errorf("zh=%v: %d-byte answer: %.300q", zh, len(out), out)
		}
		if !strings.Contains(out, "No ") && !strings.Contains(out, "没有找到") {
			t.Errorf("zh=%v: not the no-such-key answer: %.300q", zh, out)
		}
		if !utf8.ValidString(out) {
			t.Errorf("zh=%v: invalid UTF-8", zh)
		}
	}
}

// BenchmarkDescribeReadLongQuestion: a 64 KiB question against a 32 KiB
// file of 6,000 lines (the review's repro took 1.4 s of CPU).
func BenchmarkDescribeReadLongQuestion(b *testing.B) {
	var c strings.Builder
	for i := 0; c.Len() < 32<<10-20; i++ {
		fmt.Fprintf(&c, "a: %d\n", i)
	}
	in := Intent{input: longQuestion(false)}
	for i := 0; i < b.N; i++ {
		describeRead(false, in, "x.yaml", c.String(), false)
	}
}
