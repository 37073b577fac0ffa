package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/internal/golden"
)

// keyFixtures are realistic configuration files, one per format, each
// with a database port of its own, a password and settings around them.
var keyFixtures = map[string]string{
	"config.yaml":    "# app config\nserver:\n  host: 0.0.0.0\n  port: 8080\n  read_timeout: 15s\ndatabase:\n  host: db.internal\n  port: 5432\n  user: app\n  password: s3cr3t-Pa55\n  pool:\n    max_conns: 20\nservers:\n  - host: a.lan\n    port: 7001\n  - host: b.lan\n    port: 7002\n",
	"my.ini":         "[client]\nport = 3307\n\n[mysqld]\nport = 3306\nbind-address = 10.0.0.5\nuser = mysql\n\n[database]\nport = 5433\npassword = hunter2hunter2\n",
	"app.json":       "{\n  \"db\": {\n    \"host\": \"pg.lan\",\n    \"port\": 6432,\n    \"username\": \"svc\"\n  },\n  \"http\": {\"port\": 80},\n  \"api_token\": \"abc\"\n}\n",
	"app.toml":       "[app]\nname = \"billing\"\n[database]\nhost = \"db-master-01\"\nport = 3306\nuser = \"billing_rw\"\n[redis]\naddr = \"redis-01:6379\"\ndb = 4\n",
	"app.properties": "spring.datasource.url=jdbc:postgresql://db:5432/app\nspring.datasource.username=app\nspring.datasource.password=pw-123456\nserver.port=8081\nspring.datasource.hikari.connection-timeout=30000\n",
	".env":           "DB_HOST=db.lan\nDB_PORT=5434\nDB_PASSWORD=\"p@ss w0rd\"\nAPP_PORT=3000\nREDIS_URL=redis://:tok3n@redis:6379/0\n",
}

func TestKeyAnswers(t *testing.T) {
	for _, c := range []struct {
		file, q string
		zh      bool
		want    string
	}{
		{"config.yaml", "这个配置文件里数据库端口是多少？", true, "config.yaml 里数据库端口是 5432（`database.port = 5432`，第 8 行）。"},
		{"config.yaml", "what is the database port in this file?", false, "The database port in config.yaml is 5432 (`database.port = 5432`, line 8)."},
		{"config.yaml", "What port is the database on?", false, "The database port in config.yaml is 5432 (`database.port = 5432`, line 8)."},
		{"config.yaml", "数据库地址是什么", true, "config.yaml 里数据库地址是 db.internal（`database.host = db.internal`，第 7 行）。"},
		{"config.yaml", "数据库用户名", true, "config.yaml 里数据库用户名是 app（`database.user = app`，第 9 行）。"},
		{"config.yaml", "server 的超时是多少", true, "config.yaml 里 server 超时是 15s（`server.read_timeout = 15s`，第 5 行）。"},
		{"config.yaml", "数据库连接池最大连接数", true, "config.yaml 里数据库连接池连接是 20（`database.pool.max_conns = 20`，第 12 行）。"},
		// Only the settings that name the question's words as written:
		// server.host is not the servers' host.
		{"config.yaml", "what is servers host?", false, "2 settings in config.yaml may be the servers host (best first):\n```\nservers[0].host = a.lan  # line 14\nservers[1].host = b.lan  # line 16\n```"},
		{"my.ini", "mysqld 的端口", true, "my.ini 里 mysqld 端口是 3306（`mysqld.port = 3306`，第 5 行）。"},
		// database.port names the question's words; mysqld.port only
		// one of them as written.
		{"my.ini", "数据库端口是多少", true, "my.ini 里数据库端口是 5433（`database.port = 5433`，第 10 行）。"},
		{"my.ini", "mysql 端口是多少", true, "my.ini 里 mysql 端口是 3306（`mysqld.port = 3306`，第 5 行）。"},
		{"app.json", "db 的端口是多少", true, "app.json 里 db 端口是 6432（`db.port = 6432`，第 4 行）。"},
		{"app.json", "what's the db username", false, "The db username in app.json is svc (`db.username = svc`, line 5)."},
		{"app.toml", "数据库端口", true, "app.toml 里数据库端口是 3306（`database.port = 3306`，第 5 行）。"},
		{"app.toml", "redis db", false, "The redis db in app.toml is 4 (`redis.db = 4`, line 9)."},
		{"app.properties", "server port", false, "The server port in app.properties is 8081 (`server.port = 8081`, line 4)."},
		{"app.properties", "连接超时", true, "app.properties 里连接超时是 30000（`spring.datasource.hikari.connection-timeout = 30000`，第 5 行）。"},
		{".env", "数据库端口", true, ".env 里数据库端口是 5434（`DB_PORT = 5434`，第 2 行）。"},
		{".env", "what is the app port", false, "The app port in .env is 3000 (`APP_PORT = 3000`, line 4)."},
	} {
		got := describeRead(c.zh, Intent{input: c.q}, c.file, keyFixtures[c.file], false)
		if got != c.want {
			t.Errorf("%s %q:\n got %q\nwant %q", c.file, c.q, got, c.want)
		}
	}
}

