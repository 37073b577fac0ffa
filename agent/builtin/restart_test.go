package builtin

import (
	"encoding/json"
	"testing"

	"opsassist/tools/command"
)

// TestRestartProposed: a restart or reload of one named service or
// container, in any clause, politely, with a reason or a typo, is the
// ask tier's systemctl or docker call (the user confirms it), not a
// refusal.
func TestRestartProposed(t *testing.T) {
	for q, want := range map[string]string{
		"重启 api 容器":                                             `{"args":["restart","api"],"command":"docker"}`,
		"重启下 redis 容器":                                          `{"args":["restart","redis"],"command":"docker"}`,
		"please restart the worker container, it's stuck":       `{"args":["restart","worker"],"command":"docker"}`,
		"restart container web":                                 `{"args":["restart","web"],"command":"docker"}`,
		"麻烦把 mysql 服务重启一下":                                      `{"args":["restart","mysql"],"command":"systemctl"}`,
		"重起一下 nginx 服务":                                         `{"args":["restart","nginx"],"command":"systemctl"}`,
		"reload 下 nginx 服务":                                     `{"args":["reload","nginx"],"command":"systemctl"}`,
		"帮我 reload 一下 haproxy 服务":                               `{"args":["reload","haproxy"],"command":"systemctl"}`,
		"we rotated the cert, can u reload the haproxy service": `{"args":["reload","haproxy"],"command":"systemctl"}`,
		"restrat redis service pls":                             `{"args":["restart","redis"],"command":"systemctl"}`,
		"重启一下 redis 服务，缓存卡住了，我确认过可以重启。":                         `{"args":["restart","redis"],"command":"systemctl"}`,
	} {
		in := (Planner{}).Classify(q, true)
		b, _ := json.Marshal(in.Args)
		if in.Tool != "command_executor" || string(b) != want {
			t.Errorf("%q: %s %s %s (%s), want %s", q, in.Kind, in.Tool, b, in.Reason, want)
		}
	}
}

// TestRestartStillRefused: the machine, everything, a restart with a
// destructive request beside it, and a restart the tiers do not run are
// refused.
func TestRestartStillRefused(t *testing.T) {
	for _, q := range []string{
		"restart the whole server",
		"restart the server",
		"重启服务器",
		"restart all containers",
		"restart the api container and delete its logs",
		"重启 api 容器，然后把 /var/log 清空",
		"reload the api container",
		"please restart the service",
		"restart them",
		"restart all the services",
	} {
		if in := (Planner{}).Classify(q, true); in.Kind != "refuse" {
			t.Errorf("%q: %s %s %v, want a refusal", q, in.Kind, in.Tool, in.Args)
		}
	}
	cmds, err := command.Tiers{}.WithAsk([]string{"systemctl status"})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"restart the api container", "麻烦把 mysql 服务重启一下"} {
		if in := New(Config{Commands: cmds}).Classify(q, true); in.Kind != "refuse" {
			t.Errorf("%q outside the ask tier: %s %s %v", q, in.Kind, in.Tool, in.Args)
		}
	}
}

// TestRestartOneOwner: restarts and reloads of one named unit, in every
// form the three former rules read, are proposed by restartIntent and by
// no other rule (serviceIntent only shows status), and a destructive
// request beside one is refused whichever form names the restart.
func TestRestartOneOwner(t *testing.T) {
	c := defaultCommands
	for _, s := range []string{"重启 nginx", "帮我重启一下nginx服务", "restart nginx", "please restart the nginx service",
		"重新加载 nginx 配置", "reload nginx", "麻烦把 mysql 服务重启一下", "restart redis service pls",
		"we pushed a new cert, can u reload the haproxy service", "重启下 redis 容器", "重启一下 worker 这个容器",
		"restart the redis container please, it is stuck"} {
		if in, ok := c.serviceIntent(s); ok {
			t.Errorf("%q: serviceIntent proposes %v; restarts are restartIntent's", s, in.Args)
		}
		if _, ok := c.restartIntent(s); !ok {
			t.Errorf("%q: restartIntent proposes nothing", s)
		}
	}
	for _, s := range []string{"重启 nginx 然后删除日志", "麻烦把 mysql 服务重启一下 再把 /var/lib/mysql 删了",
		"restart the redis container and delete its volumes", "重启服务器", "restart everything"} {
		if in, ok := c.restartIntent(s); ok && in.Kind != "refuse" {
			t.Errorf("%q: proposes %v, want nothing", s, in.Args)
		}
		if in := (Planner{}).Classify(s, false); in.Kind != "refuse" {
			t.Errorf("%q: %s %s %v, want a refusal", s, in.Kind, in.Tool, in.Args)
		}
	}
}
