package pathtext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestFirst: the path a message names is cut where the path ends,
// not at its first non-ASCII character — CJK directories and file names
// are kept, Chinese prose glued after a name that ends in ASCII is not
// part of it, full-width punctuation and the end of the sentence end
// it, a quoted path is taken whole, ~ and relative paths are paths, and
// URLs, Windows drives and "内存/磁盘" are not.
func TestFirst(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		// ASCII paths, as before.
		{"cat /var/log/syslog", "/var/log/syslog"},
		{"看下 /var/log/nginx/error.log 最后100行", "/var/log/nginx/error.log"},
		{"what's in /tmp?", "/tmp"},
		{"ls /", "/"},
		{"tail of /var/log/syslog.", "/var/log/syslog"},
		{"open scripts/backup.sh", "scripts/backup.sh"},
		{"show me the files in workspace/", "workspace/"},
		{"ls /var/log/..", "/var/log/.."},
		{"grep 'ERROR' /var/log/app.log", "/var/log/app.log"},
		{"what's in /srv/x and what's in /srv/y", "/srv/x"},
		{"du -sh /var/lib/docker/*", "/var/lib/docker/*"},
		// CJK directories and file names.
		{"cat /srv/資料/記錄.log", "/srv/資料/記錄.log"},
		{"tail /var/log/網路.log", "/var/log/網路.log"},
		{"显示 /srv/应用/日志.txt 的最后 20 行", "/srv/应用/日志.txt"},
		{"du -sh /data/备份", "/data/备份"},
		{"/srv/app2日志.txt 的内容", "/srv/app2日志.txt"},
		{"cat /srv/v2版本/config.yaml", "/srv/v2版本/config.yaml"},
		{"cat /home/ops/我的文档/笔记.md", "/home/ops/我的文档/笔记.md"},
		{"ls /srv/データ/ログ", "/srv/データ/ログ"},
		// Chinese glued after the path.
		{"/var/log下的文件", "/var/log"},
		{"看下/etc/nginx/nginx.conf里的内容", "/etc/nginx/nginx.conf"},
		{"/data/备份 目录有多大", "/data/备份"},
		{"/srv/应用/日志.txt的最后20行", "/srv/应用/日志.txt"},
		{"/srv/资料/記錄.log最后20行", "/srv/资料/記錄.log"},
		{"/srv/app目录有多大", "/srv/app"},
		{"/etc/nginx里面有什么", "/etc/nginx"},
		{"/opt/app中的配置", "/opt/app"},
		{"看看/var/log", "/var/log"},
		{"/srv/app的文件", "/srv/app"},
		{"/srv/应用下的文件", "/srv/应用"},
		{"/srv/应用里的内容", "/srv/应用"},
		{"在/srv/应用 里找 ERROR", "/srv/应用"},
		// A file's name is not cut inside by a particle or phrase.
		{"download /srv/报告/年度的大小.xlsx", "/srv/报告/年度的大小.xlsx"},
		{"下载 /srv/报告/系统的前言.docx", "/srv/报告/系统的前言.docx"},
		{"cat /srv/资料/我的文件.txt", "/srv/资料/我的文件.txt"},
		{"tail /srv/日志/服务器里的错误.log", "/srv/日志/服务器里的错误.log"},
		{"tail /srv/app中文.log", "/srv/app中文.log"},
		{"tail /srv/app文件.log", "/srv/app文件.log"},
		{"tail /var/log/nginx/access.log和error.log", "/var/log/nginx/access.log"},
		{"看下 /var/log/syslog和/var/log/messages", "/var/log/syslog"},
		// A question or its tail glued to a Chinese name ends it.
		{"/srv/备份怎么这么大", "/srv/备份"},
		{"du -sh /srv/备份为什么这么大", "/srv/备份"},
		{"/srv/日志太多了吧", "/srv/日志"},
		{"/var/log/nginx/报错了", "/var/log/nginx/报错"},
		{"ls /srv/应用下", "/srv/应用"},
		{"/srv/应用目录有什么", "/srv/应用目录"},
		{"/srv/应用有哪些文件吗", "/srv/应用"},
		// Full-width punctuation ends a path.
		{"cat /srv/資料/記錄.log，然后告诉我", "/srv/資料/記錄.log"},
		{"路径是/srv/应用。", "/srv/应用"},
		{"看一下（/etc/hosts）", "/etc/hosts"},
		{"文件：/srv/资料/a.log；谢谢", "/srv/资料/a.log"},
		{"「/srv/应用/日志.txt」的内容", "/srv/应用/日志.txt"},
		{"/srv/应用、/srv/数据", "/srv/应用"},
		{"cat /srv/应用/日志.txt？", "/srv/应用/日志.txt"},
		{"看下 /srv/应用/日志.txt！", "/srv/应用/日志.txt"},
		// Normalised (NFKC) full-width punctuation is ASCII.
		{"路径:/srv/应用/a.log,谢谢", "/srv/应用/a.log"},
		// Quotes and backticks: taken whole.
		{`cat "/srv/my docs/报告 2026.txt"`, "/srv/my docs/报告 2026.txt"},
		{"看下 `/srv/应用 配置/app.yaml` 的内容", "/srv/应用 配置/app.yaml"},
		{"“/srv/应用/日志.txt”最后10行", "/srv/应用/日志.txt"},
		{"「/srv/应用 数据」下的文件", "/srv/应用 数据"},
		// ~ paths.
		{"show ~/.ssh/authorized_keys", "~/.ssh/authorized_keys"},
		{"看下~/应用/配置.yaml的内容", "~/应用/配置.yaml"},
		// Relative paths.
		{"cat workspace/应用.log", "workspace/应用.log"},
		{"看下workspace/app.log里的内容", "workspace/app.log"},
		{"显示 资料/记录.log 的最后 5 行", "资料/记录.log"},
		{"ls ./资料", "./资料"},
		{"ls ./资料/", "./资料/"},
		{"ls ../资料/日志", "../资料/日志"},
		{"ls 资料/", "资料/"},
		// Not paths.
		{"看看内存/磁盘用量", ""},
		{"CPU/内存使用率高吗", ""},
		{"读/写速度怎么样", ""},
		{"open https://example.com/a/b", ""},
		{"C:/Users/admin/报告.txt", ""},
		{"www.example.com/index.html 打不开", ""},
		{"a=/etc/passwd", ""},
		{"root@10.0.0.1:/etc/hosts 的内容", ""},
		{"scp user@host:/etc/passwd .", ""},
		{"show ${HOME}/.bashrc", ""},
		{"cat $HOME/.bashrc", ""},
		{"[::1]:/x", ""},
		{"内存怎么样", ""},
		{"", ""},
		// The end of the sentence.
		{"请显示 /srv/应用/日志.txt。", "/srv/应用/日志.txt"},
		{"read /var/log/app.log.", "/var/log/app.log"},
		{"请看 /srv/应用。谢谢", "/srv/应用"},
	} {
		got := ""
		if p, ok := First(tt.in, nil); ok {
			got = p.Text
			if tt.in[p.Start:p.End] != p.Text {
				t.Errorf("First(%q): %q at %d:%d", tt.in, p.Text, p.Start, p.End)
			}
		}
		if got != tt.want {
			t.Errorf("First(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestHasHanOutside: prose is Chinese when it has Chinese outside the
// paths, or when it has no letter at all and the paths are Chinese; an
// English sentence naming a Chinese path is not.
func TestHasHanOutside(t *testing.T) {
	for in, want := range map[string]bool{
		"/srv/应用目录有什么":         true,
		"/srv/备份怎么这么大":         true,
		"/srv/日志太多了吧":          true,
		"/var/log/nginx/报错了":   true,
		"ls /srv/应用下":          true,
		"「/srv/这个文件是干什么的」":     true,
		"/srv/資料/記錄.log":       true,
		"du -sh /srv/备份为什么这么大": true,
		"show /srv/資料/記錄.log":  false,
		"cat /srv/资料/我的文件.txt": false,
		"tail /srv/app中文.log":  false,
		"open /srv/app.log":    false,
		"":                     false,
		"/srv/a.log":           false,
	} {
		if got := HasHanOutside(in); got != want {
			t.Errorf("HasHanOutside(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestScanLinear: finding paths costs a bounded number of steps per
// byte of the message, however its slashes, CJK runs and unmatched
// quotes are arranged — measured by the scanner's own step count, not a
// clock.
func TestScanLinear(t *testing.T) {
	const size = 1 << 20
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	for name, text := range map[string]string{
		"cjk with slashes":  fill("资料/记录"),
		"glued particles":   fill("/var/log下的文件 "),
		"one long path":     "/" + fill("資料/"),
		"unmatched quotes":  fill("“/a 「/b `/c \"/d '/e "),
		"closed quotes":     fill("“资料/记录”"),
		"han then slash":    fill("看/"),
		"ascii then han":    fill("a资/"),
		"late slash":        "/" + fill("a资") + "/",
		"prose phrases":     "/srv/" + fill("应用下"),
		"slashes only":      fill("/"),
		"url-like":          fill("http://a/b "),
		"relative no ext":   fill("内存/磁盘 "),
		"dots and tildes":   fill("~/.."),
		"mixed punctuation": fill("/a，/b。/c、"),
		// Many quotes opened before one far-off closer: the text
		// between is searched once, not once per opener.
		"far closer":          fill("‘x") + "’",
		"far closer, cjk":     fill("「资") + "」",
		"far closer, ascii":   fill("\"x") + "\"",
		"far closer, paths":   fill("‘/x://") + "’",
		"far closer, newline": fill("“/x\n") + "”",
		"far closer, slashes": fill("‘a/") + "’",
		"far closer, spaces":  fill("‘a/b ") + "’",
	} {
		var s Scanner
		n := 0
		s.Scan(text, func(Path) bool { n++; return true })
		if limit := 16 * len(text); s.Steps > limit {
			t.Errorf("%s: %d steps for %d bytes (%d paths)", name, s.Steps, len(text), n)
		}
	}
}

// FuzzScan: whatever the message, a path found is a substring of
// it, valid UTF-8 where the message is, non-empty, and the scanner's
// work stays linear.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"cat /srv/資料/記錄.log", "看下/etc/nginx/nginx.conf里的内容", "“/a b/c”", "~/.ssh/x", "workspace/应用.log", "http://x/y", "C:/a", "/", "'", "a/b/",
		strings.Repeat("“", 40) + "”", strings.Repeat("‘x", 64) + "’", strings.Repeat("'/a://", 32) + "'", strings.Repeat("「a/", 40) + "」"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var s Scanner
		s.Scan(text, func(p Path) bool {
			if p.Text == "" || p.Start < 0 || p.End > len(text) || p.Start > p.End || text[p.Start:p.End] != p.Text {
				t.Fatalf("%q: path %q at %d:%d", text, p.Text, p.Start, p.End)
			}
			if utf8.ValidString(text) && !utf8.ValidString(p.Text) {
				t.Fatalf("%q: path %q is not UTF-8", text, p.Text)
			}
			return true
		})
		if s.Steps > 16*len(text)+16 {
			t.Fatalf("%q: %d steps", text, s.Steps)
		}
		// Blank and Mask keep the prose: Mask keeps every offset, and
		// what is outside the paths is the same in both.
		if m := Mask(text); len(m) != len(text) {
			t.Fatalf("%q: Mask changed the length", text)
		}
		if MapOutside(text, func(r rune) rune { return r }) != text && utf8.ValidString(text) {
			t.Fatalf("%q: MapOutside with the identity changed the text", text)
		}
	})
}