// TestKeyAnswerPipedFile: a configuration piped to `opsassist ask`
// (uploaded as stdin.txt) is read for settings by its content; a log
// whose lines would read as YAML keys is not.
func TestKeyAnswerPipedFile(t *testing.T) {
	got := describeRead(true, Intent{input: "数据库端口是多少"}, "stdin.txt", keyFixtures["config.yaml"], false)
	if got != "stdin.txt 里数据库端口是 5432（`database.port = 5432`，第 8 行）。" {
		t.Errorf("piped config: %q", got)
	}
	log := "2024-06-10 11:40:58 ERROR: db port 5432 refused\n2024-06-10 11:41:00 INFO: retry database port\n"
	if got := describeRead(false, Intent{input: "database port"}, "stdin.txt", log, false); !strings.HasPrefix(got, "Relevant lines in stdin.txt") {
		t.Errorf("piped log: %q", got)
	}
}

// TestKeyAnswerSecrets: a secret is named, its value never shown — in a
// single answer, a list and the related settings of a key not found.
func TestKeyAnswerSecrets(t *testing.T) {
	secrets := []string{"s3cr3t-Pa55", "hunter2hunter2", "pw-123456", "p@ss w0rd", "tok3n", "abc\""}
	for _, c := range []struct {
		file, q string
		zh      bool
		want    string
	}{
		{"config.yaml", "数据库密码是什么", true, "config.yaml 里有数据库密码的配置项 `database.password`（第 10 行），它是密码或密钥，值不显示。"},
		{"config.yaml", "what is the database password?", false, "config.yaml has a database password setting, `database.password` (line 10); it is a secret, so its value is not shown."},
		{"my.ini", "密码", true, "my.ini 里有密码的配置项 `database.password`（第 11 行），它是密码或密钥，值不显示。"},
		{"app.properties", "数据库密码", true, ""},
		{".env", "db password", false, ".env has a db password setting, `DB_PASSWORD` (line 3); it is a secret, so its value is not shown."},
		{".env", "redis url", false, "The redis url in .env is redis://:***@redis:6379/0 (`REDIS_URL = redis://:***@redis:6379/0`, line 5)."},
		// Line-based reading (a file not read for settings) hides them too.
		{"notes.md", "数据库密码", true, ""},
		{"notes.md", "what is the db password", false, ""},
		{"app.json", "api token", false, "app.json has a api token setting, `api_token` (line 8); it is a secret, so its value is not shown."},
	} {
		content := keyFixtures[c.file]
		if c.file == "notes.md" {
			content = "db:\n  password: s3cr3t-Pa55\n  port: 1\n"
		}
		got := describeRead(c.zh, Intent{input: c.q}, c.file, content, false)
		if c.file == "notes.md" && !strings.Contains(got, "password: ***") {
			t.Errorf("%s %q: %q", c.file, c.q, got)
		}
		for _, s := range secrets {
			if strings.Contains(got, s) {
				t.Errorf("%s %q shows the secret %q: %q", c.file, c.q, s, got)
			}
		}
		if c.want != "" && got != c.want {
			t.Errorf("%s %q:\n got %q\nwant %q", c.file, c.q, got, c.want)
		}
	}
}

// TestKeyAnswerLayouts: several candidates and a key not found, in both
// languages, as the user sees them (testdata/keyanswers.golden).
func TestKeyAnswerLayouts(t *testing.T) {
	order, err := os.ReadFile("../../testdata/evals/corpus/order-service.yaml")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"order-service.yaml": string(order), "config.yaml": keyFixtures["config.yaml"]}
	var b strings.Builder
	for _, c := range []struct {
		file, q string
		zh      bool
	}{
		{"order-service.yaml", "这个配置文件里数据库端口是多少？", true},
		{"order-service.yaml", "what is the database port?", false},
		{"order-service.yaml", "数据库主库的地址", true},
		{"order-service.yaml", "kafka brokers", false},
		{"order-service.yaml", "日志级别", true},
		{"order-service.yaml", "what is the smtp port?", false},
		{"config.yaml", "端口", true},
		{"config.yaml", "redis 端口是多少", true},
		{"config.yaml", "what is the redis port?", false},
	} {
		b.WriteString("## " + c.file + ": " + c.q + "\n" + describeRead(c.zh, Intent{input: c.q}, c.file, files[c.file], false) + "\n\n")
	}
	golden.Check(t, filepath.Join("testdata", "keyanswers.golden"), b.String(), *update)
}

