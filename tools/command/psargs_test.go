package command

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"opsassist/tools"
	"opsassist/tools/policy"
)

// psFullArgsShapes are ps calls whose output shows full command lines:
// each is asked about. psNameOnlyShapes show command names only.
var (
	psFullArgsShapes = [][]string{
		{"aux"}, {"ax"}, {"u"}, {"x"}, {"auxww"}, {"-e", "x"}, {"axf"}, {"axj"}, {"axv"}, {"axs"}, {"axl"},
		{"-ef"}, {"-eF"}, {"-efww"}, {"-eLf"}, {"-ejHf"}, {"-e", "-f"}, {"-Af", "-c"},
		{"-O", "pid"}, {"-eOpid"}, {"O", "pid"}, {"axO", "pid"},
		{"-o", "pid,args"}, {"-eo", "pid,cmd"}, {"-o", "command"}, {"-oargs"}, {"-o", "pid,args:40"},
		{"-o", "pid,args=X"}, {"-o", "ARGS"}, {"-o", "pid args"}, {"axo", "pid,args"}, {"-e", "o", "args"},
		{"--format", "pid,args", "-e"}, {"--format=cmd"}, {"--format:command"}, {"--sort=-pcpu", "aux"},
		{"-A", "c", "-o", "args"}, {"x", "1"},
		{"1"}, {"1", "2"}, {"-A", "1"}, {"-d", "300"}, {"--deselect", "1"}, {"-o", "%a"}, {"-eo", "%p %a"}, {"--format=%a"}, {"axo", "%a"}, {"-o", "%A"},
		// Read a second time as BSD options when the first pass fails
		// (no user "x"; a PID list procps refuses).
		{"-ux"}, {"-uT"}, {"-Tu"}, {"-p", "1"}, {"-p1"}, {"-q", "1"},
	}
	psNameOnlyShapes = [][]string{
		{}, {"-e"}, {"-A"}, {"-eo", "pid,comm"}, {"-eo", "pid,user,%cpu,%mem,comm", "--sort=-%cpu"},
		{"-ely"}, {"-ejH"}, {"-eL"}, {"--forest", "-e"}, {"-ep", "1"}, {"-C", "sleep"}, {"-Csleep"}, {"-uc"},
		{"auxc"}, {"axc"}, {"-A", "c"}, {"-u", "eve"}, {"--user", "e"}, {"c", "1", "2"}, {"-o", "pid,comm", "1"}, {"-o", "%p %c"},
		{"-eo", "pid,ucmd,ucomm,exe"}, {"-eo", "pid", "--sort=args"}, {"axc", "k", "args"}, {"-ew"},
		{"axo", "pid,user"}, {"x", "--format", "pid"}, {"-e", "x", "-o", "pid,comm"},
	}
)

// TestPSDefaultArgs: a request for processes runs ps with command names,
// not "ps aux".
func TestPSDefaultArgs(t *testing.T) {
	want := []string{"-eo", "pid,user,%cpu,%mem,comm", "--sort=-%cpu"}
	got := (Tiers{}).DefaultArgs("ps")
	if !slices.Equal(got, want) {
		t.Fatalf("DefaultArgs(ps) = %q, want %q", got, want)
	}
	got[0] = "aux"
	if (Tiers{}).DefaultArgs("ps")[0] != "-eo" {
		t.Error("DefaultArgs shares its slice")
	}
	if tier, _, _ := (Tiers{}).Classify("ps", want); tier != TierAllow {
		t.Errorf("default ps: tier %v, want TierAllow", tier)
	}
	if _, err := optSpecFor("ps").classify(want); err != nil {
		t.Errorf("default ps refused: %v", err)
	}
}

// TestPSFullArgsAsk: every shape that shows full command lines is in the
// ask tier, refused unapproved with ErrNeedsApproval and inspected as an
// ask with the reason; the name-only shapes run without asking.
func TestPSFullArgsAsk(t *testing.T) {
	f := newFixture(t)
	for _, args := range psFullArgsShapes {
		if _, err := checkPS(args); err != nil {
			t.Errorf("ps %q refused by checkPS: %v", args, err)
			continue
		}
		tier, entry, why := (Tiers{}).Classify("ps", args)
		if tier != TierAsk || entry != PSEntry || why != psWhyArgs {
			t.Errorf("ps %q: Classify = %v %q %q, want the ask tier", args, tier, entry, why)
		}
		raw, _ := json.Marshal(map[string]any{"command": "ps", "args": args})
		if _, err := f.e.Run(t.Context(), &tools.Call{}, raw); !errors.Is(err, ErrNeedsApproval) {
			t.Errorf("ps %q unapproved: %v, want ErrNeedsApproval", args, err)
		}
		tg, err := f.e.Inspect(raw)
		if err != nil || tg.Tier != tools.Ask || tg.Why != psWhyArgs || tg.WhyZh != psWhyArgsZh ||
			tg.Scope != strings.TrimSpace("ps "+strings.Join(args, " ")) {
			t.Errorf("ps %q: Inspect = %+v, %v", args, tg, err)
		}
	}
	for _, args := range psNameOnlyShapes {
		if tier, _, _ := (Tiers{}).Classify("ps", args); tier != TierAllow {
			t.Errorf("ps %q: tier %v, want TierAllow", args, tier)
		}
		raw, _ := json.Marshal(map[string]any{"command": "ps", "args": args})
		if tg, err := f.e.Inspect(raw); err != nil || tg.Tier != tools.Allow {
			t.Errorf("ps %q: Inspect = %+v, %v", args, tg, err)
		}
	}
}

