package tools

import "strings"

// isRedisCLI reports whether a word names redis-cli: its name, or a path
// to it.
func isRedisCLI(word string) bool {
	return word == "redis-cli" || strings.HasSuffix(word, "/redis-cli")
}

// redactRedisArgs replaces the argument after -a (the password) in a
// call's argument list when redis-cli is the program run: the call's
// command, or an argument naming it that does not follow an option
// (docker exec cache redis-cli -a x). The string form ("redis-cli -a x"
// in a command line) is one of secretPatterns.
func redactRedisArgs(command string, args []any, changed *bool) {
	first, _, _ := strings.Cut(strings.TrimSpace(command), " ")
	client := isRedisCLI(first)
	prevOption := false
	for i, a := range args {
		s, ok := a.(string)
		if !ok {
			continue
		}
		if i > 0 && client {
			if prev, ok := args[i-1].(string); ok && prev == "-a" && s != redacted {
				args[i], *changed = redacted, true
				prevOption = false
				continue
			}
		}
		if !prevOption && isRedisCLI(s) {
			client = true
		}
		prevOption = strings.HasPrefix(s, "-") && s != "--"
	}
}
