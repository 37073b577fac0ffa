package cli

import (
	"fmt"
	"regexp"
	"strings"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/bytesize"
)

// askOfferLine formats a download offer for one-shot ask, in the CLI's
// language: the shell command that fetches it ("opsassist download
// TOKEN -o NAME"), since /download is a REPL command. It names --server
// when that is not the default, and --rdt when the offer's RDT address
// is not where download would look without it: the address the
// server's HELLO names (helloRDT), else the server's host on the
// default port.
func (c *CLI) askOfferLine(o api.Offer, server, helloRDT string) string {
	cmd := []string{"opsassist"}
	if server != DefaultServer {
		cmd = append(cmd, "--server", shellQuote(server))
	}
	cmd = append(cmd, "download", shellQuote(o.DownloadToken), "-o", shellQuote(o.Filename))
	if o.RDTAddr != "" {
		offered := client.RDTAddr("", o.RDTAddr, server)
		if offered != client.RDTAddr("", helloRDT, server) {
			cmd = append(cmd, "--rdt", shellQuote(offered))
		}
	}
	return fmt.Sprintf(c.say("可下载：%s（%s）— %s", "download offered: %s (%s) — %s"),
		o.Filename, bytesize.Format(o.FileSize), strings.Join(cmd, " "))
}

// shellSafe matches words a POSIX shell takes as they are.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9._/:@%+=,-]+$`)

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
