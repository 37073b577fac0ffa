package builtin

import (
	"strings"
	"testing"
)

// leakFiles are the review's repros (review 16a, items 1, 2, 3, 6, 7):
// files whose secrets an answer showed.
var leakFiles = map[string]string{
	"config.yaml":         "database: postgres://admin:Adm1nPw@db.local:5432/prod\n",
	"app.log":             "2024-06-10 11:40:58 ERROR db connect failed: postgres://app:LogPw123@db:5432/x\n2024-06-10 11:41:00 ERROR login failed password=hunter2\n2024-06-10 11:41:01 ERROR cache: redis-cli -a RedisPw9 ping failed\n2024-06-10 11:41:02 ERROR worker --db-password hunter3 exited\n{\"level\":\"error\",\"msg\":\"dial failed\",\"error\":\"redis://:R3disPw@redis:6379/0 refused\"}\n",
	"old.yaml":            "db: {pwd: oldPwd77, port: 1}\n",
	"new.yaml":            "db: {pwd: newPwd88, port: 2}\n",
	".env":                "MYSQL_PWD=EnvPw55\nJWT_SIGNING_KEY=SignKey66\nENCRYPTION_KEY=EncKey77\nREDIS_URL=redis://:R3disPw@redis:6379/0\nSENTRY_DSN=https://SentryKey88@o1.ingest.sentry.io/1\n",
	"redis_old.conf":      "port 6379\nrequirepass OldRedisPw1\nmasterauth OldMasterPw1\n",
	"redis_new.conf":      "port 6380\nrequirepass NewRedisPw2\nmasterauth NewMasterPw2\n",
	"docker-compose.yaml": "services:\n  redis:\n    image: redis:7\n    command: [\"redis-server\", \"--requirepass\", \"ComposePw9\"]\n    ports:\n      - \"6379:6379\"\n  app:\n    args: [\"--password\", \"ArgsPw44\"]\n    secrets: {ssh_key: SshKey33, access_key: AccKey22, salt: Salt11}\n",
	"notes.md":            "cache: REDIS_URL=redis://:NotesPw7@redis:6379/0\nredis-server --requirepass NotesPw8\n",
}

// leakSecrets are the secrets of leakFiles; no answer may show one.
var leakSecrets = []string{"Adm1nPw", "LogPw123", "hunter2", "RedisPw9", "hunter3", "R3disPw", "oldPwd77", "newPwd88", "EnvPw55", "SignKey66",
	"EncKey77", "SentryKey88", "OldRedisPw1", "NewRedisPw2", "OldMasterPw1", "NewMasterPw2", "ComposePw9", "ArgsPw44", "SshKey33", "AccKey22",
	"Salt11", "NotesPw7", "NotesPw8"}

func assertNoSecret(t *testing.T, what, got string) {
	t.Helper()
	for _, s := range leakSecrets {
		if strings.Contains(got, s) {
			t.Errorf("%s shows the secret %q:\n%s", what, s, got)
		}
	}
}

// TestNoSecretThroughAgent: the review's repros, end to end through the
// real agent and tools — a database URL's password in the port
// answer, a log's URL and password=… in its errors answer, a diff of
// pwd keys and of Redis directives.
func TestNoSecretThroughAgent(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		files [][2]string
		q     string
		want  string
	}{
		{[][2]string{{"config.yaml", leakFiles["config.yaml"]}}, "这个配置文件里数据库端口是多少？", "5432"},
		{[][2]string{{"app.log", leakFiles["app.log"]}}, "这个日志里有什么错误？", "5 条错误"},
		{[][2]string{{"old.yaml", leakFiles["old.yaml"]}, {"new.yaml", leakFiles["new.yaml"]}}, "对比这两个配置文件", "db.pwd: *** → ***"},
		{[][2]string{{"redis_old.conf", leakFiles["redis_old.conf"]}, {"redis_new.conf", leakFiles["redis_new.conf"]}}, "对比这两个配置文件", "requirepass ***"},
	} {
		ups := uploadFiles(t, dir, c.files...)
		r, _ := ask(t, newAgent(t, dir), c.q, ups)
		got := r.text.String()
		assertNoSecret(t, c.q, got)
		if !strings.Contains(got, c.want) {
			t.Errorf("%q: answer lacks %q:\n%s", c.q, c.want, got)
		}
	}
}

// TestNoSecretInAnswers: every answer that quotes a file — key
// answers, lists, quoted lines, the beginning of a file, errors, diffs,
// ps rows — hides the secrets of the one rule (tools.RedactString,
// tools.SecretKey, tools.RedactArgs for list items).
func TestNoSecretInAnswers(t *testing.T) {
	for _, c := range []struct{ file, q string }{
		{"config.yaml", "数据库端口是多少"}, {"config.yaml", "database url"}, {"config.yaml", "show me this file"},
		{".env", "mysql pwd"}, {".env", "what's the signing key"}, {".env", "encryption key"}, {".env", "redis url"},
		{".env", "sentry dsn"}, {".env", "redis 端口"}, {".env", "what is in this file"},
		{"docker-compose.yaml", "redis command"}, {"docker-compose.yaml", "app args"}, {"docker-compose.yaml", "ssh key"},
		{"docker-compose.yaml", "access key"}, {"docker-compose.yaml", "salt"}, {"docker-compose.yaml", "redis 端口"},
		{"notes.md", "redis url"}, {"notes.md", "requirepass"}, {"notes.md", "show it"},
		{"app.log", "any errors?"}, {"redis_new.conf", "requirepass"}, {"redis_new.conf", "what does it say"},
	} {
		for _, zh := range []bool{true, false} {
			assertNoSecret(t, c.file+" "+c.q, describeRead(zh, Intent{input: c.q}, c.file, leakFiles[c.file], false))
		}
	}
	for _, pair := range [][2]string{{"old.yaml", "new.yaml"}, {"redis_old.conf", "redis_new.conf"}, {".env", "config.yaml"}, {"docker-compose.yaml", "config.yaml"}} {
		a, b := leakFiles[pair[0]], leakFiles[pair[1]]
		assertNoSecret(t, "diff "+pair[0], describeCompare(false, readFile{Filename: pair[0], Content: &a}, readFile{Filename: pair[1], Content: &b}))
	}
	ps := "USER PID %CPU %MEM COMMAND\nredis 1 9.0 1.0 redis-cli -a RedisPw9 monitor\napp 2 5.0 2.0 app --db-password hunter3\nredis 3 1.0 1.0 redis-server *:6379 --requirepass R3disPw\n"
	got, ok := describeProcesses(false, "top processes", "ps aux", ps)
	if !ok {
		t.Fatal("no process table")
	}
	assertNoSecret(t, "ps", got)
}
