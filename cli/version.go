package cli

import "opsassist/internal/buildinfo"

// runVersion runs "opsassist version" (and --version): the version, the
// commit and the Go version on stdout.
func (c *CLI) runVersion() int {
	c.printf(c.stdout(), "%s\n", buildinfo.Read().Line("opsassist"))
	return ExitOK
}
