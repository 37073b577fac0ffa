package tools

import "testing"

// TestSchemaFailureText: arguments a tool's schema refused are named in
// the user's language, without the validator's English (walk-through:
// "详情：invalid arguments for file_download: /: missing property
// 'file_path'"); FailureDetail then adds nothing.
func TestSchemaFailureText(t *testing.T) {
	for _, tc := range []struct{ err, zh, en string }{
		{"invalid arguments for file_download: /: missing property 'file_path'",
			"file_download 的参数有误：缺少参数 file_path，所以没有执行。",
			"file_download was called with wrong arguments: the argument file_path is missing, so it did not run."},
		{"invalid arguments for command_executor: /: missing properties 'command', 'args'; /: additional properties 'cmd' not allowed",
			"command_executor 的参数有误：缺少参数 command、args；不认识参数 cmd，所以没有执行。",
			"command_executor was called with wrong arguments: the arguments command, args are missing; cmd is not an argument it takes, so it did not run."},
		{"invalid arguments for file_download: /file_path: got number, want string",
			"file_download 的参数有误：参数 file_path 应为 string，而不是 number，所以没有执行。",
			"file_download was called with wrong arguments: the argument file_path must be a string, not a number, so it did not run."},
		{"invalid arguments for search: /mode: value must be one of 'a', 'b'",
			"search 的参数有误：参数 mode 的值不符合要求，所以没有执行。",
			"search was called with wrong arguments: the argument mode has a value it does not take, so it did not run."},
	} {
		tool := reSchemaFailure.FindStringSubmatch(tc.err)[1]
		if got := FailureText(true, string(ClassParameter), tool, tc.err, nil); got != tc.zh {
			t.Errorf("zh %q:\n got %q\nwant %q", tc.err, got, tc.zh)
		}
		if got := FailureText(false, string(ClassParameter), tool, tc.err, nil); got != tc.en {
			t.Errorf("en %q:\n got %q\nwant %q", tc.err, got, tc.en)
		}
		if d := FailureDetail(true, string(ClassParameter), tc.err); d != "" {
			t.Errorf("detail %q", d)
		}
	}
}
