package builtin

import (
	"encoding/json"
	"strings"
	"testing"

	"opsassist/tools/command"
)

// TestAskTierPlans: requests for ask-tier commands plan the command (the
// policy then asks the user) instead of refusing; reads outside the
// roots plan the command too; deny-list commands and requests about the
// whole machine are still refused with the same texts.
func TestAskTierPlans(t *testing.T) {
	p := New(Config{})
	for _, tt := range []struct{ in, args string }{
		{"重启 nginx", `{"args":["restart","nginx"],"command":"systemctl"}`},
		{"帮我重启一下nginx服务", `{"args":["restart","nginx"],"command":"systemctl"}`},
		{"restart nginx", `{"args":["restart","nginx"],"command":"systemctl"}`},
		{"please restart the nginx service", `{"args":["restart","nginx"],"command":"systemctl"}`},
		{"重新加载 nginx 配置", `{"args":["reload","nginx"],"command":"systemctl"}`},
		{"reload nginx", `{"args":["reload","nginx"],"command":"systemctl"}`},
		{"nginx 的状态", `{"args":["status","nginx"],"command":"systemctl"}`},
		{"status of sshd", `{"args":["status","sshd"],"command":"systemctl"}`},
		{"执行 systemctl restart nginx", `{"args":["restart","nginx"],"command":"systemctl"}`},
		{"执行 journalctl -u nginx -n 50", `{"args":["-u","nginx","-n","50"],"command":"journalctl"}`},
		{"du -sh /var/log", `{"args":["-sh","/var/log"],"command":"du"}`},
		{"执行 cat /etc/hostname", `{"args":["/etc/hostname"],"command":"cat"}`},
		{"tail /var/log/syslog", `{"args":["/var/log/syslog"],"command":"tail"}`},
		{"ls /", `{"args":["/"],"command":"ls"}`},
	} {
		in := p.Classify(tt.in, false)
		b, _ := json.Marshal(in.Args)
		if in.Tool != "command_executor" || string(b) != tt.args {
			t.Errorf("%q: %s %s %s %q, want %s", tt.in, in.Kind, in.Tool, b, in.Reason, tt.args)
		}
	}
	for in, want := range map[string]string{
		"rm -rf /":                      "command rm is not in the whitelist (ls cat grep head tail ps pwd whoami df free)",
		"执行 mkfs.ext4 /dev/sda":         "command mkfs.ext4 is not in the whitelist",
		"执行 systemctl poweroff":         "command systemctl is not in the whitelist",
		"执行 useradd bob":                "command useradd is not in the whitelist",
		"执行 apt-get install nginx":      "command apt-get is not in the whitelist",
		"重启服务器":                         "",
		"restart the server":            "",
		"重启 nginx 然后删除日志":               "",
		"shutdown now":                  "command shutdown is not in the whitelist",
		"执行 docker run -it ubuntu bash": "command docker is not in the whitelist",
	} {
		got := p.Classify(in, false)
		if got.Kind != "refuse" || !strings.Contains(got.Reason, want) {
			t.Errorf("%q: %s %s %v %q, want a refusal with %q", in, got.Kind, got.Tool, got.Args, got.Reason, want)
		}
	}
	// Without systemctl restart in the ask tier, "重启 nginx" is refused.
	cmds, err := command.Tiers{}.WithAsk([]string{"systemctl status"})
	if err != nil {
		t.Fatal(err)
	}
	if in := New(Config{Commands: cmds}).Classify("重启 nginx", false); in.Kind != "refuse" {
		t.Errorf("restart outside the ask tier: %+v", in)
	}
}

// TestProseServiceRequests: a service or container named with the word
// service or container, asked in any words to restart, reload or show,
// plans systemctl or docker of the ask tier; the rest of the request is
// still checked, so a destructive request beside it is refused, and the
// machine ("服务器", "server") is no service.
func TestProseServiceRequests(t *testing.T) {
	p := New(Config{})
	for in, want := range map[string]string{
		"麻烦把 mysql 服务重启一下":                                       `{"args":["restart","mysql"],"command":"systemctl"}`,
		"restart redis service pls":                              `{"args":["restart","redis"],"command":"systemctl"}`,
		"we pushed a new cert, can u reload the haproxy service": `{"args":["reload","haproxy"],"command":"systemctl"}`,
		"redis 服务还活着没 systemctl 看下":                              `{"args":["status","redis"],"command":"systemctl"}`,
		"is the postgresql service active? check systemctl":      `{"args":["status","postgresql"],"command":"systemctl"}`,
		"nginx 服务状态看下":                                           `{"args":["status","nginx"],"command":"systemctl"}`,
		"重启下 redis 容器":                                           `{"args":["restart","redis"],"command":"docker"}`,
		"Please restart the worker container, it's stuck.":       `{"args":["restart","worker"],"command":"docker"}`,
	} {
		got := p.Classify(in, false)
		b, _ := json.Marshal(got.Args)
		if got.Tool != "command_executor" || string(b) != want {
			t.Errorf("%q: %s %s %s %q, want %s", in, got.Kind, got.Tool, b, got.Reason, want)
		}
	}
	for _, in := range []string{
		"restart nginx service and delete its logs", "重启 nginx 服务然后删除 /var/log/nginx",
		"重启 web 服务器", "restart the server", "reboot the machine",
		"stop nginx service via systemctl", "systemctl disable nginx service", "用 systemctl 停掉 nginx 服务",
		"systemctl mask sshd service", "kill the redis container", "删除 redis 容器然后重启 api 容器",
	} {
		if got := p.Classify(in, false); got.Kind != "refuse" {
			t.Errorf("%q: %s %s %v, want a refusal", in, got.Kind, got.Tool, got.Args)
		}
	}
	// No unit named: nothing to ask systemctl about.
	if got := p.Classify("is the service up?", false); got.Args["command"] == "systemctl" {
		t.Errorf("is the service up?: %v, want no systemctl", got.Args)
	}
}
