package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

const catalogJSON = `{"tools":[` +
	`{"name":"sys_monitor","description":"System metrics.\nSecond line.","source":"builtin","risk":"read_only","parameters":{"type":"object"},"available":true},` +
	`{"name":"mcp__fs__read_text_file","description":"Read a file\u001b[31m.","source":"mcp:fs","risk":"read_only","parameters":{"type":"object"},"available":false}],` +
	`"servers":[{"name":"fs","state":"ready","restarts":0,"tools":1},{"name":"k8s","state":"unavailable","reason":"exec: not found","restarts":2,"tools":0}]}`

// fakeToolsAPI is the HTTP API's tool endpoints: it wants the bearer
// token "tok", and knows the conversations in sessions.
type fakeToolsAPI struct {
	mu       sync.Mutex
	calls    []string // "name session arguments"
	sessions map[string]bool
}

func (f *fakeToolsAPI) start(t *testing.T) string {
	mux := http.NewServeMux()
	auth := func(w http.ResponseWriter, r *http.Request) bool {
		if r.Header.Get("Authorization") != "Bearer tok" {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"code":"unauthorized","message":"missing or wrong access token"}`)
			return false
		}
		return true
	}
	mux.HandleFunc("GET /api/tools", func(w http.ResponseWriter, r *http.Request) {
		if auth(w, r) {
			io.WriteString(w, catalogJSON+"\n")
		}
	})
	mux.HandleFunc("POST /api/tools/{name}", func(w http.ResponseWriter, r *http.Request) {
		if !auth(w, r) {
			return
		}
		var body struct {
			SessionID string          `json:"session_id"`
			Arguments json.RawMessage `json:"arguments"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		name := r.PathValue("name")
		f.mu.Lock()
		f.calls = append(f.calls, name+" "+body.SessionID+" "+string(body.Arguments))
		known := body.SessionID == "" || f.sessions[body.SessionID]
		f.mu.Unlock()
		switch {
		case name != "sys_monitor" && name != "mcp__fs__read_text_file":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"code":"not_found","message":"no such tool: \"`+name+`\" (GET /api/tools lists them)"}`)
		case !known:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"code":"not_found","message":"no such session"}`)
		case name == "mcp__fs__read_text_file":
			io.WriteString(w, `{"success":true,"output":{"text":"hello\nworld"},"duration_ms":3}`)
		default:
			io.WriteString(w, `{"success":false,"error":"call to sys_monitor denied by policy: no","code":"denied_by_rule","duration_ms":0}`)
		}
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return strings.TrimPrefix(s.URL, "http://")
}

