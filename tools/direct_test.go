package tools

import (
	"context"
	"testing"
)

// TestDirectCall: a direct call (Call.Direct) the Policy puts at Ask
// runs without anybody being asked, as confirmed, recorded decided by
// "direct" and Direct; a denied one is still refused; an allowed one
// keeps the Policy as its decider, recorded Direct. Without Direct, the
// same Ask with nobody to ask is refused.
func TestDirectCall(t *testing.T) {
	for _, tc := range []struct {
		name      string
		v         Verdict
		direct    bool
		ok        bool
		decidedBy string
		approved  bool
	}{
		{"ask direct", Verdict{Decision: Ask, Reason: "sensitive"}, true, true, DecidedByDirect, true},
		{"ask not direct", Verdict{Decision: Ask, Reason: "sensitive"}, false, false, DecidedByNoClient, false},
		{"deny direct", Verdict{Decision: Deny, Reason: "no", By: DecidedByRule}, true, false, DecidedByRule, false},
		{"allow direct", Verdict{Decision: Allow}, true, true, DecidedByDefault, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &fakeRecorder{}
			r := NewRegistry(Config{Policy: verdictPolicy{tc.v}, Audit: rec})
			var seen bool
			if err := r.Register(approvedProbe{seen: &seen}); err != nil {
				t.Fatal(err)
			}
			call := &Call{User: "alice", Direct: tc.direct}
			if tc.direct {
				call.Confirm = func(context.Context, Confirmation) (Confirmed, error) {
					t.Error("a direct call was asked about")
					return Confirmed{}, nil
				}
			}
			o := r.Execute(context.Background(), call, "probe", `{}`)
			if o.Result.Success != tc.ok || seen != tc.approved {
				t.Fatalf("%+v: ran approved %v", o.Result, seen)
			}
			if len(rec.recs) != 1 {
				t.Fatalf("records %+v", rec.recs)
			}
			if got := rec.recs[0]; got.DecidedBy != tc.decidedBy || got.Direct != tc.direct || got.User != "alice" {
				t.Fatalf("record %+v", got)
			}
		})
	}
}
