package cli

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestExport: export fetches /api/sessions/ID/export?format= over HTTP
// with the token and writes it to stdout or -o PATH; a refusal is the
// server's message; a bad format is a usage error that sends nothing.
func TestExport(t *testing.T) {
	var got []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.RequestURI()+" "+r.Header.Get("Authorization"))
		if strings.Contains(r.URL.Path, "/gone/") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"code":"not_found","message":"conversation not found"}`))
			return
		}
		w.Write([]byte("# 磁盘\n"))
	}))
	defer ts.Close()
	addr := strings.TrimPrefix(ts.URL, "http://")
	env := map[string]string{EnvToolsHTTP: addr, EnvToken: "tok"}
	code, stdout, stderr := runCLIEnv(t, env, "", "export", "3f2a")
	if code != ExitOK || stdout != "# 磁盘\n" {
		t.Fatalf("exit %d %q %q", code, stdout, stderr)
	}
	path := filepath.Join(t.TempDir(), "c.json")
	if code, _, stderr = runCLIEnv(t, env, "", "export", "--format", "json", "-o", path, "3f2a"); code != ExitOK {
		t.Fatalf("-o: exit %d %s", code, stderr)
	}
	if b, _ := os.ReadFile(path); string(b) != "# 磁盘\n" {
		t.Fatalf("file %q", b)
	}
	code, _, stderr = runCLIEnv(t, env, "", "export", "gone")
	if code != ExitError || !strings.Contains(stderr, `no conversation "gone"`) {
		t.Fatalf("refusal: exit %d %q", code, stderr)
	}
	want := []string{"/api/sessions/3f2a/export?format=md Bearer tok", "/api/sessions/3f2a/export?format=json Bearer tok", "/api/sessions/gone/export?format=md Bearer tok"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests:\n%s", strings.Join(got, "\n"))
	}
	for _, args := range [][]string{{"export", "--format", "pdf", "x"}, {"export"}} {
		if code, _, _ := runCLIEnv(t, env, "", args...); code != ExitUsage {
			t.Errorf("%v: exit %d", args, code)
		}
	}
	if len(got) != 3 {
		t.Fatal("a usage error sent a request")
	}
}

// TestREPLExport: /export [md|json] [PATH] fetches the current
// conversation over the connection (SESSION_EXPORT), or over --http,
// to the screen or PATH.
func TestREPLExport(t *testing.T) {
	var got []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.RequestURI())
		w.Write([]byte("# t\n"))
	}))
	defer ts.Close()
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		var p nplt.SessionExportPayload
		fc.ExpectJSON(nplt.SessionExport, &p)
		if p.SessionID != npltfake.Session || p.Format != "md" {
			fc.Fail("export %+v", p)
		}
		fc.Send(nplt.SessionExport, []byte("# over "))
		fc.Send(nplt.SessionExport, []byte("NPLT\n"))
		fc.End()
		fc.ReadUntilEOF()
	})
	var out bytes.Buffer
	r := newTestREPL(t, s, &out)
	ctx, cancel := testContext(t)
	defer cancel()
	r.execute(ctx, "/export")
	if !strings.Contains(out.String(), "# over NPLT\n") {
		t.Fatalf("over NPLT: %s", out.String())
	}
	r.cfg.http = strings.TrimPrefix(ts.URL, "http://")
	path := filepath.Join(t.TempDir(), "c.json")
	r.execute(ctx, "/export")
	r.execute(ctx, "/export json "+path)
	if b, _ := os.ReadFile(path); string(b) != "# t\n" {
		t.Fatalf("file %q", b)
	}
	want := "/api/sessions/" + npltfake.Session + "/export?format=md\n/api/sessions/" + npltfake.Session + "/export?format=json"
	if strings.Join(got, "\n") != want || !strings.Contains(out.String(), "# t\n") {
		t.Fatalf("requests %v, output %s", got, out.String())
	}
}

// TestExportNPLT: without --http, export asks the NPLT server
// (SESSION_EXPORT) with a connection that resumes no conversation, and
// writes the concatenated frames; an unknown (or another user's) id is
// named in the user's language; a server without the feature gets the hint to use
// --http, and nothing is sent.
func TestExportNPLT(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		if h := fc.Handshake(); h.SessionID != "" {
			fc.Fail("resumed %q", h.SessionID)
		}
		var p nplt.SessionExportPayload
		fc.ExpectJSON(nplt.SessionExport, &p)
		if p.SessionID != "3f2a" || p.Format != "json" {
			fc.Fail("export %+v", p)
		}
		fc.Send(nplt.SessionExport, []byte(`{"messages":[],`))
		fc.Send(nplt.SessionExport, []byte(`"uploads":[]}`+"\n"))
		fc.End()
		fc.ReadUntilEOF()
	}, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionExport)
		fc.Error("not_found", `history: conversation not found: "gone"`)
		fc.End()
		fc.ReadUntilEOF()
	}, func(fc *npltfake.Conn) {
		fc.Greet()
		fc.Expect(nplt.Hello)
		fc.SendJSON(nplt.Hello, nplt.HelloReply{Server: "old", SessionID: npltfake.Session})
		fc.ExpectClose()
	}, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionExport)
		fc.Error("not_found", `history: conversation not found: "gone"`)
		fc.End()
		fc.ReadUntilEOF()
	})
	env := map[string]string{EnvServer: s.Addr, EnvSession: "stale"}
	code, stdout, stderr := runCLIEnv(t, env, "", "export", "--format", "json", "3f2a")
	if code != ExitOK || stdout != `{"messages":[],"uploads":[]}`+"\n" {
		t.Fatalf("exit %d %q %q", code, stdout, stderr)
	}
	code, _, stderr = runCLIEnv(t, env, "", "export", "gone")
	// One-shot: the hint names the one-shot command, not the REPL's.
	if code != ExitError || !strings.Contains(stderr, `no conversation "gone" (unknown, deleted, or another user's) — opsassist sessions lists yours`) || strings.Contains(stderr, "history:") {
		t.Fatalf("refusal: exit %d %q", code, stderr)
	}
	code, _, stderr = runCLIEnv(t, env, "", "export", "old")
	if code != ExitError || !strings.Contains(stderr, "--http") {
		t.Fatalf("old server: exit %d %q", code, stderr)
	}
	env["LANG"] = "zh_CN.UTF-8"
	code, _, stderr = runCLIEnv(t, env, "", "export", "gone")
	if code != ExitError || !strings.Contains(stderr, `没有对话 "gone"`) || !strings.Contains(stderr, "opsassist sessions 可列出") {
		t.Fatalf("zh refusal: exit %d %q", code, stderr)
	}
}
