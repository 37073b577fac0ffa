package command

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"opsassist/tools"
)

// psSpellings are ways of asking ps for environments, from the review,
// and the everyday spellings that must keep working.
var (
	psRefusedSpellings = [][]string{
		{"-ex"}, {"-xe"}, {"-auxe"}, {"-aux", "-e", "-x"}, {"-e", "-x"}, {"-ef", "-x"}, {"-x", "-e"},
		{"e"}, {"auxe"}, {"axe"}, {"aux", "eww"}, {"-ue"}, {"-ex", "1"},
		{"-N"}, {"-n", "x"}, {"-t", "x"}, {"L"}, {"-V"}, {"--info"}, {"--help"}, {"--", "-e"},
		{"-1"}, {"+1"}, {"1", "aux"}, {""}, {"/etc"}, {"-ubob"}, {"--form", "pid"},
	}
	psAllowedSpellings = [][]string{
		{}, {"aux"}, {"-aux"}, {"-aux", "-e"}, {"-e"}, {"-A"}, {"-ef"}, {"-eF"}, {"-ely"}, {"-eo", "pid,comm"},
		{"-e", "-o", "pid,user,args"}, {"axo", "pid,user"}, {"-u", "eve"}, {"-C", "sleep"}, {"-Csleep"},
		{"-p", "1"}, {"-p1"}, {"-ejH"}, {"-eLf"}, {"--forest", "-e"}, {"--sort=-pcpu", "aux"}, {"--format", "pid,args", "-e"},
		{"-o", "e"}, {"--user", "e"}, {"1", "2"}, {"auxww"}, {"-efww"}, {"-Fue"}, {"-e", "x"},
	}
)

func TestPSSpellings(t *testing.T) {
	for _, args := range psRefusedSpellings {
		if _, err := optSpecFor("ps").classify(args); !errors.Is(err, ErrOptionDenied) {
			t.Errorf("ps %q: %v, want ErrOptionDenied", args, err)
		}
	}
	for _, args := range psAllowedSpellings {
		if _, err := optSpecFor("ps").classify(args); err != nil {
			t.Errorf("ps %q: %v, want accepted", args, err)
		}
	}
}

