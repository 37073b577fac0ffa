package tools

import "testing"

func TestOneLanguage(t *testing.T) {
	for _, tc := range []struct{ in, zh, en string }{
		{"文件太大：150 MiB。 File too large: 150 MiB.", "文件太大：150 MiB。", "File too large: 150 MiB."},
		{"超出配额。The quota is used up.", "超出配额。", "The quota is used up."},
		{"只有中文。", "只有中文。", "只有中文。"},
		{"English only.", "English only.", "English only."},
	} {
		if got := OneLanguage(true, tc.in); got != tc.zh {
			t.Errorf("zh %q = %q, want %q", tc.in, got, tc.zh)
		}
		if got := OneLanguage(false, tc.in); got != tc.en {
			t.Errorf("en %q = %q, want %q", tc.in, got, tc.en)
		}
	}
}

// TestFailureTextNamesTheFile: a refusal about a file is said from its
// code, naming the file, without the registry's wording.
func TestFailureTextNamesTheFile(t *testing.T) {
	err := `call to file_reader denied by policy: pathguard: "/etc/shadow" 可能含有密钥。"/etc/shadow" may hold secrets.`
	if got, want := FailureText(false, CodeSecretFile, "file_reader", err, nil), `"/etc/shadow" may hold secrets, so file_reader never reads it.`; got != want {
		t.Errorf("en: %q, want %q", got, want)
	}
	if got := FailureText(true, "", "x", "", nil); got != "工具 x 执行失败。" {
		t.Errorf("no code, no error: %q", got)
	}
}
