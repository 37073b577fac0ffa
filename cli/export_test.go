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
)

// TestExport: export fetches /api/sessions/ID/export?format= over HTTP
// with the token and writes it to stdout or -o PATH; a refusal is the
// server's message; without --http, or with a bad format, it is a usage
// error that sends nothing.
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
	if code != ExitError || !strings.Contains(stderr, "conversation not found") {
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
	if code, _, stderr := runCLIEnv(t, map[string]string{}, "", "export", "x"); code != ExitUsage || !strings.Contains(stderr, "--http") {
		t.Errorf("no --http: exit %d %q", code, stderr)
	}
	if len(got) != 3 {
		t.Fatal("a usage error sent a request")
	}
}

// TestREPLExport: /export [md|json] [PATH] fetches the current
// conversation over --http, to the screen or PATH; without --http it
// says so.
func TestREPLExport(t *testing.T) {
	var got []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.RequestURI())
		w.Write([]byte("# t\n"))
	}))
	defer ts.Close()
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.ReadUntilEOF()
	})
	var out bytes.Buffer
	r := newTestREPL(t, s, &out)
	ctx, cancel := testContext(t)
	defer cancel()
	r.execute(ctx, "/export")
	if !strings.Contains(out.String(), "--http") {
		t.Fatalf("without --http: %s", out.String())
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