func (f *fakeToolsAPI) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// TestToolsCommand: "opsassist tools" prints the table and the servers,
// control characters of a server's text made harmless; --json prints the
// server's JSON; the address comes from --http or OPSASSIST_TOOLS_HTTP, the
// token from --token; a refused request is exit 1 with the server's
// error.
func TestToolsCommand(t *testing.T) {
	f := &fakeToolsAPI{}
	addr := f.start(t)
	var out, errb bytes.Buffer
	c := &CLI{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return map[string]string{EnvToolsHTTP: addr, EnvToken: "tok"}[k] }}
	ctx, cancel := testContext(t)
	defer cancel()
	if code := c.Run(ctx, []string{"tools"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want := "NAME                     SOURCE   RISK       AVAILABLE                   DESCRIPTION\n" +
		"sys_monitor              builtin  read_only  yes                         System metrics.\n" +
		"mcp__fs__read_text_file  mcp:fs   read_only  no (over limits.max_tools)  Read a file [31m.\n" +
		"\nMCP servers:\n" +
		"  fs: ready, 1 tools, 0 restarts\n" +
		"  k8s: unavailable, 0 tools, 2 restarts — exec: not found\n"
	if out.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	if code := c.Run(ctx, []string{"tools", "--json"}); code != ExitOK || out.String() != catalogJSON+"\n" {
		t.Fatalf("--json: exit %d\n%s", code, out.String())
	}
	// --http overrides the environment; a wrong token is the server's error, in words.
	errb.Reset()
	c.Getenv = func(string) string { return "" }
	if code := c.Run(ctx, []string{"--http", addr, "--token", "wrong", "tools"}); code != ExitError || !strings.Contains(errb.String(), "opsassist: tools: missing or wrong access token") {
		t.Fatalf("wrong token: exit %d %s", code, errb.String())
	}
	if code := c.Run(ctx, []string{"tools", "extra"}); code != ExitUsage {
		t.Fatalf("extra argument: exit %d", code)
	}
}

// TestToolsIgnoresDaemonHTTPEnv: the daemon's OPSASSIST_HTTP (its
// listener), exported in the same shell, does not switch the CLI's tools
// commands to HTTP: they use the NPLT connection; only
// OPSASSIST_TOOLS_HTTP does.
func TestToolsIgnoresDaemonHTTPEnv(t *testing.T) {
	f := &fakeToolsAPI{}
	addr := f.start(t)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ToolList)
		fc.Send(nplt.ToolList, []byte(`{"tools":[{"name":"over_nplt","description":"d","source":"builtin","risk":"read_only","parameters":{},"available":true}],"servers":[]}`))
		fc.End()
		fc.ReadUntilEOF()
	})
	var out, errb bytes.Buffer
	c := &CLI{Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		return map[string]string{EnvServer: s.Addr, "OPSASSIST_HTTP": addr, EnvToken: "tok"}[k]
	}}
	ctx, cancel := testContext(t)
	defer cancel()
	if code := c.Run(ctx, []string{"tools"}); code != ExitOK || !strings.Contains(out.String(), "over_nplt") {
		t.Fatalf("exit %d: %s%s", code, out.String(), errb.String())
	}
}

// TestREPLToolCommands: /tools prints the catalog; /tool NAME JSON calls
// the tool in the current conversation — one the HTTP API does not know
// yet (not saved) is retried outside it — and prints the text or the
// error; bad JSON and an unknown tool are errors, nothing else breaks.
func TestREPLToolCommands(t *testing.T) {
	f := &fakeToolsAPI{}
	addr := f.start(t)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.ReadUntilEOF()
	})
	input := "/tools\n/tool mcp__fs__read_text_file {\"path\":\"a.txt\"}\n/tool sys_monitor\n/tool nope {}\n/tool sys_monitor {bad\n/tool\n/quit\n"
	var out, errb bytes.Buffer
	c := &CLI{Stdin: strings.NewReader(input), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string {
			return map[string]string{EnvServer: s.Addr, EnvToolsHTTP: addr, EnvToken: "tok"}[k]
		},
		Backoff: client.Backoff{Min: time.Microsecond, Max: time.Microsecond}}
	ctx, cancel := testContext(t)
	defer cancel()
	if code := c.Run(ctx, nil); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, w := range []string{"mcp__fs__read_text_file  mcp:fs", "k8s: unavailable", "not saved yet", "hello\nworld\n(mcp__fs__read_text_file: ok, 3 ms)\n",
		"A configured permission rule (permissions.rules) forbids this call of sys_monitor, so it did not run.\n(sys_monitor: failed, 0 ms)\n"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("stdout lacks %q:\n%s", w, out.String())
		}
	}
	for _, w := range []string{"no such tool", "not valid JSON", "usage: /tool NAME"} {
		if !strings.Contains(errb.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, errb.String())
		}
	}
	sess := npltfake.Session
	want := []string{"mcp__fs__read_text_file " + sess + ` {"path":"a.txt"}`, `mcp__fs__read_text_file  {"path":"a.txt"}`,
		"sys_monitor " + sess + " {}", "sys_monitor  {}", "nope " + sess + " {}"}
	if got := f.got(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("calls\n%q\nwant\n%q", got, want)
	}
}

