package builtin

import (
	"os"
	"strings"
	"testing"
)

// TestPortOfAddressKey: "http 的端口" on the real example config answers
// the port of the address the key http holds (it said no http port
// setting existed), with the setting as "key = value" and its line; the
// same in small YAML, INI, .env and JSON files, with the key's port-key
// spellings.
func TestPortOfAddressKey(t *testing.T) {
	example, err := os.ReadFile("../../opsassist.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := describeRead(true, Intent{input: "这个文件里 http 的端口是多少？"}, "opsassist.example.yaml", string(example), false)
	if got != "opsassist.example.yaml 里 http 的端口是 8080（`http = 127.0.0.1:8080`，第 13 行）。" {
		t.Errorf("example zh: %q", got)
	}
	en := describeRead(false, Intent{input: "what is the http port in this file?"}, "opsassist.example.yaml", string(example), false)
	if en != "The http port in opsassist.example.yaml is 8080 (`http = 127.0.0.1:8080`, line 13)." {
		t.Errorf("example en: %q", en)
	}
	for _, c := range []struct{ name, q, content, port, line string }{
		{"a.yaml", "redis 的端口是多少", "redis:\n  host: r\nredis_port: 6380\n", "6380", "`redis_port = 6380`，第 3 行"},
		{"a.ini", "web 的端口", "[main]\nweb.port = 81\n", "81", "`main.web.port = 81`，第 2 行"},
		{"a.env", "api 端口", "# x\nAPI-PORT=9001\n", "9001", "2: API-PORT=9001"},
		{"a.json", "metrics 的端口", "{\n  \"metrics\": \"http://0.0.0.0:9100/metrics\",\n}\n", "9100", "`metrics = http://0.0.0.0:9100/metrics`，第 2 行"},
		{"b.yaml", "grpc 的端口", "grpc: '[::1]:50051'  # listener\n", "50051", "`grpc = [::1]:50051`，第 1 行"},
	} {
		got := describeRead(true, Intent{input: c.q}, c.name, c.content, false)
		// A key that is the port is answered with its path and value;
		// an address with its port.
		if strings.Contains(got, "没有找到") || !strings.Contains(got, c.line) || !strings.Contains(c.line, c.port) {
			t.Errorf("%s %q: %q", c.name, c.q, got)
		}
	}
	// A key that holds no address is not a port.
	if got := describeRead(true, Intent{input: "http 的端口"}, "c.yaml", "http: enabled\nport_range: x\n", false); strings.Contains(got, "的端口是") ||
		!strings.HasPrefix(got, "c.yaml 里没有找到 http 端口的配置项。") {
		t.Errorf("no address: %q", got)
	}
}

func TestSpaceHanLatin(t *testing.T) {
	for in, want := range map[string]string{
		"找到http端口": "找到 http 端口", "数据库端口": "数据库端口", "端口 8080": "端口 8080", "CPU使用率": "CPU 使用率", "a.yaml": "a.yaml",
	} {
		if got := spaceHanLatin(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestPortOfRefusesNonPorts: numbers outside 1–65535, leading zeros and
// a bare number under a key that is not a port key are no port.
func TestPortOfRefusesNonPorts(t *testing.T) {
	for _, v := range []string{"0", "00000", "65536", "99999", "host:0", "host:70000", "http://h:99999/"} {
		if p := portOf(v); p != "" {
			t.Errorf("portOf(%q) = %q, want none", v, p)
		}
	}
	for _, v := range []string{"1", "65535", "db:5432", "[::1]:80", "http://h:8080/x"} {
		if p := portOf(v); p == "" {
			t.Errorf("portOf(%q) = none", v)
		}
	}
	web := wordGroup{"web"}
	if p, _, ok := addressPort("web: 1\n", web); ok {
		t.Errorf("web: 1 → port %q", p)
	}
	if p, _, ok := addressPort("web_port: 8081\n", web); !ok || p != "8081" {
		t.Errorf("web_port: 8081 → %q, %v", p, ok)
	}
}
