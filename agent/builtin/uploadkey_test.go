package builtin

import (
	"reflect"
	"testing"
)

// TestUploadKey: a setting asked of an upload, in any format, and the
// last lines of an uploaded log read that upload (review finding 9); a
// file named with a directory, a comparison, an error question and a
// conversation without uploads are not this rule's.
func TestUploadKey(t *testing.T) {
	for _, tc := range []struct {
		input string
		want  map[string]any // nil: the rule does not fire
	}{
		{"这个 .env 文件里 DATABASE_PORT 是多少？", map[string]any{"action": "read", "reference": "this", "file_type": "env"}},
		{"what is DATABASE_PORT in the env file I uploaded?", map[string]any{"action": "read", "reference": "this", "file_type": "env"}},
		{"application.properties 里 server.port 配的是多少？", map[string]any{"action": "read", "reference": "this", "file_type": "application.properties"}},
		{"这个 TOML 配置里数据库端口是多少？", map[string]any{"action": "read", "reference": "this", "file_type": "toml"}},
		{"what port is mysql on in my.ini?", map[string]any{"action": "read", "reference": "this", "file_type": "my.ini"}},
		{"services.json 里 db 服务的端口是多少？", map[string]any{"action": "read", "reference": "this", "file_type": "services.json"}},
		{"这个文件里日志级别是什么？", map[string]any{"action": "read", "reference": "this"}},
		{"what log level does this file set?", map[string]any{"action": "read", "reference": "this"}},
		{"之前上传的那个 json 文件里 version 是多少", map[string]any{"action": "read", "reference": "previous", "file_type": "json"}},
		{"显示我上传的日志的最后 3 行", map[string]any{"action": "read", "reference": "this", "file_type": "log"}},
		{"tail the log I uploaded, last 3 lines", map[string]any{"action": "read", "reference": "this", "file_type": "log"}},
		{"/etc/app/app.toml 里端口是多少", nil},
		{"conf/app.ini 的端口是多少", nil},
		{"对比这两个配置文件的端口", nil},
		{"这个日志里有多少错误", nil},
		{"what's the upload size limit?", nil},
		{"哪个文件里配置了redis的地址？", nil},
	} {
		in, ok := uploadKeyIntent(tc.input, true)
		if tc.want == nil {
			if ok {
				t.Errorf("%q: fired %v, want not", tc.input, in.Args)
			}
			continue
		}
		if !ok || in.Tool != "file_upload" || !reflect.DeepEqual(in.Args, tc.want) {
			t.Errorf("%q: %v %s %v, want file_upload %v", tc.input, ok, in.Tool, in.Args, tc.want)
		}
		if _, ok := uploadKeyIntent(tc.input, false); ok {
			t.Errorf("%q: fired without uploads", tc.input)
		}
		// The whole planner agrees.
		got := Planner{}.Classify(tc.input, true)
		if got.Tool != "file_upload" || got.Args["action"] != "read" {
			t.Errorf("Classify %q = %s %v, want a file_upload read", tc.input, got.Tool, got.Args)
		}
	}
}

// TestRefusesPasswordsDisablingAndScripts: changing a password, disabling
// a service and running a local script are refused — not left as "not
// understood" (they were counted as refusals only because no tool ran).
func TestRefusesPasswordsDisablingAndScripts(t *testing.T) {
	for _, s := range []string{"change root's password", "修改 root 密码", "禁用 sshd 服务的开机自启", "run ./deploy.sh", "执行一下 ./cleanup.sh", "给这个目录 777 权限", "降级一下 openssl", "帮我开一下防火墙的80端口"} {
		if in := (Planner{}).Classify(s, true); in.Kind != "refuse" {
			t.Errorf("%q: %s %s %v, want a refusal", s, in.Kind, in.Tool, in.Args)
		}
	}
	for _, s := range []string{"密码策略的文档在哪", "how do I reset my password?", "deploy.sh 里写了什么", "找一下 deploy.sh", "8080 端口有没有在监听"} {
		if in := (Planner{}).Classify(s, true); in.Kind == "refuse" {
			t.Errorf("%q: refused (%s)", s, in.Reason)
		}
	}
}

// TestUploadReferenceWords: earlier uploads named by a time ago, by
// "前面那个", by "the log I gave you earlier", and reads of every upload
// ("summarize everything I uploaded") keep their reference.
func TestUploadReferenceWords(t *testing.T) {
	for _, tc := range []struct{ input, ref string }{
		{"前面那个日志帮我分析下异常", "previous"},
		{"两小时前传的日志里有什么问题", "previous"},
		{"the log I gave you earlier: when did the first error occur?", "previous"},
		{"summarize all my uploaded files", "all"},
		{"give me an overview of everything I uploaded", "all"},
		{"刚上传的文件讲了什么", "this"},
	} {
		in := Planner{}.Classify(tc.input, true)
		if in.Tool != "file_upload" || in.Args["action"] != "read" || in.Args["reference"] != tc.ref {
			t.Errorf("%q: %s %v, want a read of %s", tc.input, in.Tool, in.Args, tc.ref)
		}
	}
}