// TestOneLineKeepsCharactersWhole: a cut description never ends in half
// a character (the table showed "…（10 分钟有效），�…").
func TestOneLineKeepsCharactersWhole(t *testing.T) {
	for n := range 40 {
		got := oneLine("准备文件下载：校验路径，生成下载令牌（10 分钟有效）", n)
		if !utf8.ValidString(got) {
			t.Fatalf("oneLine(…, %d) = %q", n, got)
		}
	}
}

// toolsFake answers TOOL_LIST with catalogJSON (in two frames) and
// TOOL_CALL like fakeToolsAPI, recording "name arguments" of each call.
type toolsFake struct {
	mu    sync.Mutex
	calls []string
}

func (f *toolsFake) serve(fc *npltfake.Conn) {
	fc.Handshake()
	for {
		fr, ok := fc.Next()
		if !ok {
			return
		}
		switch fr.Type {
		case nplt.ToolList:
			fc.Send(nplt.ToolList, []byte(catalogJSON[:30]))
			fc.Send(nplt.ToolList, []byte(catalogJSON[30:]))
			fc.End()
		case nplt.ToolCall:
			var p nplt.ToolCallPayload
			if err := json.Unmarshal(fr.Payload, &p); err != nil {
				fc.Fail("TOOL_CALL %q", fr.Payload)
			}
			f.mu.Lock()
			f.calls = append(f.calls, p.Name+" "+string(p.Arguments))
			f.mu.Unlock()
			switch p.Name {
			case "mcp__fs__read_text_file":
				fc.Send(nplt.ToolCall, []byte(`{"success":true,"output":{"text":"hello\nworld"},"duration_ms":3}`))
			case "sys_monitor":
				fc.Send(nplt.ToolCall, []byte(`{"success":false,"error":"call to sys_monitor denied by policy: no","code":"denied_by_rule","duration_ms":0}`))
			default:
				fc.Error("not_found", `no such tool: "`+p.Name+`" (TOOL_LIST (/tools) lists them)`)
			}
			fc.End()
		}
	}
}

func (f *toolsFake) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// TestToolsCommandNPLT: without --http, "opsassist tools" and "opsassist
// tool" use the NPLT connection: the same table and --json as over HTTP;
// tool prints the output, exit 1 for a refused call, an unknown tool or
// bad JSON arguments (exit 2, nothing sent).
func TestToolsCommandNPLT(t *testing.T) {
	f := &toolsFake{}
	s := npltfake.New(t, f.serve, f.serve, f.serve, f.serve, f.serve) // a connection per command
	var out, errb bytes.Buffer
	c := &CLI{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return map[string]string{EnvServer: s.Addr}[k] }}
	ctx, cancel := testContext(t)
	defer cancel()
	if code := c.Run(ctx, []string{"tools"}); code != ExitOK || !strings.Contains(out.String(), "mcp__fs__read_text_file  mcp:fs   read_only  no (over limits.max_tools)") || !strings.Contains(out.String(), "k8s: unavailable, 0 tools, 2 restarts") {
		t.Fatalf("tools: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := c.Run(ctx, []string{"tools", "--json"}); code != ExitOK || out.String() != catalogJSON+"\n" {
		t.Fatalf("--json: exit %d\n%s", code, out.String())
	}
	out.Reset()
	if code := c.Run(ctx, []string{"tool", "mcp__fs__read_text_file", `{"path":"a.txt"}`}); code != ExitOK || out.String() != "hello\nworld\n(mcp__fs__read_text_file: ok, 3 ms)\n" {
		t.Fatalf("tool: exit %d\n%s", code, out.String())
	}
	out.Reset()
	if code := c.Run(ctx, []string{"tool", "sys_monitor"}); code != ExitError || !strings.Contains(out.String(), "A configured permission rule (permissions.rules) forbids this call of sys_monitor, so it did not run.\n(sys_monitor: failed, 0 ms)\n") {
		t.Fatalf("refused tool: exit %d\n%s", code, out.String())
	}
	if code := c.Run(ctx, []string{"tool", "nope", "{}"}); code != ExitError || !strings.Contains(errb.String(), `no such tool: "nope" (opsassist tools lists them)`) {
		t.Fatalf("unknown tool: exit %d\n%s", code, errb.String())
	}
	if code := c.Run(ctx, []string{"tool", "sys_monitor", "{bad"}); code != ExitUsage {
		t.Fatalf("bad JSON: exit %d", code)
	}
	if code := c.Run(ctx, []string{"tool"}); code != ExitUsage {
		t.Fatalf("no name: exit %d", code)
	}
	want := []string{`mcp__fs__read_text_file {"path":"a.txt"}`, "sys_monitor ", "nope {}"}
	if got := f.got(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("calls\n%q\nwant\n%q", got, want)
	}
}

