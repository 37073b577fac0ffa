package builtin

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"opsassist/tools/command"
)

func TestDbg(t *testing.T) {
	if os.Getenv("DBG") == "" {
		t.Skip()
	}
	c := defaultCommands
	if out := os.Getenv("DBGOUT"); out != "" {
		fi, _ := strconv.Atoi(out)
		cases := loadTrain(t)
		ex := examples(cases)
		var tr []example
		for i, e := range ex {
			if cases[i].file != fi && e != nil {
				tr = append(tr, *e)
			}
		}
		c = newCommands(command.Tiers{})
		c.weights = train(tr)
	}
	for _, s := range strings.Split(os.Getenv("DBG"), "|") {
		text := c.fixTypos(strings.TrimSpace(normalize(s)))
		_, safe := c.safety(text)
		hits := c.rules(text, true)
		fs := c.features(text, true, &hits)
		argv, con := c.proseCommand(text)
		sc := c.model().scores(fs)
		r := ranked(sc)
		in := c.decide(text, true)
		t.Logf("%q safe=%v pc=%v %s top=%s %d / %s %d → %s %v\n  %v", text, safe, argv, con, classes[r[0]], sc[r[0]], classes[r[1]], sc[r[1]], in.Tool, in.Args, fs)
	}
}
