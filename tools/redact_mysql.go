package tools

import (
	"strings"
)

// mysqlClients are the MySQL and MariaDB programs that take the password
// glued to -p (-pSECRET; -p alone prompts, -P is the port).
var mysqlClients = []string{
	"mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck",
	"mysqlbinlog", "mysqlpump", "mysqlslap",
	"mariadb", "mariadb-dump", "mariadb-admin", "mariadb-import", "mariadb-show", "mariadb-check", "mariadb-binlog", "mariadb-slap",
}

// isMySQLClient reports whether a word names a MySQL client: its name,
// or a path to it in a bin directory (/usr/bin/mysql — not the data
// directory /var/lib/mysql).
func isMySQLClient(word string) bool {
	for _, c := range mysqlClients {
		if word == c || strings.HasSuffix(word, "/bin/"+c) {
			return true
		}
	}
	return false
}

// shellToken is one word of a command line, as a shell splits it.
type shellToken struct {
	start, end int  // byte offsets in the line
	sep        bool // a command separator (| ; & newline ` ( ) { })
}

// shellTokens splits line into words and command separators, honouring
// single and double quotes and backslash escapes; a backslash-newline is
// white space. It never fails: an unclosed quote runs to the end.
func shellTokens(line string) []shellToken {
	var toks []shellToken
	start := -1
	flush := func(i int) {
		if start >= 0 {
			toks = append(toks, shellToken{start: start, end: i})
			start = -1
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && line[i+1] == '\n':
			flush(i)
			i++
		case c == '\\':
			if start < 0 {
				start = i
			}
			i++ // the escaped byte belongs to the word
		case c == '\'' || c == '"':
			if start < 0 {
				start = i
			}
			j := i + 1
			for j < len(line) && line[j] != c {
				if c == '"' && line[j] == '\\' {
					j++
				}
				j++
			}
			i = min(j, len(line)-1)
		case c == ' ' || c == '\t' || c == '\r':
			flush(i)
		case strings.IndexByte("|;&\n`(){}", c) >= 0:
			flush(i)
			toks = append(toks, shellToken{start: i, end: i + 1, sep: true})
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(len(line))
	return toks
}

// redactMySQL replaces the password of every -pSECRET given to a MySQL
// client in a command line: a client is a word isMySQLClient names that
// does not follow an option (so "-u mysql -p3" and "--name mysql -p80"
// are left alone), and its command runs to the next | ; & or newline.
// A quoted word ('…', "…": sh -c, ssh host, kubectl exec … --) is
// searched too, and the password's value may be quoted; shell syntax
// after it (a redirect) is kept.
func redactMySQL(line string) string {
	if !strings.Contains(line, "mysql") && !strings.Contains(line, "mariadb") {
		return line
	}
	var b strings.Builder
	done := 0
	client, prevOption := false, false
	for _, t := range shellTokens(line) {
		word := line[t.start:t.end]
		switch {
		case t.sep:
			client, prevOption = false, false
			continue
		case client && len(word) > 2 && strings.HasPrefix(word, "-p"):
			b.WriteString(line[done:t.start])
			b.WriteString("-p" + redacted + shellTail(word[2:]))
			done = t.end
		case len(word) >= 2 && (word[0] == '\'' || word[0] == '"') && word[len(word)-1] == word[0]:
			if inner := redactMySQL(word[1 : len(word)-1]); inner != word[1:len(word)-1] {
				b.WriteString(line[done:t.start])
				b.WriteString(word[:1] + inner + word[:1])
				done = t.end
			}
		case !prevOption && isMySQLClient(word):
			client = true
		}
		prevOption = strings.HasPrefix(word, "-") && word != "--"
	}
	if done == 0 {
		return line
	}
	b.WriteString(line[done:])
	return b.String()
}

// shellTail is what follows a password in its word that is shell syntax,
// not the password: from the first unquoted < or >.
func shellTail(value string) string {
	quote := byte(0)
	for i := 0; i < len(value); i++ {
		switch c := value[i]; {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case c == '\'' || c == '"':
			quote = c
		case c == '<' || c == '>':
			return value[i:]
		}
	}
	return ""
}

// redactMySQLArgs replaces -pSECRET in a call's argument list when a
// MySQL client is the program run: the call's command, or an argument
// naming one that does not follow an option (sudo mysql …, docker exec
// db mysql …, timeout 10 mysql …; not journalctl -u mysql -p3).
func redactMySQLArgs(command string, args []any, changed *bool) {
	first, _, _ := strings.Cut(strings.TrimSpace(command), " ")
	client := isMySQLClient(first)
	prevOption := false
	for i, a := range args {
		s, ok := a.(string)
		if !ok {
			continue
		}
		switch {
		case client && len(s) > 2 && strings.HasPrefix(s, "-p"):
			args[i], *changed = "-p"+redacted+shellTail(s[2:]), true
		case !prevOption && isMySQLClient(s):
			client = true
		}
		prevOption = strings.HasPrefix(s, "-") && s != "--"
	}
}