// TestREPLToolCommandsNPLT: without --http, /tools and /tool use the
// REPL's connection; errors are printed and the REPL goes on.
func TestREPLToolCommandsNPLT(t *testing.T) {
	f := &toolsFake{}
	s := npltfake.New(t, f.serve)
	input := "/tools\n/tool mcp__fs__read_text_file {\"path\":\"a.txt\"}\n/tool sys_monitor\n/tool nope {}\n/tool sys_monitor {bad\n/tool\n/quit\n"
	var out, errb bytes.Buffer
	c := &CLI{Stdin: strings.NewReader(input), Stdout: &out, Stderr: &errb,
		Getenv:  func(k string) string { return map[string]string{EnvServer: s.Addr}[k] },
		Backoff: client.Backoff{Min: time.Microsecond, Max: time.Microsecond}}
	ctx, cancel := testContext(t)
	defer cancel()
	if code := c.Run(ctx, nil); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, w := range []string{"mcp__fs__read_text_file  mcp:fs", "k8s: unavailable", "hello\nworld\n(mcp__fs__read_text_file: ok, 3 ms)\n",
		"A configured permission rule (permissions.rules) forbids this call of sys_monitor, so it did not run.\n(sys_monitor: failed, 0 ms)\n"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("stdout lacks %q:\n%s", w, out.String())
		}
	}
	for _, w := range []string{`no such tool: "nope" (/tools lists them)`, "the arguments of sys_monitor are not valid JSON", "usage: /tool NAME"} {
		if !strings.Contains(errb.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, errb.String())
		}
	}
	want := []string{`mcp__fs__read_text_file {"path":"a.txt"}`, "sys_monitor ", "nope {}"}
	if got := f.got(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("calls\n%q\nwant\n%q", got, want)
	}
}

