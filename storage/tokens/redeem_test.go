package tokens

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRedeem issues tokens and redeems them in every way a transport
// meets: each refusal matches its one typed error, and a good token
// yields its opened file.
func TestRedeem(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(path, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	dev, ino := FileID(st)
	s := NewStore(0)
	t0 := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	issue := func(tok Token) string {
		t.Helper()
		tok, err := s.Issue(tok, t0)
		if err != nil {
			t.Fatal(err)
		}
		return tok.ID
	}
	good := issue(Token{Path: path, Filename: "a.txt", Size: 5, SHA256: "abc", SessionID: "s1", Dev: dev, Ino: ino})
	otherSize := issue(Token{Path: path, Filename: "a.txt", Size: 6, SessionID: "s1"})
	gone := issue(Token{Path: filepath.Join(dir, "gone.txt"), Filename: "gone.txt", Size: 5, SessionID: "s1"})
	owned := issue(Token{Path: path, Filename: "a.txt", Size: 5, SessionID: "mcp-1", Owner: "u-ops", Dev: dev, Ino: ino})
	only := func(id string) func(string) bool { return func(sid string) bool { return sid == id } }
	errOther := errors.New("another file")
	all := []error{ErrUnknown, ErrExpired, ErrFileChanged, ErrFileGone, errOther}

	cases := []struct {
		name string
		c    Claim
		at   time.Duration
		want error
	}{
		{"unknown", Claim{ID: "nope"}, 0, ErrUnknown},
		{"expired", Claim{ID: good}, DefaultTTL, ErrExpired},
		{"expired, whoever asks", Claim{ID: good, MaySee: only("s2")}, DefaultTTL, ErrExpired},
		{"another principal's", Claim{ID: good, MaySee: only("s2")}, 0, ErrUnknown},
		{"owned by another", Claim{ID: owned, MaySee: only("s2"), Principal: "u-eve"}, 0, ErrUnknown},
		{"no principal for an owned one", Claim{ID: owned, MaySee: only("s2")}, 0, ErrUnknown},
		{"refused by the check", Claim{ID: good, Check: func(Token) error { return errOther }}, 0, errOther},
		{"changed", Claim{ID: otherSize}, 0, ErrFileChanged},
		{"gone", Claim{ID: gone}, 0, ErrFileGone},
	}
	for _, c := range cases {
		g, err := s.Redeem(c.c, t0.Add(c.at))
		if g.File != nil {
			g.File.Close()
			t.Errorf("%s: a file was opened", c.name)
		}
		if tokenKept := g.ID != ""; tokenKept != (c.want == ErrFileChanged || c.want == ErrFileGone || c.want == errOther) {
			t.Errorf("%s: grant carries token %q", c.name, g.ID)
		}
		for _, e := range all {
			if errors.Is(err, e) != (e == c.want) {
				t.Errorf("%s: %v, want only %v", c.name, err, c.want)
			}
		}
	}
	if _, err := s.Redeem(Claim{ID: gone}, t0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("gone: %v does not say the file does not exist", err)
	}

	// The owner redeems its token though it sees no conversation "mcp-1".
	if g, err := s.Redeem(Claim{ID: owned, MaySee: only("s2"), Principal: "u-ops"}, t0); err != nil {
		t.Fatalf("owner: %v", err)
	} else {
		g.File.Close()
	}

	checked := false
	g, err := s.Redeem(Claim{ID: good, MaySee: only("s1"), Check: func(tok Token) error { checked = tok.SHA256 == "abc"; return nil }}, t0.Add(DefaultTTL-time.Nanosecond))
	if err != nil || !checked {
		t.Fatalf("good token: %v (checked %v)", err, checked)
	}
	defer g.File.Close()
	b, err := io.ReadAll(g.File)
	if err != nil || string(b) != "hello" || g.Info.Size() != 5 || g.Filename != "a.txt" || g.SessionID != "s1" {
		t.Fatalf("read %q %v, info %v, token %+v", b, err, g.Info, g.Token)
	}
}
