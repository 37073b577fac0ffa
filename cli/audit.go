package cli

import (
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"

	"opsassist/config"
	"opsassist/tools/audit"
)

const auditUsage = `usage: opsassist audit verify [--data DIR]

Checks the server's audit log of tool calls in DIR/audit (DIR: the
server's data directory; default $OPSASSIST_DATA, else ./data as for
opsassistd): every record is intact, none is missing, and the log reaches
the record HEAD names. Prints "audit: ok (N records)" and exits 0, or
"audit: broken: FILE:LINE (record SEQ): REASON" for the first broken
record and exits 1. Exit status 2: DIR/audit does not exist (a mistyped
DIR, or a log removed), the directory or a file cannot be read, or the
command line is wrong. A log with records but no HEAD file is accepted
(a crash before the first HEAD) with a warning on stderr: its end cannot
be checked.
`

// runAudit runs "opsassist audit": today only "audit verify".
func (c *CLI) runAudit(_ context.Context, args []string) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help") {
		return c.runHelp([]string{"audit"})
	}
	if len(args) == 0 || args[0] != "verify" {
		c.printf(c.stderr(), "opsassist: audit needs the verify command\n%s", auditUsage)
		return ExitUsage
	}
	fs := flag.NewFlagSet("audit verify", flag.ContinueOnError)
	fs.SetOutput(c.stderr())
	fs.Usage = func() {} // flagError prints the help or the usage
	data := fs.String("data", c.defaultDataDir(), "")
	pos, err := parseArgs(fs, args[1:])
	if err != nil {
		return c.flagError(fs, err)
	}
	if len(pos) > 0 || *data == "" {
		c.printf(c.stderr(), "opsassist: audit verify takes --data DIR and no other arguments\n%s", auditUsage)
		return ExitUsage
	}
	return c.auditVerify(*data)
}

// defaultDataDir is the server's data directory when --data is not
// given: OPSASSIST_DATA, else the configuration's default.
func (c *CLI) defaultDataDir() string {
	if d := c.getenv(config.EnvPrefix + "DATA"); d != "" {
		return d
	}
	return config.Defaults().Data
}

// auditVerify verifies data/audit and prints the verdict.
func (c *CLI) auditVerify(data string) int {
	fi, err := os.Stat(data)
	if errors.Is(err, fs.ErrNotExist) {
		c.printf(c.stderr(), "opsassist: audit verify: no data directory %s (give the server's with --data DIR)\n", data)
		return ExitUsage
	}
	if err == nil && !fi.IsDir() {
		c.printf(c.stderr(), "opsassist: audit verify: %s is not a directory\n", data)
		return ExitUsage
	}
	if err != nil {
		c.printf(c.stderr(), "opsassist: audit verify: %v\n", err)
		return ExitUsage
	}
	dir := filepath.Join(data, audit.DirName)
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		c.printf(c.stderr(), "opsassist: audit verify: no audit log in %s (expected %s)\n", data, dir)
		return ExitUsage
	}
	rep, err := audit.Verify(dir)
	var be *audit.BrokenError
	switch {
	case errors.As(err, &be):
		c.printf(c.stdout(), "%s\n", be.Error())
		return ExitError
	case err != nil:
		c.printf(c.stderr(), "opsassist: audit verify: %v\n", err)
		return ExitUsage
	}
	if rep.Records > 0 && !rep.HasHead {
		c.printf(c.stderr(), "opsassist: audit verify: warning: %s has records but no HEAD file: records deleted from the end of the log cannot be detected (a server that crashed before writing its first HEAD leaves none)\n", dir)
	}
	c.printf(c.stdout(), "audit: ok (%d records)\n", rep.Records)
	return ExitOK
}