// TestToolDownloadOffer: a direct call of file_download has no
// DOWNLOAD_OFFER; its result is the offer. The REPL's /tool shows it as
// a chat turn's offer is shown (and remembers it for /download); the
// tool command says how to fetch it.
func TestToolDownloadOffer(t *testing.T) {
	const out = `{"transport_mode":"nplt","download_token":"tok123","filename":"app.log","file_size":5,"sha256":"` +
		"0000000000000000000000000000000000000000000000000000000000000000" + `","expires_at":"2026-11-24T05:00:00Z","message":"m"}`
	script := func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ToolCall)
		fc.SendJSON(nplt.ToolCall, api.ToolResult{Success: true, Output: json.RawMessage(out), DurationMS: 1})
		fc.End()
		fc.ReadUntilEOF()
	}
	s := npltfake.New(t, script)
	var stdout, stderr bytes.Buffer
	c := &CLI{Stdin: strings.NewReader("/tool file_download {\"file_path\":\"/var/log/app.log\",\"transport_mode\":\"nplt\"}\n/quit\n"), Stdout: &stdout, Stderr: &stderr,
		Getenv:  func(k string) string { return map[string]string{EnvServer: s.Addr, EnvToken: "tok"}[k] },
		Backoff: client.Backoff{Min: time.Microsecond, Max: time.Microsecond}}
	ctx, cancel := testContext(t)
	defer cancel()
	if code := c.Run(ctx, nil); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "download offered: app.log (5 B) — /download tok123") {
		t.Fatalf("REPL stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}

	s2 := npltfake.New(t, script)
	stdout.Reset()
	stderr.Reset()
	c = &CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return map[string]string{EnvServer: s2.Addr, EnvToken: "tok"}[k] }}
	if code := c.Run(ctx, []string{"tool", "file_download", `{"file_path":"/var/log/app.log"}`}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), `to fetch app.log: opsassist download tok123 -o "app.log"`) || !strings.Contains(stdout.String(), `"download_token": "tok123"`) {
		t.Fatalf("tool stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
}

// TestToolFailureInLocale: a refused direct call is said from its code
// in the CLI's language only — no registry prefix, no English half —
// naming the file; bad JSON arguments and an unknown tool are worded in
// that language too.
func TestToolFailureInLocale(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ToolCall)
		fc.Send(nplt.ToolCall, []byte(`{"success":false,"error":"call to command_executor denied by policy: pathguard: \"/etc/shadow\" 可能含有密钥或口令，不会读取，也不会询问。\"/etc/shadow\" may hold secrets and is never read.","code":"secret_file","duration_ms":0}`))
		fc.End()
		fc.ReadUntilEOF()
	})
	env := map[string]string{EnvServer: s.Addr, "LANG": "zh_CN.UTF-8"}
	code, stdout, _ := runCLIEnv(t, env, "", "tool", "command_executor", `{"command":"cat","args":["/etc/shadow"]}`)
	if want := "\"/etc/shadow\"可能含有密钥或口令，不会读取它，也不会询问（command_executor）。\n（command_executor：失败，0 ms）\n"; code != ExitError || stdout != want {
		t.Errorf("exit %d\nstdout %q\nwant   %q", code, stdout, want)
	}
	code, _, stderr := runCLIEnv(t, env, "", "tool", "command_executor", "{bad")
	if code != ExitUsage || !strings.Contains(stderr, "command_executor 的参数不是有效的 JSON") {
		t.Errorf("bad JSON: exit %d, stderr %q", code, stderr)
	}
	s = npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ToolCall)
		fc.Error("not_found", `no such tool: "nosuch" (TOOL_LIST (/tools) lists them)`)
		fc.End()
		fc.ReadUntilEOF()
	})
	env[EnvServer] = s.Addr
	code, _, stderr = runCLIEnv(t, env, "", "tool", "nosuch")
	if code != ExitError || !strings.Contains(stderr, `没有工具 "nosuch"——opsassist tools 可列出全部工具`) || strings.Contains(stderr, "TOOL_LIST") {
		t.Errorf("unknown tool: exit %d, stderr %q", code, stderr)
	}
}

// TestToolFailureDetail: a direct call whose failure has only a class
// code and an English error shows that error as details in a Chinese
// terminal, once; a code whose text says it all adds nothing.
func TestToolFailureDetail(t *testing.T) {
	var b strings.Builder
	writeToolResult(&b, "command_executor", client.ToolResult{Error: "exit status 2: ls: cannot access '/x': No such file or directory", Code: "execution"}, true, false, `{"command":"ls","args":["/x"]}`)
	if got := b.String(); !strings.Contains(got, "详情：exit status 2: ls: cannot access '/x'") || strings.Count(got, "cannot access") != 1 {
		t.Errorf("execution failure:\n%s", got)
	}
	b.Reset()
	writeToolResult(&b, "command_executor", client.ToolResult{Error: `"/etc/shadow" may hold secrets and is never read.`, Code: "secret_file"}, true, false, `{}`)
	if got := b.String(); strings.Contains(got, "详情") {
		t.Errorf("secret_file adds details:\n%s", got)
	}
}

