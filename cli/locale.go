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

// say returns zh when the CLI speaks Chinese (chinese), else en: the
// CLI's own messages, which have no question to take the language
// from. It is the one helper for them, Chinese first like pick and
// api.Text; a message whose language follows the user's question uses
// pick with chat.IsChinese.
func (c *CLI) say(zh, en string) string { return pick(c.chinese(), zh, en) }
