package cli

import "strings"

// chinese reports whether the CLI's own messages are in Chinese: the
// first of LC_ALL, LC_MESSAGES and LANG that is set starts with "zh"
// (zh_CN.UTF-8, zh_TW, zh). This is the CLI's one language rule; the
// server decides an answer's language from the question itself.
func (c *CLI) chinese() bool {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := c.getenv(k); v != "" {
			return strings.HasPrefix(strings.ToLower(v), "zh")
		}
	}
	return false
}

// msg returns en, or zh when the CLI speaks Chinese.
func (c *CLI) msg(en, zh string) string {
	if c.chinese() {
		return zh
	}
	return en
}
