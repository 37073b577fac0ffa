package tokens

import (
	"errors"
	"testing"
	"time"
)

func TestIssueLookupExpire(t *testing.T) {
	s := NewStore(0)
	t0 := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	tok, err := s.Issue(Token{Path: "/data/uploads/x/a.txt", Filename: "a.txt", Size: 3, SHA256: "abc"}, t0)
	if err != nil || len(tok.ID) != 32 || !tok.ExpiresAt.Equal(t0.Add(10*time.Minute)) {
		t.Fatal(tok, err)
	}
	for _, at := range []time.Duration{0, time.Minute, 10*time.Minute - time.Nanosecond} {
		if got, err := s.lookup(tok.ID, t0.Add(at)); err != nil || got.Path != tok.Path {
			t.Fatalf("at +%v: %v", at, err)
		}
	}
	if _, err := s.lookup(tok.ID, t0.Add(10*time.Minute)); !errors.Is(err, ErrExpired) {
		t.Fatal(err)
	}
	if _, err := s.lookup("nope", t0); !errors.Is(err, ErrUnknown) {
		t.Fatal(err)
	}
	// Long-expired tokens are forgotten when new ones are issued.
	s.Issue(Token{}, t0.Add(time.Hour))
	if _, err := s.lookup(tok.ID, t0.Add(time.Hour)); !errors.Is(err, ErrUnknown) {
		t.Fatal(err)
	}
	other, _ := s.Issue(Token{}, t0)
	if other.ID == tok.ID {
		t.Fatal("token reused")
	}
}