// TestKeyAnswerHostileFiles: files that are too large, too deep,
// malformed or binary fall back to the line-based answer without
// failing; none shows a secret or panics.
func TestKeyAnswerHostileFiles(t *testing.T) {
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	var nested strings.Builder
	for i := range 200 {
		nested.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nport: 1\n"
	for name, content := range map[string]string{
		"huge.yaml":   strings.Repeat("key: value\n", 200000),
		"deep.json":   deep,
		"deep.yaml":   nested.String() + strings.Repeat(" ", 200) + "port: 1\n",
		"bomb.yaml":   bomb,
		"broken.yaml": "database:\n  port: [5432\n",
		"broken.json": "{\"database\": {\"port\": 5432,}",
		"binary.ini":  "\x00\x01\x02port=\xff\xfe",
		"nginx.conf":  "server {\n  listen 8080;\n  # database port 5432\n}\n",
	} {
		for _, zh := range []bool{true, false} {
			got := describeRead(zh, Intent{input: "数据库端口是多少"}, name, content, false)
			if got == "" {
				t.Errorf("%s: no answer", name)
			}
		}
	}
}

// TestKeyAnswerSpring: a Spring file's logger levels are its log level
// settings, and its datasource is the database, whose port its JDBC URL
// holds (review 16a, item 11).
func TestKeyAnswerSpring(t *testing.T) {
	props := "spring.datasource.url=jdbc:postgresql://app:JdbcPw1@db.internal:5432/shop\nspring.datasource.password=Pw2\nlogging.level.root=WARN\nlogging.level.org.hibernate=DEBUG\nserver.port=8081\n"
	for _, c := range []struct {
		q    string
		zh   bool
		want string
	}{
		{"log level?", false, "2 settings in application.properties may be the log level (best first):\n```\nlogging.level.root = WARN  # line 3\nlogging.level.org.hibernate = DEBUG  # line 4\n```"},
		{"日志级别", true, "application.properties 里有 2 个配置项可能是日志级别（最相关的在前）：\n```\nlogging.level.root = WARN  # 第 3 行\nlogging.level.org.hibernate = DEBUG  # 第 4 行\n```"},
		{"数据库端口是多少", true, "application.properties 里数据库端口是 5432（`spring.datasource.url = jdbc:postgresql://app:***@db.internal:5432/shop`，第 1 行）。"},
		{"what is the database port?", false, "The database port in application.properties is 5432 (`spring.datasource.url = jdbc:postgresql://app:***@db.internal:5432/shop`, line 1)."},
		{"server port", false, "The server port in application.properties is 8081 (`server.port = 8081`, line 5)."},
	} {
		got := describeRead(c.zh, Intent{input: c.q}, "application.properties", props, false)
		if got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.q, got, c.want)
		}
		if strings.Contains(got, "JdbcPw1") || strings.Contains(got, "Pw2") {
			t.Errorf("%q shows a secret: %q", c.q, got)
		}
	}
}

// TestKeyLabelKeepsKey: "signing key" and "api-key" are named whole in
// the answer (review 16a, item 19: "The signing in .env").
func TestKeyLabelKeepsKey(t *testing.T) {
	env := "JWT_SIGNING_KEY=x1\nAPI_KEY=x2\nPORT=80\n"
	for q, want := range map[string]string{
		"what's the signing key": ".env has a signing key setting, `JWT_SIGNING_KEY` (line 1); it is a secret, so its value is not shown.",
		"what's the api-key":     ".env has a api key setting, `API_KEY` (line 2); it is a secret, so its value is not shown.",
		"which key is the port":  "The port in .env is 80 (`PORT = 80`, line 3).",
	} {
		if got := describeRead(false, Intent{input: q}, ".env", env, false); got != want {
			t.Errorf("%q:\n got %q\nwant %q", q, got, want)
		}
	}
}

// TestKeyAnswerPortMapping: docker-compose's "5433:5432" is said as a
// host port and a container port (review 16a, item 20).
func TestKeyAnswerPortMapping(t *testing.T) {
	c := "services:\n  db:\n    image: postgres:16\n    ports:\n      - \"5433:5432\"\n  web:\n    ports: [\"127.0.0.1:8080:80/tcp\"]\n"
	for _, tc := range []struct {
		q    string
		zh   bool
		want string
	}{
		{"数据库端口是多少", true, "docker-compose.yml 里数据库端口：主机端口 5433 映射到容器端口 5432（`services.db.ports[0] = 5433:5432`，第 5 行）。"},
		{"what is the db port", false, "The db port in docker-compose.yml: host port 5433 maps to container port 5432 (`services.db.ports[0] = 5433:5432`, line 5)."},
		{"web port", false, "The web port in docker-compose.yml: host port 8080 maps to container port 80 (`services.web.ports[0] = 127.0.0.1:8080:80/tcp`, line 7)."},
	} {
		if got := describeRead(tc.zh, Intent{input: tc.q}, "docker-compose.yml", c, false); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.q, got, tc.want)
		}
	}
}
