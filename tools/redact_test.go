package tools

import (
	"encoding/json"
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