// TestToolsOneLanguage: /tools and "opsassist tools" show a tool's
// summary in the CLI's language alone, never the bilingual description
// the model reads; a tool without summaries (an MCP tool's) shows its
// description's first line as sent.
func TestToolsOneLanguage(t *testing.T) {
	cat := api.Catalog{Tools: []api.ToolInfo{
		{Name: "command_executor", Source: "builtin", Risk: "sensitive", Available: true,
			Description: "安全地执行白名单系统命令（不经过 shell）。Run one whitelisted system command.\n关键词",
			SummaryZh:   "安全地执行白名单系统命令（不经过 shell）。", SummaryEn: "Run one whitelisted system command."},
		{Name: "mcp__fs__read", Source: "mcp:fs", Risk: "read_only", Available: true, Description: "Read a file.\nMore."},
	}}
	for zh, want := range map[bool][2]string{
		true:  {"安全地执行白名单系统命令（不经过 shell）。\n", "Run one"},
		false: {"Run one whitelisted system command.\n", "安全"},
	} {
		var out bytes.Buffer
		writeCatalog(&out, cat, zh)
		got := out.String()
		if !strings.Contains(got, want[0]) || strings.Contains(got, want[1]) || !strings.Contains(got, "Read a file.\n") || strings.Contains(got, "More.") {
			t.Errorf("zh %v:\n%s", zh, got)
		}
	}
}

// TestToolSchemaFailureInChinese: arguments the schema refused are named
// in a Chinese sentence, without the validator's English; --debug adds
// the raw error (walk-through: "详情：invalid arguments for
// file_download: /: missing property 'file_path'").
func TestToolSchemaFailureInChinese(t *testing.T) {
	res := client.ToolResult{Error: "invalid arguments for file_download: /: missing property 'file_path'", Code: "parameter", DurationMS: 0}
	var b strings.Builder
	writeToolResult(&b, "file_download", res, true, false, `{}`)
	if want := "file_download 的参数有误：缺少参数 file_path，所以没有执行。\n（file_download：失败，0 ms）\n"; b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	writeToolResult(&b, "file_download", res, true, true, `{}`)
	if !strings.Contains(b.String(), "[debug: invalid arguments for file_download: /: missing property 'file_path']") {
		t.Errorf("--debug lacks the raw error:\n%s", b.String())
	}
}

// TestCatalogInTheCLIsLanguage: under zh, /tools printed "NAME SOURCE
// RISK AVAILABLE DESCRIPTION … read_only yes"; the header and the values
// follow the CLI's language, aligned for Chinese, and English is as it
// was.
func TestCatalogInTheCLIsLanguage(t *testing.T) {
	cat := api.Catalog{Tools: []api.ToolInfo{
		{Name: "command_executor", Source: "builtin", Risk: "sensitive", Available: true, SummaryZh: "执行命令。", SummaryEn: "Run a command."},
		{Name: "mcp__fs__read", Source: "mcp:fs", Risk: "read_only", Available: false, Description: "Read a file."},
	}}
	var zh, en bytes.Buffer
	writeCatalog(&zh, cat, true)
	writeCatalog(&en, cat, false)
	wantZh := "名称              来源    风险  可用                         说明\n" +
		"command_executor  内置    敏感  是                           执行命令。\n" +
		"mcp__fs__read     mcp:fs  只读  否（超出 limits.max_tools）  Read a file.\n"
	if zh.String() != wantZh {
		t.Errorf("zh:\n%s\nwant:\n%s", zh.String(), wantZh)
	}
	wantEn := "NAME              SOURCE   RISK       AVAILABLE                   DESCRIPTION\n" +
		"command_executor  builtin  sensitive  yes                         Run a command.\n" +
		"mcp__fs__read     mcp:fs   read_only  no (over limits.max_tools)  Read a file.\n"
	if en.String() != wantEn {
		t.Errorf("en:\n%s\nwant:\n%s", en.String(), wantEn)
	}
}
