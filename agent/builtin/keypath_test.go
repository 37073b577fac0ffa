package builtin

import (
	"strings"
	"testing"

	"opsassist/internal/confkv"
)

// TestKeyAnswerFileNameInQuestion: the name of the file read, or of
// any configuration file, in the question names no setting: "the
// database port in app.toml" answered "no database port app setting"
// with every port listed.
func TestKeyAnswerFileNameInQuestion(t *testing.T) {
	toml := "[server]\nport = 8082\n\n[database]\nhost = \"db.internal\"\nport = 5434\n\n[cache]\nport = 6380\n"
	for _, c := range []struct {
		name, content, q string
		zh               bool
		want             string
	}{
		{"app.toml", toml, "what's the database port in app.toml?", false, "The database port in app.toml is 5434 (`database.port = 5434`, line 6)."},
		{"app.toml", toml, "数据库端口在 APP.TOML 里是多少", true, "app.toml 里数据库端口是 5434（`database.port = 5434`，第 6 行）。"},
		// Another configuration file named in passing is no setting either.
		{"app.toml", toml, "like in old.yaml, what is the database port?", false, "The database port in app.toml is 5434 (`database.port = 5434`, line 6)."},
		// A name without an extension may be the key asked for.
		{"env", "APP_ENV=prod\nENVIRONMENT=staging\n", "what is the environment in env?", false, "The environment in env is staging (`ENVIRONMENT = staging`, line 2)."},
		{"redis", "redis:\n  port: 6379\nhttp:\n  port: 80\n", "what is the redis port?", false, "The redis port in redis is 6379 (`redis.port = 6379`, line 2)."},
	} {
		if got := describeRead(c.zh, Intent{input: c.q}, c.name, c.content, false); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.q, got, c.want)
		}
	}
}

// TestKeyAnswerNamedPath: a key written as the file writes it is the
// answer, alone, with its value — not every setting that shares its
// words (server.port, not management.server.port too); a key's tail
// names the settings it ends; a secret's value stays hidden; a key no
// setting has leaves the question to its words.
func TestKeyAnswerNamedPath(t *testing.T) {
	props := "server.port=8081\nspring.datasource.url=jdbc:postgresql://db.internal:5432/app\nspring.datasource.password=pw-123456\nspring.redis.port=6379\nmanagement.server.port=9091\n"
	for _, c := range []struct {
		q    string
		zh   bool
		want string
	}{
		{"which port does server.port use in application.properties?", false, "The server.port in application.properties is 8081 (`server.port = 8081`, line 1)."},
		{"application.properties 里 server.port 配的是多少？", true, "application.properties 里 server.port 是 8081（`server.port = 8081`，第 1 行）。"},
		{"what is Management.Server.Port?", false, "The Management.Server.Port in application.properties is 9091 (`management.server.port = 9091`, line 5)."},
		{"redis.port 是多少", true, "application.properties 里 redis.port 是 6379（`spring.redis.port = 6379`，第 4 行）。"},
		{"datasource.password?", false, "application.properties has a datasource.password setting, `spring.datasource.password` (line 3); it is a secret, so its value is not shown."},
		{"what is smtp.port", false, "No smtp port setting found in application.properties.\nThe related settings it has:\n```\nserver.port = 8081  # line 1\nspring.redis.port = 6379  # line 4\nmanagement.server.port = 9091  # line 5\n```\nIts top-level keys: server, spring, management."},
	} {
		got := describeRead(c.zh, Intent{input: c.q}, "application.properties", props, false)
		if got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.q, got, c.want)
		}
		if strings.Contains(got, "pw-123456") {
			t.Errorf("%q: secret shown: %q", c.q, got)
		}
	}
	// Two settings end in the key written: both, with their values.
	yaml := "api:\n  db:\n    port: 5001\nworker:\n  db:\n    port: 5002\n"
	if got, want := describeRead(false, Intent{input: "what is db.port?"}, "c.yaml", yaml, false), "2 settings in c.yaml may be the db.port (best first):\n```\napi.db.port = 5001  # line 3\nworker.db.port = 5002  # line 6\n```"; got != want {
		t.Errorf("two:\n got %q\nwant %q", got, want)
	}
}

// TestPortOfAddressSetting: "X 的端口" of a setting holding an address
// shows the setting's path and value; a secret setting is not read for
// its port.
func TestPortOfAddressSetting(t *testing.T) {
	yaml := "server:\n  http: 127.0.0.1:8080\n  redis_password: \"x:6379\"\n"
	if got, want := describeRead(true, Intent{input: "http 的端口"}, "a.yaml", yaml, false), "a.yaml 里 http 的端口是 8080（`server.http = 127.0.0.1:8080`，第 2 行）。"; got != want {
		t.Errorf("zh:\n got %q\nwant %q", got, want)
	}
	if got := describeRead(false, Intent{input: "redis password port"}, "a.yaml", yaml, false); strings.Contains(got, "6379") {
		t.Errorf("secret read: %q", got)
	}
}

// TestNamedPathLooksForTheLastKeys: of a long question only the last
// maxQuestionGroups keys written are looked for, each once over the
// settings: a key written before them is not, one among them is.
func TestNamedPathLooksForTheLastKeys(t *testing.T) {
	entries := settingsOf([]confkv.Entry{{Path: "server.port", Value: "8081", Line: 1}, {Path: "db.port", Value: "5432", Line: 2}})
	filler := strings.Repeat("no.such_key ", 2000)
	if found, _ := namedPath("server.port "+filler, entries); found != nil {
		t.Errorf("a key before the last %d: %v", maxQuestionGroups, found)
	}
	found, label := namedPath(filler+"db.port "+strings.Repeat("x.y ", maxQuestionGroups-1), entries)
	if len(found) != 1 || found[0].Value != "5432" || label != "db.port" {
		t.Errorf("a key among the last: %v %q", found, label)
	}
}
