package builtin

import (
	"fmt"
	"os"
	"testing"
)

// TestMain checks, before any test plans, that initialising the package
// compiled no rule: a program that links the planner but never plans
// (the CLI) must not pay for its expressions. It samples a rule of each
// file and the rule built from the default command tiers.
func TestMain(m *testing.M) {
	for name, r := range map[string]*rx{
		"reDangerWord": reDangerWord, "reExecZh": reExecZh, "reGreet": reGreet, "reCPU": reCPU,
		"reFile": reFile, "reSys": reSys, "reTypoWord": reTypoWord, "reWord": reWord,
		"defaultCommands.embedded": defaultCommands.embedded,
	} {
		if r.re != nil {
			fmt.Fprintf(os.Stderr, "%s was compiled at package initialisation\n", name)
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}
