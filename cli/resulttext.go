package cli

import (
	"fmt"
	"regexp"
	"strings"

	"opsassist/client"
)

// The REPL's command results the server words in both languages (its
// plain NPLT text, which stays as it is for other clients): resultText
// says them in the CLI's language from the RESULT's data.

// sessionResult is a KindSession result's data.
type sessionResult struct {
	SessionID string `json:"session_id"`
	Title     string `json:"title"`
	Model     string `json:"model"`
	// Action is what the command did (new, switch, rename, delete);
	// servers before it had only the text to say so.
	Action  string `json:"action"`
	Deleted *struct {
		SessionID string `json:"session_id"`
		Title     string `json:"title"`
	} `json:"deleted"`
}

// deletedText is the server's text for a deleted conversation; the data
// is the current one, so the deleted id and title come from the text.
var deletedText = regexp.MustCompile(`^已删除会话 Deleted session: \[([^\]]*)\] (.*); 当前会话 current: (\S+)$`)

// resultText is a KindSession, KindCleared or KindHistory result in the
// CLI's language; ok is false for another result, or one whose text it
// does not know (a newer server's), which is then shown as sent.
func (c *CLI) resultText(res client.Result) (string, bool) {
	say := c.say
	switch res.Kind {
	case client.KindCleared:
		return say("对话已清空", "Conversation cleared."), true
	case client.KindHistory:
		return c.historyText(res), strings.HasPrefix(res.Text, historyHead)
	case client.KindSession:
	default:
		return "", false
	}
	var s sessionResult
	if res.Decode(&s) != nil {
		return "", false
	}
	title := c.titleText(s.Title)
	t := strings.TrimSpace(res.Text)
	switch s.Action {
	case "new":
		return fmt.Sprintf(say("已创建新对话：%s", "New conversation: %s"), s.SessionID), true
	case "switch":
		return fmt.Sprintf(say("已切换到对话：[%s] %s\n模型：%s", "Switched to conversation: [%s] %s\nModel: %s"), shortID(s.SessionID), title, s.Model), true
	case "rename":
		return fmt.Sprintf(say("已重命名对话：[%s] %s", "Renamed conversation: [%s] %s"), shortID(s.SessionID), title), true
	case "delete":
		if s.Deleted != nil {
			dt := c.titleText(s.Deleted.Title)
			return fmt.Sprintf(say("已删除对话：[%s] %s；当前对话：%s", "Deleted conversation: [%s] %s; current: %s"), shortID(s.Deleted.SessionID), dt, shortID(s.SessionID)), true
		}
	}
	// An older server: its text says what happened.
	switch {
	case strings.HasPrefix(t, "已创建新会话"):
		return fmt.Sprintf(say("已创建新对话：%s", "New conversation: %s"), s.SessionID), true
	case strings.HasPrefix(t, "已切换到会话"):
		return fmt.Sprintf(say("已切换到对话：[%s] %s\n模型：%s", "Switched to conversation: [%s] %s\nModel: %s"), shortID(s.SessionID), title, s.Model), true
	case strings.HasPrefix(t, "已重命名会话"):
		return fmt.Sprintf(say("已重命名对话：[%s] %s", "Renamed conversation: [%s] %s"), shortID(s.SessionID), title), true
	case deletedText.MatchString(t):
		m := deletedText.FindStringSubmatch(t)
		dt := m[2]
		if dt == "新会话 new session" {
			dt = c.titleText("")
		}
		return fmt.Sprintf(say("已删除对话：[%s] %s；当前对话：%s", "Deleted conversation: [%s] %s; current: %s"), m[1], dt, m[3]), true
	}
	return "", false
}
