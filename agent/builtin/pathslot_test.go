package builtin

import (
	"encoding/json"
	"strings"
	"testing"

	"opsassist/internal/pathtext"
	"opsassist/tools/command"
)

// TestPathKinds: absPath takes the first absolute (or ~) path,
// relPath the first relative one with a file after its directory.
func TestPathKinds(t *testing.T) {
	for _, tt := range []struct{ in, abs, rel string }{
		{"cat workspace/应用.log and /srv/資料/a.log", "/srv/資料/a.log", "workspace/应用.log"},
		{"show ~/.ssh/authorized_keys", "~/.ssh/authorized_keys", ""},
		{"show me the files in workspace/", "", ""},
		{"ls / and /var", "/", ""},
	} {
		if got := absPath(tt.in); got != tt.abs {
			t.Errorf("absPath(%q) = %q, want %q", tt.in, got, tt.abs)
		}
		if got := relPath(tt.in); got != tt.rel {
			t.Errorf("relPath(%q) = %q, want %q", tt.in, got, tt.rel)
		}
	}
}

// TestRestoreByPosition: an argument is given back as written at the
// place the planner read it, never as another word that reads the same
// — the path or pattern the user excluded, or a second copy of one.
func TestRestoreByPosition(t *testing.T) {
	for in, want := range map[string][]string{
		"cat /srv/资料/app.log (not /srv/資料/app.log)":  {"/srv/资料/app.log"},
		"grep ERROR /srv/资料/app.log /srv/資料/app.log": {"ERROR", "/srv/资料/app.log", "/srv/資料/app.log"},
		"grep ERROR /srv/資料/app.log /srv/资料/app.log": {"ERROR", "/srv/資料/app.log", "/srv/资料/app.log"},
		"grep 错误 /srv/資料/記錄.log，别搜 錯誤":               {"错误", "/srv/資料/記錄.log"},
		"grep 錯誤 /srv/應用/a.log":                      {"錯誤", "/srv/應用/a.log"},
	} {
		got := argStrings(Planner{}.Classify(in, false).Args["args"])
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%q: args %q, want %q", in, got, want)
		}
	}
}

// TestPathsAsWritten: a path reaches the command or the download as
// the message wrote it — traditional characters are not read as
// simplified in it, nor in a grep pattern, a name with a space before its extension is kept,
// a command line's path is not cut at its first CJK character, and
// the words of a path are not prose ("run cat /srv/x/a.log" is not cut
// at "a").
func TestPathsAsWritten(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"cat /srv/資料/記錄.log", `{"args":["/srv/資料/記錄.log"],"command":"cat"}`},
		{"tail /var/log/網路.log", `{"args":["/var/log/網路.log"],"command":"tail"}`},
		{"执行 tail -n 5 /srv/應用/日誌.txt", `{"args":["-n","5","/srv/應用/日誌.txt"],"command":"tail"}`},
		{"tail -n 20 /srv/应用/日志.txt", `{"args":["-n","20","/srv/应用/日志.txt"],"command":"tail"}`},
		{"du -sh /data/备份", `{"args":["-sh","/data/备份"],"command":"du"}`},
		{"run cat /srv/資料/a.log", `{"args":["/srv/資料/a.log"],"command":"cat"}`},
		{"显示 /srv/应用/日志.txt 的最后 20 行", `{"args":["-n","20","/srv/应用/日志.txt"],"command":"tail"}`},
		{"看下/etc/nginx/nginx.conf里的内容", `{"args":["/etc/nginx/nginx.conf"],"command":"cat"}`},
		{"/data/备份 目录有多大", `{"args":["-sh","/data/备份"],"command":"du"}`},
		{"/var/log下的文件", `{"args":["-la","/var/log"],"command":"ls"}`},
		{"cat workspace/應用.log", `{"args":["workspace/應用.log"],"command":"cat"}`},
		{"显示 /home/deploy/部署 说明.txt 的全部内容", `{"args":["/home/deploy/部署 说明.txt"],"command":"cat"}`},
		{"下载 /srv/資料/報表.xlsx", `{"file_path":"/srv/資料/報表.xlsx"}`},
		{"grep 錯誤 /srv/應用/a.log", `{"args":["錯誤","/srv/應用/a.log"],"command":"grep"}`},
		{"search /srv/應用/a.log for '連線逾時'", `{"args":["連線逾時","/srv/應用/a.log"],"command":"grep"}`},
		{"把 /srv/資料/報表 2026.xlsx 下载给我", `{"file_path":"/srv/資料/報表 2026.xlsx"}`},
	} {
		in := Planner{}.Classify(tt.in, false)
		if b, _ := json.Marshal(in.Args); string(b) != tt.want {
			t.Errorf("%q: %s %s %s, want %s", tt.in, in.Kind, in.Tool, b, tt.want)
		}
	}
}

