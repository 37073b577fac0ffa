package cli

import (
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/rdt"
)

// TestAskOfferLine: one-shot ask shows the shell command that fetches an
// offer, in the CLI's language, naming --server and --rdt only when
// download would not find them by itself.
func TestAskOfferLine(t *testing.T) {
	o := api.Offer{Filename: "big file.bin", FileSize: 80 << 20, DownloadToken: "7d47", RDTAddr: "127.0.0.1:29998"}
	tests := []struct {
		name, lang, server, hello, want string
	}{
		{"defaults", "en_US.UTF-8", DefaultServer, "127.0.0.1:29998",
			"download offered: big file.bin (80.0 MiB) — opsassist download 7d47 -o 'big file.bin'"},
		{"zh", "zh_CN.UTF-8", DefaultServer, "127.0.0.1:29998",
			"可下载：big file.bin（80.0 MiB）— opsassist download 7d47 -o 'big file.bin'"},
		{"other server", "en_US.UTF-8", "127.0.0.1:19999", "127.0.0.1:29998",
			"download offered: big file.bin (80.0 MiB) — opsassist --server 127.0.0.1:19999 download 7d47 -o 'big file.bin'"},
		{"older server", "en_US.UTF-8", DefaultServer, "",
			"download offered: big file.bin (80.0 MiB) — opsassist download 7d47 -o 'big file.bin' --rdt 127.0.0.1:29998"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &CLI{Getenv: func(k string) string {
				if k == "LANG" {
					return tt.lang
				}
				return ""
			}}
			if got := c.askOfferLine(o, tt.server, tt.hello); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestModelHint: the server's client-neutral hint for an unreachable
// model gets the REPL's or ask's way to switch, in its language.
func TestModelHint(t *testing.T) {
	zh := "模型 ollama 当前不可达（connection refused）。请换一个模型，例如 builtin。"
	en := "model ollama is unreachable (connection refused). Choose another model, e.g. builtin."
	for _, tc := range []struct {
		text string
		repl bool
		want string
	}{
		{zh, true, zh + "输入 /model builtin 即可切换。"},
		{zh, false, zh + "加上 --model builtin 再问一次即可。"},
		{en, true, en + " Type /model builtin to switch."},
		{en, false, en + " Ask again with --model builtin."},
		{"backend failed", true, "backend failed"},
	} {
		if got := modelHint(tc.text, tc.repl); got != tc.want {
			t.Errorf("modelHint(%q, %v) = %q, want %q", tc.text, tc.repl, got, tc.want)
		}
	}
}

// TestDownloadPrinterWaitsForTheServer: no progress line is drawn before
// the server has told the size or sent a byte.
func TestDownloadPrinterWaitsForTheServer(t *testing.T) {
	var b strings.Builder
	d := &downloadPrinter{out: &b, tty: true}
	d.update(rdt.Progress{Size: -1})
	d.finish()
	if b.Len() != 0 {
		t.Fatalf("drew %q before the server answered", b.String())
	}
	d.update(rdt.Progress{Size: -1, Received: 10})
	if !strings.Contains(b.String(), "10 B received") {
		t.Errorf("after a byte: %q", b.String())
	}
}
