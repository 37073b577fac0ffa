package chat_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
)

// bilingual is an Agent that asks once, with a reason in each language.
type bilingual struct{ why api.Text }

func (a bilingual) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	_, err := r.Confirm(ctx, chat.Confirmation{Tool: "probe", Args: json.RawMessage(`{}`), Risk: "sensitive", Reason: a.why.Both(), ReasonText: a.why})
	return nil, err
}

// TestPermissionRequestReasonInEachLanguage: the permission request
// carries the reason in both languages at once (reason, what old
// clients show) and in each alone (reason_zh, reason_en); a reason in
// one text only leaves the two out of the JSON.
func TestPermissionRequestReasonInEachLanguage(t *testing.T) {
	why := api.Text{Zh: "需要确认。", En: "It needs your confirmation."}
	for _, tc := range []struct {
		why  api.Text
		want string
	}{
		{why, `"reason":"需要确认。It needs your confirmation.","reason_zh":"需要确认。","reason_en":"It needs your confirmation."`},
		{api.Text{}, `"reason":"",`},
	} {
		s := confirmService(t, bilingual{tc.why}, time.Hour)
		se := s.NewSession(api.ClientCLI, chat.Local())
		ctx, cancel := context.WithCancel(context.Background())
		reqs, done := turn(ctx, se, nil)
		req := <-reqs
		cancel()
		<-done
		b, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), tc.want) {
			t.Errorf("request %s lacks %s", b, tc.want)
		}
		if tc.why.IsZero() && (strings.Contains(string(b), "reason_zh") || strings.Contains(string(b), "reason_en")) {
			t.Errorf("request %s has per-language reasons without any", b)
		}
	}
}
