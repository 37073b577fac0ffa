package command

import "testing"

// TestFailedUnitsForm: "systemctl --failed" and "systemctl list-units"
// are read-only ask-tier forms that take only their listing options; a
// second subcommand, a unit operand after --failed (systemctl would read
// it as the verb: "systemctl --failed stop nginx") or any option that
// acts is refused.
func TestFailedUnitsForm(t *testing.T) {
	ok := [][]string{
		{"systemctl", "--failed"}, {"systemctl", "--failed", "--plain", "--no-legend"}, {"systemctl", "--failed", "--type=service"},
		{"systemctl", "list-units", "--failed"}, {"systemctl", "list-units", "--failed", "--plain"}, {"systemctl", "list-units", "--state=failed"},
		{"systemctl", "list-units", "--type", "service", "nginx.service"},
	}
	bad := [][]string{
		{"systemctl", "--failed", "stop", "nginx"}, {"systemctl", "--failed", "nginx"}, {"systemctl", "--failed", "--now"},
		{"systemctl", "--failed", "-H", "host"}, {"systemctl", "list-units", "--root=/"}, {"systemctl", "list-units", "/etc/x"},
		{"systemctl", "list-units", "--failed", "-M", "x"}, {"systemctl", "--failed", "--type"},
	}
	tiers := Tiers{}
	for _, argv := range append(ok, bad...) {
		tier, entry, why := tiers.Classify(argv[0], argv[1:])
		if tier != TierAsk {
			t.Fatalf("%q: tier %d (%s), want the ask tier", argv, tier, why)
		}
		run, _, err := askSpecs[entry].parse(entry, argv[1:])
		if good := containsArgv(ok, argv); good != (err == nil) {
			t.Errorf("%q: %v", argv, err)
		}
		if err == nil && run[0] != "--no-pager" {
			t.Errorf("%q runs as %q, want --no-pager first", argv, run)
		}
	}
	for _, argv := range [][]string{{"systemctl", "stop", "nginx"}, {"systemctl", "--now", "stop"}, {"systemctl", "list-unit-files"}} {
		if tier, _, _ := tiers.Classify(argv[0], argv[1:]); tier != TierDeny {
			t.Errorf("%q: tier %d, want denied", argv, tier)
		}
	}
}
