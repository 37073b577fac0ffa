package builtin

import (
	"reflect"
	"testing"

	"opsassist/tools/command"
)

// TestProseCommand: commands of the ask tier described in words — a
// service's log, whether a service runs, listening ports, a directory's
// size, containers — become those commands, and only while the tiers run
// them (issue 16 Build 4: the tiers drive the planner).
func TestProseCommand(t *testing.T) {
	cases := []struct {
		input string
		want  []string
	}{
		{"看一下 mysql 服务的日志", []string{"journalctl", "-u", "mysql", "-n", "50"}},
		{"what did the redis service log recently?", []string{"journalctl", "-u", "redis", "-n", "50"}},
		{"is the postgresql service running?", []string{"systemctl", "status", "postgresql"}},
		{"哪些端口在监听", []string{"ss", "-tlnp"}},
		{"show open sockets", []string{"ss", "-tlnp"}},
		{"/var/lib/docker 这个目录有多大", []string{"du", "-sh", "/var/lib/docker"}},
		{"which folders under /var are the largest?", []string{"du", "-sh", "/var"}},
		{"list running containers", []string{"docker", "ps"}},
		{"看一下 web 容器的日志", []string{"docker", "logs", "--tail", "50", "web"}},
		{"how much memory is free?", nil},
		{"/var/log/app.log 有多大", nil}, // a file, not a directory: ls answers
		{"where is the nginx service documented?", nil},
	}
	for _, tc := range cases {
		argv, _ := defaultCommands.proseCommand(tc.input)
		if !reflect.DeepEqual(argv, tc.want) {
			t.Errorf("%q: %v, want %v", tc.input, argv, tc.want)
		}
		if tc.want == nil {
			continue
		}
		if in := (Planner{}).Classify(tc.input, true); in.Tool != "command_executor" || in.Args["command"] != tc.want[0] {
			t.Errorf("Classify %q = %s %v, want %s", tc.input, in.Tool, in.Args, tc.want[0])
		}
	}
	// Tiers without an ask tier offer none of them.
	tiers, err := command.NewTiers([]string{"ls", "uptime"})
	if err != nil {
		t.Fatal(err)
	}
	if tiers, err = tiers.WithAsk([]string{}); err != nil {
		t.Fatal(err)
	}
	c := newCommands(tiers)
	for _, tc := range cases {
		if argv, _ := c.proseCommand(tc.input); argv != nil {
			t.Errorf("%q without an ask tier: %v", tc.input, argv)
		}
	}
}
