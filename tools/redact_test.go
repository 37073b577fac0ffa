package tools

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestRedact: secrets in arguments are replaced before the user sees
// them; paths, commands and short words are left alone.
func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"command":"cat","args":["/etc/hostname"]}`, ""},
		{`{"command":"mysql","args":["--password=hunter2","-u","root"]}`, `{"args":["--password=***","-u","root"],"command":"mysql"}`},
		{`{"command":"tool","args":["--token","abc"]}`, `{"args":["--token","***"],"command":"tool"}`},
		{`{"command":"curl","args":["-H","Authorization: Bearer abc.def"]}`, `{"args":["-H","Authorization: Bearer ***"],"command":"curl"}`},
		{`{"url":"https://bob:pw@example.com/x"}`, `{"url":"https://bob:***@example.com/x"}`},
		{`{"api_key":"k","name":"n"}`, `{"api_key":"***","name":"n"}`},
		{`{"args":["sk-abcdefghijklmnopqrstuvwx"]}`, `{"args":["***"]}`},
		{`{"args":["AKIAABCDEFGHIJKLMNOP"]}`, `{"args":["***"]}`},
		{`{"args":["PGPASSWORD=s3cr3t psql"]}`, `{"args":["PGPASSWORD=*** psql"]}`},
		{`{"args":["d41d8cd98f00b204e9800998ecf8427e0123"]}`, `{"args":["***"]}`},
		{`{"file_path":"/var/log/nginx/access.log.2024-01-01-0001"}`, ""},
		{`{"file_path":"/usr/share/doc/somepackagename1234567890abcdef"}`, ""},
		{`not json`, ""},
		{`{"command":"mysql -u root -phunter3pw db"}`, `{"command":"mysql -u root -p*** db"}`},
		{`{"command":"mysql","args":["-u","root","-phunter3pw"]}`, `{"args":["-u","root","-p***"],"command":"mysql"}`},
		{`{"command":"ls","args":["-p"]}`, ""},
		{`{"command":"ss -ltnp"}`, ""},
		{`{"command":"mysql -h db -P3306 -pS3cr3t -e 'select 1'"}`, `{"command":"mysql -h db -P3306 -p*** -e 'select 1'"}`},
		{`{"command":"mysql -u root -p'S3cr3t pw' db"}`, `{"command":"mysql -u root -p*** db"}`},
		{`{"command":"/usr/bin/mysqldump -pA -pB db | gzip -p9"}`, `{"command":"/usr/bin/mysqldump -p*** -p*** db | gzip -p9"}`},
		{`{"command":"docker exec -it db mysql -pSECRET"}`, `{"command":"docker exec -it db mysql -p***"}`},
		{`{"command":"find /var/lib/mysql -perm 600 -print"}`, ""},
		{`{"command":"docker run --name mysql -p3306:3306 mysql:8"}`, ""},
		{`{"command":"journalctl -u mysql -p3"}`, ""},
		// A word "mysql" not after an option counts as the client: better
		// to hide a property name than to record a password.
		{`{"command":"systemctl show mysql -pActiveState"}`, `{"command":"systemctl show mysql -p***"}`},
		{`{"command":"mysql -u root -p -e 'select 1'"}`, ""},
		{`{"command":"sudo","args":["mysql","-pSECRET"]}`, `{"args":["mysql","-p***"],"command":"sudo"}`},
		{`{"command":"journalctl","args":["-u","mysql","-p3"]}`, ""},
		// Forms operators type (review 4): scripts, wrappers, nested
		// shells, quoted passwords with separators, redirects.
		{`{"command":"cd /tmp\nmysql -u root -pS3cr3t db"}`, `{"command":"cd /tmp\nmysql -u root -p*** db"}`},
		{`{"command":"mysql -uroot \\\n  -pS3cr3t db"}`, `{"command":"mysql -uroot \\\n  -p*** db"}`},
		{`{"command":"MYSQL_HOST=db timeout 10 mysql -pS3cr3t"}`, `{"command":"MYSQL_HOST=db timeout 10 mysql -p***"}`},
		{`{"command":"sudo -u root mysql -pS3cr3t"}`, `{"command":"sudo -u root mysql -p***"}`},
		{`{"command":"kubectl exec -n prod mysql-0 -- mysql -pS3cr3t"}`, `{"command":"kubectl exec -n prod mysql-0 -- mysql -p***"}`},
		{`{"command":"ssh db 'mysql -u root -pS3cr3t app'"}`, `{"command":"ssh db 'mysql -u root -p*** app'"}`},
		{`{"command":"mysql -uroot -p'Pa$$w0rd&1' db"}`, `{"command":"mysql -uroot -p*** db"}`},
		{`{"command":"mysql -e \"SHOW DATABASES;\" -uroot -pS3cr3t"}`, `{"command":"mysql -e \"SHOW DATABASES;\" -uroot -p***"}`},
		{`{"command":"mysqldump -pS3cr3t>/tmp/x.sql"}`, `{"command":"mysqldump -p***\u003e/tmp/x.sql"}`},
		{`{"command":"mysql -e 'select a -price from t' -P3306"}`, ""},
		{`{"command":"mariadb-admin -pS3cr3t status"}`, `{"command":"mariadb-admin -p*** status"}`},
		{`{"command":"docker","args":["exec","-it","db","mysql","-pS3cr3t"]}`, `{"args":["exec","-it","db","mysql","-p***"],"command":"docker"}`},
		{`{"command":"env","args":["LANG=C","mysql","-pS3cr3t"]}`, `{"args":["LANG=C","mysql","-p***"],"command":"env"}`},
		{`{"command":"pgrep -f mysql -P 1"}`, ""},
		{`{"command":"ps -p 1"}`, ""},
		{`{"args":["glpat-abcdefghijklmnop1234"]}`, `{"args":["***"]}`},
		{`{"args":["-Xsecret_AKIAIOSFODNN7EXAMPLE"]}`, `{"args":["-Xsecret_***"]}`},
	} {
		got := Redact(json.RawMessage(tc.in))
		if string(got) != tc.want {
			t.Errorf("Redact(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestSecretKeyOneRule: SecretKey and the "name=value" form of
// RedactString read one list of names (secretName): the keys the
// review found shown (MYSQL_PWD, pwd, JWT_SIGNING_KEY, ENCRYPTION_KEY,
// access_key, ssh_key, session_key, masterauth, salt) are secrets in
// both; look-alikes are in neither.
func TestSecretKeyOneRule(t *testing.T) {
	for _, k := range []string{"MYSQL_PWD", "pwd", "dbPwd", "JWT_SIGNING_KEY", "ENCRYPTION_KEY", "access_key", "ssh_key", "session_key",
		"masterauth", "requirepass", "salt", "password", "db_pass", "api_key", "apiKey", "private_key", "token", "auth", "Authorization",
		"client_secret", "credentials", "SENTRY_DSN", "passphrase", "master_key"} {
		if !SecretKey(k) {
			t.Errorf("SecretKey(%q) = false", k)
		}
		if got := RedactString(k + "=hunter2x"); got != k+"=***" && k != "Authorization" { // a header: "Authorization: …"
			t.Errorf("RedactString(%s=…) = %q", k, got)
		}
	}
	for _, k := range []string{"PWD", "port", "bypass_rls", "max_tokens", "tokenizer", "author", "keyboard", "passive", "host", "basalt", "monkey"} {
		if SecretKey(k) {
			t.Errorf("SecretKey(%q) = true", k)
		}
		if got := RedactString(k + "=value1"); got != k+"=value1" {
			t.Errorf("RedactString(%s=…) = %q", k, got)
		}
	}
}

// TestRedactStringSpacedSecrets: secrets given after a space (an
// option's next word, Redis directives, redis-cli -a), in a URL without
// a user, in a DSN or SQL are hidden (review 16a, items 6 and 7).
func TestRedactStringSpacedSecrets(t *testing.T) {
	for in, want := range map[string]string{
		"redis-cli -h cache -a RedisPw9 ping":         "redis-cli -h cache -a *** ping",
		"/usr/bin/redis-cli -a 'Redis Pw' info":       "/usr/bin/redis-cli -a *** info",
		"app --db-password hunter3 --port 80":         "app --db-password *** --port 80",
		"redis-server --requirepass R3disPw":          "redis-server --requirepass ***",
		"requirepass OldRedisPw1":                     "requirepass ***",
		"masterauth NewRedisPw2":                      "masterauth ***",
		"CONFIG SET requirepass foo":                  "CONFIG SET requirepass ***",
		"REDIS_URL=redis://:R3disPw@redis:6379/0":     "REDIS_URL=redis://:***@redis:6379/0",
		"ERROR connect redis://:R3disPw@redis:6379/0": "ERROR connect redis://:***@redis:6379/0",
		"ERROR db postgres://app:LogPw123@db:5432/x":  "ERROR db postgres://app:***@db:5432/x",
		"dsn: app:Secr3t@tcp(db:3306)/shop":           "dsn: ***",
		"open app:Secr3t@tcp(db:3306)/shop":           "open app:***@tcp(db:3306)/shop",
		"ALTER USER app WITH PASSWORD 'S3cret'":       "ALTER USER app WITH PASSWORD ***",
		"GRANT ALL ON *.* TO u IDENTIFIED BY \"pw\"":  "GRANT ALL ON *.* TO u IDENTIFIED BY ***",
		"ls -a /tmp":                      "ls -a /tmp",
		"uname -a":                        "uname -a",
		"app --password --verbose":        "app --password --verbose",
		"the password policy was updated": "the password policy was updated",
		"redis-cli ping | grep -a PONG":   "redis-cli ping | grep -a PONG",
	} {
		if got := RedactString(in); got != want {
			t.Errorf("RedactString(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		command string
		args    []string
		want    []string
	}{
		{"redis-cli", []string{"-h", "cache", "-a", "RedisPw9", "ping"}, []string{"-h", "cache", "-a", "***", "ping"}},
		{"docker", []string{"exec", "cache", "redis-cli", "-a", "RedisPw9"}, []string{"exec", "cache", "redis-cli", "-a", "***"}},
		{"redis-server", []string{"--requirepass", "R3disPw"}, []string{"--requirepass", "***"}},
		{"ls", []string{"-a", "/tmp"}, []string{"-a", "/tmp"}},
	} {
		if got := RedactArgs(c.command, c.args); !slices.Equal(got, c.want) {
			t.Errorf("RedactArgs(%s %q) = %q", c.command, c.args, got)
		}
	}
}
