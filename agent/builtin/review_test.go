package builtin

import (
	"encoding/json"
	"strings"
	"testing"
)

// classifyShow is what Classify makes of q, for failure messages.
func classifyShow(q string) (string, string) {
	in := (Planner{}).Classify(q, true)
	b, _ := json.Marshal(in.Args)
	return in.Kind + " " + in.Tool + " " + string(b) + " " + in.Reason, in.Tool
}

// TestReviewNoRestartProposal: negations, questions, how-tos and past
// events about a restart propose no restart (review finding 1).
func TestReviewNoRestartProposal(t *testing.T) {
	for _, q := range []string{
		"不要重启 nginx 服务",
		"don't restart the nginx service",
		"how do I restart the nginx service?",
		"nginx 服务怎么重启",
		"重启 nginx 服务的步骤是什么",
		"nginx 服务为什么一直重启",
		"帮我看一下 api 容器重启了几次",
		"redis 容器重启过吗",
		"check the restart count of the api container",
		"is it safe to restart the nginx service?",
		"should we restart the nginx service?",
		"the nginx service restart failed, show me the logs",
	} {
		got, _ := classifyShow(q)
		if strings.Contains(got, `"restart"`) {
			t.Errorf("%q: %s, want no restart proposed", q, got)
		}
	}
}

// refusedAll fails t for each of qs the planner does not refuse.
func refusedAll(t *testing.T, qs []string) {
	t.Helper()
	for _, q := range qs {
		if in := (Planner{}).Classify(q, true); in.Kind != "refuse" {
			got, _ := classifyShow(q)
			t.Errorf("%q: %s, want refused", q, got)
		}
	}
}

// TestReviewRestartWithMore: a restart with shell operators or more
// commands in its clause is refused, not proposed without them
// (finding 2).
func TestReviewRestartWithMore(t *testing.T) {
	refusedAll(t, []string{
		"restart nginx && rm -rf /",
		"restart nginx | sh",
		"restart nginx > /etc/passwd",
		"restart nginx $(reboot)",
		"please restart the nginx service && shutdown now",
		"restart container api && docker rm -f db",
		"restart nginx and sudo rm -rf /var/log",
		"restart nginx then sudo reboot",
		"restart nginx plus chmod 777 /etc",
		"restart nginx and make sure to delete /var/log",
	})
}

// TestReviewNoPartialRestart: "restart nginx and postgres" is not a
// proposal that restarts nginx alone.
func TestReviewNoPartialRestart(t *testing.T) {
	for _, q := range []string{"restart nginx and postgres", "重启 nginx 和 postgres 服务"} {
		got, _ := classifyShow(q)
		if strings.Contains(got, `["restart","nginx"]`) {
			t.Errorf("%q: %s, want no one-unit proposal", q, got)
		}
	}
}

// TestReviewStillWorks: the legitimate forms beside the hostile ones.
func TestReviewStillWorks(t *testing.T) {
	for q, want := range map[string]string{
		"重启一下 nginx 服务":                                   `{"args":["restart","nginx"],"command":"systemctl"}`,
		"restart the redis container please, it is stuck": `{"args":["restart","redis"],"command":"docker"}`,
		"sudo ls -la /var/log 看下":                         `{"args":["-la","/var/log"],"command":"ls"}`,
		"sudo df -hT":                                     `{"args":["-hT"],"command":"df"}`,
		"你好，df -h 看下":                                     `{"args":["-h"],"command":"df"}`,
	} {
		in := (Planner{}).Classify(q, true)
		b, _ := json.Marshal(in.Args)
		if in.Tool != "command_executor" || string(b) != want {
			got, _ := classifyShow(q)
			t.Errorf("%q: %s, want %s", q, got, want)
		}
	}
}

// TestReviewSudoGrant: sudo inside prose that grants it is an access
// change, refused; sudo starting the command line is dropped (finding 3).
func TestReviewSudoGrant(t *testing.T) {
	refusedAll(t, []string{
		"give deploy sudo ls /root",
		"allow bob to sudo ls -la /root",
		"给 deploy 用户加上 sudo cat /etc/shadow 的权限",
		"let bob run sudo cat /etc/shadow without a password",
	})
}

// TestReviewGreetedLine: a command line after a greeting goes through
// the option checks of any command line (finding 4).
func TestReviewGreetedLine(t *testing.T) {
	refusedAll(t, []string{
		"你好，journalctl --vacuum-time=1s 看下",
		"嗨 journalctl --vacuum-size=1M",
		"你好 journalctl --rotate",
		"hello, journalctl --vacuum-files=1",
		"journalctl --vacuum-time=1s 看下",
	})
}

// TestReviewWholeMessage: an action late in a long clause, and one past
// the Chinese matches read one by one, is refused (finding 5).
func TestReviewWholeMessage(t *testing.T) {
	refusedAll(t, []string{
		"show me the disk usage of every single mount point on this machine including the tmpfs ones and the overlay ones used by docker and then wipe /var/log",
		strings.Repeat("删什么？", 9) + "，重启 nginx 服务，删掉 /var/log/app.log",
		strings.Repeat("删什么？", 20) + "删掉 /var/log/app.log",
	})
	for _, q := range []string{
		"show me the disk usage of every single mount point on this machine including the tmpfs ones and the overlay ones used by docker",
	} {
		if in := (Planner{}).Classify(q, true); in.Kind == "refuse" {
			t.Errorf("%q: refused (%s), want it answered", q, in.Reason)
		}
	}
}

// TestReviewMachineWords: the cluster or the instance names no unit: no
// systemctl restart of it is proposed (finding 8).
func TestReviewMachineWords(t *testing.T) {
	for _, q := range []string{"restart the cluster", "重启 cluster", "restart the instance", "重启一下 instance 服务", "restart the hosts"} {
		got, _ := classifyShow(q)
		if strings.Contains(got, `"restart"`) {
			t.Errorf("%q: %s, want no restart proposed", q, got)
		}
	}
}