// TestPSRewrite: the UNIX -e becomes -A, nothing else changes.
func TestPSRewrite(t *testing.T) {
	for _, tt := range []struct{ in, want []string }{
		{[]string{"-ef"}, []string{"-Af"}},
		{[]string{"-aux", "-e"}, []string{"-aux", "-A"}},
		{[]string{"-eo", "pid,user"}, []string{"-Ao", "pid,user"}},
		{[]string{"-o", "e", "-e"}, []string{"-o", "e", "-A"}},
		{[]string{"-u", "eve", "--format=user"}, []string{"-u", "eve", "--format=user"}},
		{[]string{"aux"}, []string{"aux"}},
	} {
		got, err := checkPS(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("checkPS(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestPSDenialText(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"auxe"}, "option e of ps is not allowed: " + psWhyEnv},
		{[]string{"-auxe"}, `option -auxe of ps is not allowed: ps may read it as BSD options, where "e" prints the environment of other processes, which holds secrets`},
		{[]string{"-ex"}, "option -x of ps is not allowed: " + psSupported},
	} {
		_, err := optSpecFor("ps").classify(tt.args)
		if !errors.Is(err, ErrOptionDenied) || err.Error() != tt.want {
			t.Errorf("ps %q: %q, want %q", tt.args, err, tt.want)
		}
	}
}

// TestPSEfRuns: an approved "ps -ef" runs (as "ps -Af") and is shown as
// asked.
func TestPSEfRuns(t *testing.T) {
	if _, err := lookPath("ps"); err != nil {
		t.Skip("ps is not installed")
	}
	f := newFixture(t)
	// -ef shows full command lines: it runs once approved.
	res, err := f.e.Run(t.Context(), &tools.Call{Approved: true}, json.RawMessage(`{"command":"ps","args":["-ef"]}`))
	if err != nil {
		t.Fatal(err)
	}
	out := res.(Output)
	if out.Command != "ps -ef" || !strings.Contains(out.Stdout, "UID") || !strings.Contains(out.Stdout, "PPID") {
		t.Errorf("ps -ef: %+v", out)
	}
}

// psLetters are the letters the generated spellings are made of: ps's
// common options, the environment letter and letters taking a value.
const psLetters = "aeAfxuloOpjwTcsv"

// psGenerated returns every cluster of one to maxLen letters of
// psLetters, with and without a dash.
func psGenerated(maxLen int) []string {
	var out []string
	var gen func(prefix string)
	gen = func(prefix string) {
		if prefix != "" {
			out = append(out, prefix, "-"+prefix)
		}
		if len(prefix) == maxLen {
			return
		}
		for _, c := range psLetters {
			gen(prefix + string(c))
		}
	}
	gen("")
	return out
}

// TestPSNeverPrintsEnvironment runs the real ps, as the executor would,
// for every spelling the check accepts, while a process of ours holds a
// secret in its environment, and looks for the secret in the output. It
// first makes sure that the unchecked "ps -ex" prints it.
func TestPSNeverPrintsEnvironment(t *testing.T) {
	psPath, err := lookPath("ps")
	if err != nil {
		t.Skip("ps is not installed")
	}
	buf := make([]byte, 12)
	rand.Read(buf)
	secret := "OPSASSIST_PS_TEST_" + hex.EncodeToString(buf)
	// The stand-in for the daemon: a process of the same user with the
	// secret in its environment.
	holder := exec.Command("sleep", "600")
	holder.Env = []string{"OPSASSIST_AUTH_TOKEN=" + secret}
	if err := holder.Start(); err != nil {
		t.Skipf("starting sleep: %v", err)
	}
	t.Cleanup(func() {
		holder.Process.Kill()
		holder.Wait()
	})
	runPS := func(args []string) string {
		cmd := exec.Command(psPath, args...)
		cmd.Env = childEnv(t.TempDir())
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	if !strings.Contains(runPS([]string{"-ex"}), secret) {
		t.Skip("this ps does not print environments for -ex; nothing to prove")
	}

	f := newFixture(t)
	for _, args := range psAllowedSpellings {
		raw, _ := json.Marshal(args)
		res, err := f.e.Run(t.Context(), &tools.Call{Approved: true}, json.RawMessage(`{"command":"ps","args":`+string(raw)+`}`))
		var out Output
		var ee *ExitError
		switch {
		case err == nil:
			out = res.(Output)
		case errors.As(err, &ee):
			out = ee.Output
		default:
			t.Errorf("ps %q: %v", args, err)
			continue
		}
		if strings.Contains(out.Stdout+out.Stderr, secret) {
			t.Errorf("ps %q printed the environment", args)
		}
	}

	// Generated spellings: one argument of up to three letters, and two
	// of up to two each. Only a letter "e" can ask for environments, so
	// ps runs for the accepted spellings holding one: all of those with
	// up to two letters in all, and an even sample of the longer ones,
	// so that the test runs ps a few hundred times, not thousands.
	one, two := psGenerated(3), psGenerated(2)
	var cases [][]string
	for _, a := range one {
		cases = append(cases, []string{a})
	}
	for _, a := range two {
		for _, b := range two {
			cases = append(cases, []string{a, b})
		}
	}
	var short, long [][]string
	for _, args := range cases {
		_, err := checkPS(args)
		switch {
		case err != nil && !errors.Is(err, ErrOptionDenied):
			t.Fatalf("ps %q: %v", args, err)
		case err != nil, !strings.Contains(strings.Join(args, ""), "e"):
		case len(strings.ReplaceAll(strings.Join(args, ""), "-", "")) <= 2:
			short = append(short, args)
		default:
			long = append(long, args)
		}
	}
	const maxLong = 300
	stride := max(1, len(long)/maxLong)
	run := short
	for i := 0; i < len(long); i += stride {
		run = append(run, long[i])
	}
	for _, args := range run {
		asRun, _ := checkPS(args)
		if strings.Contains(runPS(asRun), secret) {
			t.Errorf("ps %q (run as %q) printed the environment", args, asRun)
		}
	}
	t.Logf("%d spellings; %d accepted hold an e; ps ran for %d", len(cases), len(short)+len(long), len(run))
}

// TestPSHasNoEnvironmentKeyword: the -o, -O, o, O and --format values
// are not checked because no procps format keyword prints an
// environment. A ps that gains one fails here.
func TestPSHasNoEnvironmentKeyword(t *testing.T) {
	psPath, err := lookPath("ps")
	if err != nil {
		t.Skip("ps is not installed")
	}
	out, err := exec.Command(psPath, "L").Output()
	if err != nil {
		t.Skipf("ps L: %v", err)
	}
	n := 0
	for line := range strings.Lines(string(out)) {
		if kw, _, _ := strings.Cut(strings.TrimSpace(line), " "); kw != "" {
			n++
			if strings.Contains(strings.ToLower(kw), "env") {
				t.Errorf("ps has the format keyword %q", kw)
			}
		}
	}
	if n < 50 {
		t.Errorf("ps L listed %d keywords, want the full list", n)
	}
}

// TestCheckedOnce: check reads the spec once and hands pin the
// arguments as ps is to run them; pin does not check them again.
func TestCheckedOnce(t *testing.T) {
	f := newFixture(t)
	c, err := f.e.check("ps", []string{"-ef"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.run, []string{"-Af"}) || c.items != nil {
		t.Fatalf("checked %+v", c)
	}
	c.run = []string{"-x"} // what pin runs is what check returned
	p, err := f.e.pin("ps", []string{"-ef"}, c)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if !slices.Equal(p.argv, []string{"ps", "-x"}) || !slices.Equal(p.shown, []string{"ps", "-ef"}) {
		t.Fatalf("pinned %q, shown %q", p.argv, p.shown)
	}
}
