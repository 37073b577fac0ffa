package builtin

import "strings"

// Verbless requests are what an operator types in a hurry: a count and
// a log ("last 50 syslog", "first 10 of /etc/passwd", "tail 200
// app.log pls"), or a resource with a question mark ("ports?",
// "listeners?"). Resource words alone ("mem?", "df pls") are read by the
// monitor and the leading command line; these are the forms that name
// no program and no verb.
var (
	reVerblessLines = compile(`(?i)^\s*(last|first|top|tail|head)\s+(\d{1,6})\s+(?:lines?\s+)?(?:(?:of|from|in)\s+)?(?:the\s+)?([\w./~-]+?)(?:\s+(?:pls|please|plz|thx|thanks))?[\s?!.。？！]*$`)
	reVerblessPorts = compile(`(?i)^\s*(?:(?:open|listening|tcp|udp)\s+)?(?:ports|listeners|listening ports|sockets)(?:\s+(?:pls|please|plz))?[\s?!.。？！]*$`)
)

// knownLogs are log files known by their base name under /var/log, so
// "last 50 syslog" names /var/log/syslog.
var knownLogs = words(`syslog messages kern.log auth.log secure cron daemon.log boot.log dpkg.log`)

// verbless finds a verbless request for a command's output and returns
// its argv; a command the tiers would not run is no answer here.
func (c *commands) verbless(text string) ([]string, bool) {
	var argv []string
	if m := reVerblessLines.FindStringSubmatch(text); m != nil {
		file := m[3]
		switch {
		case knownLogs[strings.ToLower(file)]:
			file = "/var/log/" + file
		case !strings.ContainsAny(file, "/.") || strings.HasSuffix(file, "."):
			return nil, false // "top 10 processes": not a file
		}
		name := "head"
		if w := strings.ToLower(m[1]); w == "last" || w == "tail" {
			name = "tail"
		}
		argv = []string{name, "-n", m[2], file}
	} else if reVerblessPorts.MatchString(text) {
		argv = []string{"ss", "-tlnp"}
	}
	if argv == nil || !c.runnable(argv[0], argv[1:]) {
		return nil, false
	}
	return argv, true
}

// countAsLines reads a bare number after head or tail as the line count
// ("tail 200 app.log" is tail -n 200 app.log), which is what the
// operator meant and what the commands would not understand.
func countAsLines(argv []string) []string {
	if len(argv) > 2 && (argv[0] == "head" || argv[0] == "tail") && strings.Trim(argv[1], "0123456789") == "" && len(argv[1]) <= 6 {
		return append([]string{argv[0], "-n"}, argv[1:]...)
	}
	return argv
}
