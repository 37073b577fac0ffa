package cli

import (
	"testing"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestAskSessionShortPrefix: ask --session with a prefix shorter than
// the server resumes (4 characters) continues the one conversation
// with that prefix, as /switch does.
func TestAskSessionShortPrefix(t *testing.T) {
	const full = "7e469b6b-0000-4000-8000-000000000001"
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.ResumeRefused(npltfake.Session)
		fc.ExpectClose()
	}, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionList)
		fc.Result(client.KindSessionList, client.SessionList{Sessions: []client.SessionInfo{{SessionID: full}, {SessionID: "7f00"}}})
		fc.End()
		if f := fc.Expect(nplt.SessionSwitch); string(f.Payload) != `{"session_id":"`+full+`"}` {
			fc.Fail("switch %q", f.Payload)
		}
		fc.Result(client.KindSession, client.SessionInfo{SessionID: full})
		fc.End()
		fc.Expect(nplt.ChatText)
		fc.Status(api.StatusStreamStart, "", full)
		fc.Text("ok")
		fc.End()
		fc.ReadUntilEOF()
	})
	code, stdout, stderr := runCLI(t, s.Addr, "", "ask", "--session", "7e4", "hi")
	if code != ExitOK || stdout != "ok\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestUploadMissingFile: a file that is not there is named plainly, in
// the CLI's language, without package prefixes.
func TestUploadMissingFile(t *testing.T) {
	missing := t.TempDir() + "/nonexistent"
	for _, tc := range []struct{ lang, want string }{
		{"en_US.UTF-8", "opsassist: no such file: " + missing + "\n"},
		{"zh_CN.UTF-8", "opsassist: 找不到文件 " + missing + "\n"},
	} {
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.ReadUntilEOF()
		})
		code, _, stderr := runCLIEnv(t, map[string]string{EnvServer: s.Addr, "LANG": tc.lang}, "", "upload", missing)
		if code != ExitError || stderr != tc.want {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.lang, code, stderr, tc.want)
		}
	}
}