// TestFileViewingSlots: the files of a path with no extension are a
// listing, a file (an extension, a well-known file, its content asked)
// is read; a ~ path is kept whole; a setting named with a file, by its
// path or a well-known configuration's name, is a grep for it — when
// the tiers run grep.
func TestFileViewingSlots(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"显示 /srv/app 的文件", `{"args":["-la","/srv/app"],"command":"ls"}`},
		{"显示 /srv/app 下的所有文件", `{"args":["-la","/srv/app"],"command":"ls"}`},
		{"show the files in /srv/app", `{"args":["-la","/srv/app"],"command":"ls"}`},
		{"显示 /srv/app.log 的文件", `{"args":["/srv/app.log"],"command":"cat"}`},
		{"显示 /etc/hosts 的文件", `{"args":["/etc/hosts"],"command":"cat"}`},
		{"看一下 /etc/ssh/sshd_config 的文件内容", `{"args":["/etc/ssh/sshd_config"],"command":"cat"}`},
		{"show ~/.ssh/authorized_keys", `{"args":["~/.ssh/authorized_keys"],"command":"cat"}`},
		{"is PermitRootLogin enabled in /etc/ssh/sshd_config", `{"args":["PermitRootLogin","/etc/ssh/sshd_config"],"command":"grep"}`},
		{"sshd_config 里 PermitRootLogin 开了没", `{"args":["PermitRootLogin","/etc/ssh/sshd_config"],"command":"grep"}`},
		{"/etc/ssh/sshd_config 里 PermitRootLogin 那行是啥", `{"args":["PermitRootLogin","/etc/ssh/sshd_config"],"command":"grep"}`},
		{"/etc/nginx/nginx.conf 里 worker_processes 设置的是多少", `{"args":["worker_processes","/etc/nginx/nginx.conf"],"command":"grep"}`},
		{"/etc/ssh/sshd_config 的内容", `{"args":["/etc/ssh/sshd_config"],"command":"cat"}`},
	} {
		in := Planner{}.Classify(tt.in, false)
		if b, _ := json.Marshal(in.Args); string(b) != tt.want {
			t.Errorf("%q: %s %s %s, want %s", tt.in, in.Kind, in.Tool, b, tt.want)
		}
	}
	// A setting named without one, or without a file, is no grep.
	for _, in := range []string{"sshd_config 是干什么用的", "PermitRootLogin 是什么意思"} {
		if argv, ok := defaultCommands.settingGrep(normalize(in), ""); ok {
			t.Errorf("%q: %q", in, argv)
		}
	}
	// Tiers without grep: no grep is proposed.
	cmds, err := command.NewTiers([]string{"ls", "cat"})
	if err != nil {
		t.Fatal(err)
	}
	c := newCommands(cmds)
	if argv, ok := c.settingGrep("is PermitRootLogin enabled in /etc/ssh/sshd_config", "/etc/ssh/sshd_config"); ok {
		t.Errorf("tiers without grep: %q", argv)
	}
}