// TestPSFullArgsApproved: an approved "ps aux" runs.
func TestPSFullArgsApproved(t *testing.T) {
	if _, err := lookPath("ps"); err != nil {
		t.Skip("ps is not installed")
	}
	f := newFixture(t)
	out, err := f.runCall(t, true, "ps", "aux")
	if err != nil || out.Command != "ps aux" || !strings.Contains(out.Stdout, "COMMAND") {
		t.Fatalf("approved ps aux: %+v, %v", out, err)
	}
}

// TestPSFullArgsPolicy: through the permission policy, an operator is
// asked about "ps aux" with the reason in both languages, a viewer is
// refused without being asked, and the default ps runs for both.
func TestPSFullArgsPolicy(t *testing.T) {
	f := newFixture(t)
	p, err := policy.New(policy.Config{Inspectors: map[string]policy.Inspector{"command_executor": f.e}})
	if err != nil {
		t.Fatal(err)
	}
	full := json.RawMessage(`{"command":"ps","args":["aux"]}`)
	v := p.Decide(t.Context(), &tools.Call{Role: policy.RoleOperator}, f.e.Spec(), full)
	if v.Decision != tools.Ask || !strings.Contains(v.Reason, psWhyArgsZh) || !strings.Contains(v.Reason, psWhyArgs) {
		t.Errorf("operator, ps aux: %+v", v)
	}
	if v := p.Decide(t.Context(), &tools.Call{Role: policy.RoleViewer}, f.e.Spec(), full); v.Decision != tools.Deny {
		t.Errorf("viewer, ps aux: %+v, want Deny", v)
	}
	def, _ := json.Marshal(map[string]any{"command": "ps", "args": (Tiers{}).DefaultArgs("ps")})
	for _, role := range []string{policy.RoleOperator, policy.RoleViewer} {
		if v := p.Decide(t.Context(), &tools.Call{Role: role}, f.e.Spec(), def); v.Decision != tools.Allow {
			t.Errorf("%s, default ps: %+v, want Allow", role, v)
		}
	}
}

// TestPSShowsArgsReal runs the real ps for the name-only shapes and
// the generated spellings checkPS accepts and psShowsArgs calls
// name-only, while a process of ours has a marker in its command line,
// and looks for the marker: it must not appear. It first makes sure the
// marker shows with "ps aux" and "ps -ef".
func TestPSShowsArgsReal(t *testing.T) {
	psPath, err := lookPath("ps")
	if err != nil {
		t.Skip("ps is not installed")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("sleep is not installed")
	}
	buf := make([]byte, 8)
	rand.Read(buf)
	marker := "PSMARK" + hex.EncodeToString(buf)
	holder := exec.Command(sleep, "600")
	holder.Args[0] = "/nonexistent/" + marker
	if err := holder.Start(); err != nil {
		t.Skipf("starting sleep: %v", err)
	}
	t.Cleanup(func() {
		holder.Process.Kill()
		holder.Wait()
	})
	runPS := func(args []string) string {
		run, err := checkPS(args)
		if err != nil {
			t.Fatalf("ps %q: %v", args, err)
		}
		cmd := exec.Command(psPath, run...)
		cmd.Env = append(childEnv(t.TempDir()), "COLUMNS=10000")
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	for _, args := range [][]string{{"aux"}, {"-ef"}} {
		if !strings.Contains(runPS(args), marker) {
			t.Skipf("ps %q does not show the marker; nothing to prove", args)
		}
	}
	cases := slices.Clone(psNameOnlyShapes)
	for _, a := range psGenerated(2) {
		cases = append(cases, []string{a}, []string{"-e", a}, []string{a, "-o", "pid,comm"})
	}
	ran := 0
	for _, args := range cases {
		if _, err := checkPS(args); err != nil || psShowsArgs(args) {
			continue
		}
		ran++
		if out := runPS(args); strings.Contains(out, marker) {
			t.Errorf("ps %q showed a full command line, and psShowsArgs says it does not", args)
		}
	}
	if ran < 50 {
		t.Errorf("only %d spellings ran", ran)
	}
}
