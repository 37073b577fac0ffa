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
		{`{"command":"systemctl show mysql -pActiveState"}`, ""},
		{`{"command":"mysql -u root -p -e 'select 1'"}`, ""},
		{`{"command":"sudo","args":["mysql","-pSECRET"]}`, `{"args":["mysql","-p***"],"command":"sudo"}`},
		{`{"command":"journalctl","args":["-u","mysql","-p3"]}`, ""},
		{`{"args":["glpat-abcdefghijklmnop1234"]}`, `{"args":["***"]}`},
		{`{"args":["-Xsecret_AKIAIOSFODNN7EXAMPLE"]}`, `{"args":["-Xsecret_***"]}`},
	} {
		got := Redact(json.RawMessage(tc.in))
		if string(got) != tc.want {
			t.Errorf("Redact(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