// FuzzPathSlots: whatever the message, planning it does not panic, and
// every path the planner hands the command tool or the download is one
// the message wrote (after normalize, a command line's quotes aside),
// or a well-known configuration's place: no path is rewritten on its
// way to the tool.
func FuzzPathSlots(f *testing.F) {
	for _, s := range []string{"cat /srv/資料/記錄.log", "看下/etc/nginx/nginx.conf里的内容", "显示 /srv/应用/日志.txt 的最后 20 行",
		"把 /srv/資料/報表 2026.xlsx 下载给我", "sshd_config 里 PermitRootLogin 开了没", "执行 tail -n 5 /srv/應用/日誌.txt", "run cat /srv/x/a.log",
		"show ~/.ssh/authorized_keys", "/data/备份 目录有多大", "看看/網路/記憶體.log",
		"cat /srv/资料/app.log (not /srv/資料/app.log)", "grep ERROR /srv/资料/app.log /srv/資料/app.log", "grep 错误 /srv/資料/記錄.log，别搜 錯誤"} {
		f.Add(s)
	}
	known := map[string]bool{}
	for _, p := range wellKnownConfigs {
		known[p] = true
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		in := Planner{}.Classify(s, false)
		// A command line's quotes are not part of its words.
		unquote := strings.NewReplacer(`"`, "", "'", "", "`", "").Replace
		text := unquote(normalize(s))
		var paths []string
		if in.Tool == "command_executor" {
			paths = argStrings(in.Args["args"])
		}
		if p, ok := in.Args["file_path"].(string); ok {
			paths = append(paths, p)
		}
		for _, p := range paths {
			if (strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~/")) && !known[p] && !strings.Contains(text, unquote(p)) {
				t.Fatalf("%q: path %q is not in the message (%v)", s, p, in.Args)
			}
		}
		// An argument given back as written is the word at the place it
		// was read: on a command line, the word at its position; else
		// the one thing written that reads so.
		c := Planner{}.commands()
		norm := normalize(s)
		read := c.classify(norm, false)
		if read.Tool != "command_executor" || in.Tool != "command_executor" {
			return
		}
		readArgs, gotArgs := argStrings(read.Args["args"]), argStrings(in.Args["args"])
		list := make([]any, len(readArgs))
		for i, a := range readArgs {
			list[i] = a
		}
		words, aligned := c.lineWords(norm, read.Args["command"], list)
		forms := map[string]map[string]bool{}
		addForm := func(w string) {
			r := c.fixTypos(w)
			if forms[r] == nil {
				forms[r] = map[string]bool{}
			}
			forms[r][w] = true
		}
		pathtext.All(norm, func(p pathtext.Path) bool { addForm(p.Text); addForm(spacedFile(norm, p)); return true })
		for _, w := range strings.Fields(norm) {
			addForm(w)
		}
		for _, m := range reQuoted.FindAllStringSubmatch(norm, -1) {
			addForm(m[1])
		}
		for i, g := range gotArgs {
			if i >= len(readArgs) || g == readArgs[i] {
				continue
			}
			if aligned && g != words[i] || !aligned && len(forms[readArgs[i]]) > 1 {
				t.Fatalf("%q: argument %d given back as %q, read as %q (aligned %v, written %v)", s, i, g, readArgs[i], aligned, forms[readArgs[i]])
			}
		}
	})
}

// TestGluedRequestRefused: a destructive request glued into a path's
// last component is refused as if written apart; a directory whose
// name holds such a word is still listed.
func TestGluedRequestRefused(t *testing.T) {
	for _, in := range []string{"ls /srv/日志全部删掉", "cat /srv/日志删除", "du -sh /srv/日志全部删掉"} {
		if got := (Planner{}).Classify(in, false); got.Kind != "refuse" {
			t.Errorf("%q: %s %v, want a refusal", in, got.Tool, got.Args)
		}
	}
	for _, in := range []string{"ls /srv/应用", "du -sh /data/备份", "cat /srv/資料/記錄.log"} {
		if got := (Planner{}).Classify(in, false); got.Tool != "command_executor" {
			t.Errorf("%q: %q %v, want a command", in, got.Kind, got.Args)
		}
	}
}

// TestSpacedFileTwoFiles: a space joins a file name only after a name
// that is not all ASCII or before one that starts with a digit; an
// ASCII path then a file name are two files.
func TestSpacedFileTwoFiles(t *testing.T) {
	for in, want := range map[string]string{
		"显示 /var/log/messages app.log 的最后 10 行": "/var/log/messages",
		"download /var/log/syslog app.log":      "/var/log/syslog",
		"下载 /home/deploy/报表 2026.xlsx":          "/home/deploy/报表 2026.xlsx",
		"download /srv/report 2026.xlsx":        "/srv/report 2026.xlsx",
	} {
		p, _ := absRef(normalize(in))
		if got := spacedFile(normalize(in), p); got != want {
			t.Errorf("spacedFile(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRelativeCJKDirCommand: a command line on a relative directory
// written in Chinese runs when it starts with ./ or ends in a slash.
func TestRelativeCJKDirCommand(t *testing.T) {
	for in, want := range map[string]string{"ls ./资料": "./资料", "ls ./资料/": "./资料/"} {
		got := Planner{}.Classify(in, false)
		if args := argStrings(got.Args["args"]); got.Tool != "command_executor" || len(args) == 0 || args[len(args)-1] != want {
			t.Errorf("%q: %s %v, want ls %s", in, got.Tool, got.Args, want)
		}
	}
}
