package builtin

import (
	"encoding/json"
	"testing"
)

// TestSlots: slot extraction, on its own, fills each class's arguments
// from the message — the command and its arguments, line counts,
// patterns, file names and paths, the metric, the scope, the upload
// reference and action, the download — whatever class the scores chose.
func TestSlots(t *testing.T) {
	c := defaultCommands
	for _, tt := range []struct {
		class, in, want string
		ok              bool
	}{
		{"command", "显示 workspace/app.log 的最后20行", `{"args":["-n","20","workspace/app.log"],"command":"tail"}`, true},
		{"command", "请给我看 README.md 的前 10 行", `{"args":["-n","10","README.md"],"command":"head"}`, true},
		{"command", "search /var/log/app.log for 'OutOfMemoryError'", `{"args":["OutOfMemoryError","/var/log/app.log"],"command":"grep"}`, true},
		{"command", "在 app.log 里 grep 一下 ERROR", `{"args":["ERROR","app.log"],"command":"grep"}`, true},
		{"command", "look for \"Connection refused\" in /var/log/nginx/error.log", `{"args":["Connection refused","/var/log/nginx/error.log"],"command":"grep"}`, true},
		{"command", "open scripts/backup.sh", `{"args":["scripts/backup.sh"],"command":"cat"}`, true},
		{"command", "tail of /var/log/syslog", `{"args":["/var/log/syslog"],"command":"tail"}`, true},
		{"command", "redis 跑着吗", `{"args":["-eo","pid,user,%cpu,%mem,comm","--sort=-%cpu"],"command":"ps"}`, true},
		{"command", "现在都有哪些 python 进程在跑", `{"args":["-eo","pid,user,%cpu,%mem,comm","--sort=-%cpu"],"command":"ps"}`, true},
		{"command", "show me the files in workspace/", `{"args":["-la","workspace/"],"command":"ls"}`, true},
		{"command", "给我看 /var/log/nginx/error.log 的前二十行", `{"args":["-n","20","/var/log/nginx/error.log"],"command":"head"}`, true},
		{"command", "which dirs under /var are taking the most space", `{"args":["-sh","/var"],"command":"du"}`, true},
		{"command", "看一下当前监听的 socket", `{"args":["-tlnp"],"command":"ss"}`, true},
		{"command", "can u pull the journal for the postgresql unit", `{"args":["-u","postgresql","-n","50"],"command":"journalctl"}`, true},
		{"command", "显示 /srv/应用/日志.txt 的最后 20 行", `{"args":["-n","20","/srv/应用/日志.txt"],"command":"tail"}`, true},
		{"command", "cat /srv/資料/記錄.log", `{"args":["/srv/資料/記錄.log"],"command":"cat"}`, true},
		{"command", "看下/etc/nginx/nginx.conf里的内容", `{"args":["/etc/nginx/nginx.conf"],"command":"cat"}`, true},
		{"command", "/data/备份 目录有多大", `{"args":["-sh","/data/备份"],"command":"du"}`, true},
		{"command", "cat workspace/应用.log", `{"args":["workspace/应用.log"],"command":"cat"}`, true},
		{"command", "how's the weather", ``, false}, // nothing to run
		{"monitor/disk", "how much disk space do we have left?", `{"metric":"disk"}`, true},
		{"monitor/memory", "内存和磁盘分别用了多少", `{"metric":"all"}`, true},
		{"monitor/cpu", "/proc/meminfo 和 cpu", `{"metric":"cpu"}`, true}, // a path names no resource
		{"search/uploads", "search my uploaded files for 'db_password'", `{"query":"db_password","scope":"uploads","top_k":3}`, true},
		{"search/system", "Is there a runbook for handling a full-disk alert?", `{"query":"Is there a runbook for handling a full-disk alert","scope":"system","top_k":3}`, true},
		{"upload/list", "今天上传了哪些文件", `{"action":"list","reference":"all"}`, true},
		{"upload/list", "我上传过哪些日志", `{"action":"list","file_type":"log","reference":"all"}`, true},
		{"upload/read", "summarize the file I just uploaded", `{"action":"read","reference":"this"}`, true},
		{"upload/list", "对比一下这两个配置", `{"action":"list","count":2,"reference":"these"}`, true},
		{"upload/list", "你这边收到了我哪些文件", `{"action":"list","reference":"all"}`, true},
		{"upload/list", "所有我上传过的文件，每个说说是干嘛的", `{"action":"read","reference":"all"}`, true},
		{"download", "下载 /var/log/app/app.log", `{"file_path":"/var/log/app/app.log"}`, true},
		{"download", "下载 /srv/资料/报表.xlsx", `{"file_path":"/srv/资料/报表.xlsx"}`, true},
		{"download", "download config.yaml", `{"query":"config.yaml","scope":"all","top_k":1}`, true},
		{"download", "what's the weather", ``, false}, // nothing to download
	} {
		hits := c.rules(tt.in, true)
		in, ok := c.slots(tt.class, tt.in, true, &hits)
		if ok != tt.ok {
			t.Errorf("%s %q: ok %v, want %v", tt.class, tt.in, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if b, _ := json.Marshal(in.Args); string(b) != tt.want {
			t.Errorf("%s %q: %s, want %s", tt.class, tt.in, b, tt.want)
		}
	}
}

// TestSlotsNone: the no-tool class is no tool, or "nothing uploaded" for
// an errors question without uploads.
func TestSlotsNone(t *testing.T) {
	c := defaultCommands
	for in, want := range map[string]string{"讲个笑话": "unknown", "有什么错误？": "no_upload"} {
		hits := c.rules(in, false)
		if got, ok := c.slots("none", in, false, &hits); !ok || got.Kind != want || got.Tool != "" {
			t.Errorf("%q: %+v %v, want %s", in, got, ok, want)
		}
	}
}

// TestUploadSearchQuery: a search of the uploads looks for what the
// message asks about, not for the words naming the uploads.
func TestUploadSearchQuery(t *testing.T) {
	c := defaultCommands
	for in, want := range map[string]string{
		"search my uploaded files for the database password": "the database password",
		"look through my uploads for anything about TLS":     "anything about TLS",
		"在我传的文件里搜一下 redis":                                   "redis",
	} {
		hits := c.rules(in, true)
		got, _ := c.slots("search/uploads", in, true, &hits)
		if got.Args["query"] != want || got.Args["scope"] != "uploads" {
			t.Errorf("%q: %v, want query %q", in, got.Args, want)
		}
	}
}

// TestUploadAction: of every upload, what they say is a read and what
// they are a list, whichever class the model chose; other references
// keep the class's action.
func TestUploadAction(t *testing.T) {
	for _, tt := range []struct{ class, in, want string }{
		{"list", "所有我上传过的文件，每个说说是干嘛的", "read"},
		{"list", "give me a summary of each file I uploaded", "read"},
		{"read", "how big are all the files I uploaded", "list"},
		{"read", "所有上传的文件都叫什么文件名", "list"},
		{"list", "查看我上传的所有文件", "list"},
		{"list", "总结一下这个文件", "list"},
		{"read", "对比这两个文件的内容", "read"},
	} {
		if got := uploadAction(tt.class, tt.in); got != tt.want {
			t.Errorf("uploadAction(%s, %q) = %s, want %s", tt.class, tt.in, got, tt.want)
		}
	}
}
