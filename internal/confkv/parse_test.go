package confkv

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// flat renders entries as "path=value@line" lines for comparison.
func flat(entries []Entry) string {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "%s=%s@%d\n", e.Path, e.Value, e.Line)
	}
	return b.String()
}

func TestParseFormats(t *testing.T) {
	for _, c := range []struct {
		name, text string
		format     Format
		want       string
	}{
		{"config.yaml", "server:\n  port: 8080\ndatabase:\n  host: db.local\n  port: 5432\n  replicas: []\nservers:\n  - host: a\n    port: 1\n  - host: b\nempty:\n", YAML,
			"server.port=8080@2\ndatabase.host=db.local@4\ndatabase.port=5432@5\ndatabase.replicas=[]@6\nservers[0].host=a@8\nservers[0].port=1@9\nservers[1].host=b@10\nempty=null@11\n"},
		{"anchors.yml", "defaults: &d\n  timeout: 30\nprod:\n  <<: *d\n  host: p\n", YAML,
			"defaults.timeout=30@2\nprod.timeout=30@2\nprod.host=p@5\n"},
		{"app.json", "{\n  \"database\": {\"port\": 5432, \"ssl\": true},\n  \"servers\": [\n    {\"host\": \"a\"},\n    null\n  ],\n  \"tags\": {}\n}\n", JSON,
			"database.port=5432@2\ndatabase.ssl=true@2\nservers[0].host=a@4\nservers[1]=null@5\ntags={}@7\n"},
		{"app.toml", "title = \"app\" # name\n[database]\nport = 5432\nhosts = [\"a\",\n  \"b\"]\n[database.pool]\nmax = 10\n[[servers]]\nhost = 'x'\n[servers.tls]\non = true\n[[servers]]\nhost = \"\"\"\ny\"\"\"\nopts = {a = 1, b.c = 1979-05-27 07:32:00Z}\n", TOML,
			"title=app@1\ndatabase.port=5432@3\ndatabase.hosts[0]=a@4\ndatabase.hosts[1]=b@5\ndatabase.pool.max=10@7\nservers[0].host=x@9\nservers[0].tls.on=true@11\nservers[1].host=y@13\nservers[1].opts.a=1@15\nservers[1].opts.b.c=1979-05-27 07:32:00Z@15\n"},
		{"my.ini", "; top\nname = x\n[mysql]\nhost = 10.0.0.5 ; primary\nport: 3306\npassword = \"a;b\"\n", INI,
			"name=x@2\nmysql.host=10.0.0.5@4\nmysql.port=3306@5\nmysql.password=a;b@6\n"},
		{"app.properties", "# c\n! c\ndb.url=jdbc:pg://h:5432/x\ndb.user : admin\nmsg hello \\\n  world\nkey\\=x=\\u0041\n", Properties,
			"db.url=jdbc:pg://h:5432/x@3\ndb.user=admin@4\nmsg=hello world@5\nkey=x=A@7\n"},
		{".env", "# c\nexport DB_PORT=5432\nDB_HOST=\"db \\\"x\\\"\"\nEMPTY=\nNAME='a # b'\nX=1 # note\n", Env,
			"DB_PORT=5432@2\nDB_HOST=db \"x\"@3\nEMPTY=@4\nNAME=a # b@5\nX=1@6\n"},
		{".env.production", "A=1\n", Env, "A=1@1\n"},
		// Sniffed: no telling extension.
		{"app.conf", "[server]\nport = 8080\nhost = 0.0.0.0\n", INI, "server.port=8080@2\nserver.host=0.0.0.0@3\n"},
		{"app.conf", "[server]\nport = 8080\nname = \"x\"\n", TOML, "server.port=8080@2\nserver.name=x@3\n"},
		{"app.cfg", "database:\n  port: 5432\n", YAML, "database.port=5432@2\n"},
		{"settings", "DB_PORT=5432\nexport X=1\n", Env, "DB_PORT=5432@1\nX=1@2\n"},
		{"stdin.txt", "{\"a\": {\"b\": [1]}}", JSON, "a.b[0]=1@1\n"},
		{"x.conf", "port = 5432\nname = a b\n", Properties, "port=5432@1\nname=a b@2\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, entries, err := Parse(c.name, c.text)
			if err != nil {
				t.Fatal(err)
			}
			if f != c.format {
				t.Errorf("format %s, want %s", f, c.format)
			}
			if got := flat(entries); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	deepYAML := strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5)
	var deepMap strings.Builder
	for i := range MaxDepth + 2 {
		deepMap.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	deepMap.WriteString(strings.Repeat(" ", MaxDepth+2) + "v: 1\n")
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 'b'; i <= 'k'; i++ {
		prev := string(i - 1)
		bomb += fmt.Sprintf("%c: &%c [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", i, i, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
	}
	many := strings.Repeat("k=v\n", MaxEntries+1)
	for _, c := range []struct {
		name, text string
		err        error
	}{
		{"big.yaml", strings.Repeat("a", MaxBytes+1), ErrTooLarge},
		{"deep.json", deepYAML, ErrTooDeep},
		{"deep.yaml", deepYAML, ErrTooDeep},
		{"deepmap.yaml", deepMap.String(), ErrTooDeep},
		{"deep.toml", "a = " + deepYAML, ErrTooDeep},
		{"deepkey.toml", strings.Repeat("a.", MaxDepth+1) + "a = 1", ErrTooDeep},
		{"bomb.yaml", bomb, ErrTooMany},
		{"many.properties", many, ErrTooMany},
		{"nginx.conf", "server {\n  listen 80;\n}\n", ErrFormat},
		{"notes.txt", "just some words\nand more\n", ErrFormat},
		{"empty.conf", "  \n", ErrFormat},
		{"spaced.conf", "db port = 5432\n", ErrFormat},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Parse(c.name, c.text)
			if !errors.Is(err, c.err) {
				t.Errorf("err %v, want %v", err, c.err)
			}
		})
	}
	for _, c := range []struct{ name, text string }{
		{"bad.json", "{\"a\": }"},
		{"bad.json", "{\"a\": 1} {}"},
		{"bad.json", "42"},
		{"bad.yaml", "a: [1, 2"},
		{"bad.yaml", "just a scalar"},
		{"bad.toml", "a = \"unclosed\n"},
		{"bad.toml", "a = bare words\n"},
		{"bad.toml", "[a\nb = 1\n"},
		{"bad.ini", "[a\nb=1\n"},
		{"bad.ini", "no separator\n"},
		{".env", "not an assignment\n"},
		{".env", "A=\"open\n"},
		{"bad.properties", "k=\\u12\n"},
		{"bin.json", "\x00\x01\x02"},
	} {
		_, _, err := Parse(c.name, c.text)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s %q: err %v, want a SyntaxError", c.name, c.text, err)
		}
	}
}

func TestSegments(t *testing.T) {
	for path, want := range map[string]string{
		"database.port":       "database|port",
		"servers[0].host":     "servers|[0]|host",
		"a[1][2]":             "a|[1]|[2]",
		"DB_PORT":             "DB_PORT",
		"[0]":                 "[0]",
		"weird[key":           "weird[key",
		"servers[0].tls.on":   "servers|[0]|tls|on",
		"mysql.password.hash": "mysql|password|hash",
	} {
		if got := strings.Join(Segments(path), "|"); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
}
