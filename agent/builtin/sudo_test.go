package builtin

import (
	"reflect"
	"testing"
)

// TestSudoBeforeACommandLine: "sudo" before a command line is the
// operator's habit; the command after it goes through the tiers like the
// same line without it, and a destructive one is refused.
func TestSudoBeforeACommandLine(t *testing.T) {
	runs := map[string][]any{
		"sudo df -h":                              {"df", []any{"-h"}},
		"sudo free -m":                            {"free", []any{"-m"}},
		"sudo tail -n 100 /var/log/messages":      {"tail", []any{"-n", "100", "/var/log/messages"}},
		"sudo ls -la /var/log 看下":                 {"ls", []any{"-la", "/var/log"}},
		"请 sudo tail -n 50 /var/log/syslog":       {"tail", []any{"-n", "50", "/var/log/syslog"}},
		"sudo cat /etc/hosts":                     {"cat", []any{"/etc/hosts"}},
		"sudo grep -i error /var/log/app.log":     {"grep", []any{"-i", "error", "/var/log/app.log"}},
		"sudo ps aux":                             {"ps", []any{"aux"}},
		"sudo whoami":                             {"whoami", nil},
		"can you run sudo head -n 5 /etc/passwd?": {"head", []any{"-n", "5", "/etc/passwd"}},
	}
	for msg, want := range runs {
		in := (Planner{}).Classify(msg, false)
		if in.Tool != "command_executor" || in.Args["command"] != want[0] {
			t.Errorf("%q: %s %s %v, want command %v", msg, in.Kind, in.Tool, in.Args, want[0])
			continue
		}
		if got := in.Args["args"]; want[1] != nil && !reflect.DeepEqual(got, want[1]) {
			t.Errorf("%q: args %v, want %v", msg, got, want[1])
		}
	}
	for _, msg := range []string{
		"sudo rm -rf /var/log/*.gz", "sudo reboot", "sudo shutdown -h now", "sudo kill -9 1234",
		"sudo apt-get install -y htop", "sudo useradd -m bob", "sudo su", "sudo -i", "sudo -u postgres psql",
		"sudo rm -rf /tmp/x 看下", "sudo chmod -R 777 /srv 一下", "could you sudo kill -9 4321",
		"sudo free -h 然后 sudo reboot", "sudo ls /root && sudo rm -rf /root", "sudo", "add bob to the sudo group",
		"把 bob 加到 sudo 组", "sudo systemctl stop nginx",
	} {
		if in := (Planner{}).Classify(msg, false); in.Kind != "refuse" || in.Tool != "" {
			t.Errorf("%q: %s %s %v, want a refusal", msg, in.Kind, in.Tool, in.Args)
		}
	}
}
