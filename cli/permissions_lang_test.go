package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode"

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// langRequest is a permission request whose reason comes in each
// language, as the server sends it.
func langRequest(now time.Time) api.PermissionRequest {
	why := api.Text{Zh: "运维命令 systemctl restart nginx 需要你确认后才会执行。", En: "The operator command systemctl restart nginx runs only once you confirm it."}
	return api.PermissionRequest{RequestID: "req-1", Tool: "command_executor",
		Args: json.RawMessage(`{"command":"systemctl","args":["restart","nginx"]}`), Risk: "dangerous",
		Reason: why.Both(), ReasonZh: why.Zh, ReasonEn: why.En,
		Options: []string{api.DecisionAllowOnce, api.DecisionAllowSession, api.DecisionDeny}, ExpiresAt: now.Add(65 * time.Second).UTC().Format(time.RFC3339)}
}

// hasHan reports whether s holds a Han character.
func hasHan(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
}

// hasEnglish reports whether s holds an English word of three letters
// or more outside the tool's name and arguments (which stay as they are).
func hasEnglish(s string) bool {
	for _, keep := range []string{"command_executor", "systemctl", "restart", "nginx", "command", "args", "--yes"} {
		s = strings.ReplaceAll(s, keep, "")
	}
	n := 0
	for _, r := range s {
		if r < unicode.MaxASCII && unicode.IsLetter(r) {
			n++
			if n >= 3 {
				return true
			}
			continue
		}
		n = 0
	}
	return false
}

// TestPermissionPromptInTheLocale: a zh-locale CLI shows the permission
// prompt, its choices and the answer only in Chinese, the reason's
// Chinese text; an en one only in English.
func TestPermissionPromptInTheLocale(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, zh := range []bool{true, false} {
		p := langRequest(now)
		out := PermissionPrompt(p, now, zh) + permissionChoices(zh) + "\n"
		for _, d := range []string{api.DecisionAllowOnce, api.DecisionAllowSession, api.DecisionDeny} {
			out += decisionLine(d, zh) + "\n"
		}
		name := "permission_prompt_en"
		if zh {
			name = "permission_prompt_zh"
		}
		golden(t, name, []byte(out))
		if zh && hasEnglish(out) || !zh && hasHan(out) {
			t.Errorf("%s mixes languages:\n%s", name, out)
		}
	}
}

// TestPermissionPromptOldServer: a server that sends only the combined
// reason (no reason_zh, reason_en) still has it shown, whole.
func TestPermissionPromptOldServer(t *testing.T) {
	p := langRequest(time.Now())
	p.ReasonZh, p.ReasonEn = "", ""
	for _, zh := range []bool{true, false} {
		if out := PermissionPrompt(p, time.Now(), zh); !strings.Contains(out, p.Reason) {
			t.Errorf("zh=%v: %q lacks the reason %q", zh, out, p.Reason)
		}
	}
}

// TestAskPermissionInTheLocale: "opsassist ask" under LANG=zh_CN asks
// in Chinese only, under LANG=C in English only, each with the reason
// in its language.
func TestAskPermissionInTheLocale(t *testing.T) {
	for _, tc := range []struct{ lang, want, not string }{
		{"zh_CN.UTF-8", "运维命令 systemctl restart nginx 需要你确认后才会执行。", "The operator command"},
		{"C", "The operator command systemctl restart nginx runs only once you confirm it.", "运维命令"},
	} {
		decisions := make(chan string, 1)
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Expect(nplt.ChatText)
			fc.Status(api.StatusStreamStart, "", npltfake.Session)
			fc.SendJSON(nplt.PermissionRequest, langRequest(time.Now()))
			var resp api.PermissionResponse
			fc.ExpectJSON(nplt.PermissionResponse, &resp)
			decisions <- resp.Decision
			fc.Text("done")
			fc.End()
			fc.ReadUntilEOF()
		})
		code, _, stderr := runCLIEnv(t, map[string]string{EnvServer: s.Addr, "LANG": tc.lang}, "", "ask", "--yes", "restart nginx")
		if code != ExitOK || <-decisions != api.DecisionAllowOnce {
			t.Fatalf("LANG=%s: exit %d: %s", tc.lang, code, stderr)
		}
		prompt := stderr[strings.Index(stderr, "⚠"):]
		if !strings.Contains(prompt, tc.want) || strings.Contains(prompt, tc.not) {
			t.Errorf("LANG=%s: prompt %q", tc.lang, prompt)
		}
		if tc.lang == "C" && hasHan(prompt) || tc.lang != "C" && hasEnglish(prompt) {
			t.Errorf("LANG=%s: prompt mixes languages: %q", tc.lang, prompt)
		}
	}
}

// TestQuestionPromptInTheLocale: the ask_user question's labels, hint
// and outcome come in the CLI's locale only; the question and its
// options are the model's, as they are.
func TestQuestionPromptInTheLocale(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	q := api.Question{RequestID: "q1", Question: "Which host?", Kind: api.QuestionChoice, AllowCustom: true, Default: "web",
		Options:   []api.QuestionOption{{ID: "web", Label: "web", Recommended: true}, {ID: "db", Label: "db"}},
		ExpiresAt: now.Add(65 * time.Second).UTC().Format(time.RFC3339)}
	for _, zh := range []bool{true, false} {
		out := QuestionPrompt(q, now, zh) + questionHint(q, zh) + "\n" + notAnswered(zh) + "\n"
		name := "question_prompt_en"
		if zh {
			name = "question_prompt_zh"
		}
		golden(t, name, []byte(out))
		if zh && hasEnglish(strings.NewReplacer("Which host?", "", "web", "", "db", "", "id", "").Replace(out)) || !zh && hasHan(out) {
			t.Errorf("%s mixes languages:\n%s", name, out)
		}
	}
}
