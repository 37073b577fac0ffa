package builtin

import (
	"os"
	"strings"
	"testing"
)

func TestDbg(t *testing.T) {
	for _, s := range strings.Split(os.Getenv("DBG"), "|") {
		c := defaultCommands
		text := c.fixTypos(strings.TrimSpace(normalize(s)))
		_, safe := c.safety(text)
		hits := c.rules(text, true)
		fs := c.features(text, true, &hits)
		argv, con := c.proseCommand(text)
		sc := c.model().scores(fs)
		r := ranked(sc)
		t.Logf("%q safe=%v pc=%v %s top=%s %d / %s %d\n  %v", text, safe, argv, con, classes[r[0]], sc[r[0]], classes[r[1]], sc[r[1]], fs)
	}
}
