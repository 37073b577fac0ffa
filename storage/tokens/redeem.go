package tokens

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// ErrFileGone means the file a token was issued for can no longer be
// opened at its path (removed, or unreadable). The open error is wrapped
// too (fs.ErrNotExist for a file that was removed).
var ErrFileGone = errors.New("tokens: file gone since the token was issued")

// Claim is one request to redeem a download token.
type Claim struct {
	// ID is the token's id.
	ID string
	// MaySee, if set, reports whether the requester may see the
	// conversation the token was issued in. A token issued in one it may
	// not see is as good as unknown to it (ErrUnknown). Nil: any holder
	// of the token may redeem it.
	MaySee func(sessionID string) bool
	// Principal is the requester's principal id: a token whose Owner it
	// is passes without MaySee. Empty: only MaySee decides.
	Principal string
	// Check, if set, vets the live token, after MaySee and before its
	// file is opened; a non-nil error is returned as it is (RDT refuses
	// a token for another file than the client expects).
	Check func(Token) error
}

// Grant is a redeemed token: the token and its file, opened and checked
// to be the very file the token was issued for. The caller reads File
// and closes it.
type Grant struct {
	Token
	// File is the token's file, open for reading at offset 0.
	File *os.File
	// Info describes File.
	Info fs.FileInfo
}

// Redeem is the one check every transport makes before it serves a
// download: the token must be known and live at now (ErrUnknown,
// ErrExpired), visible to the requester (its Owner, or c.MaySee; else
// ErrUnknown),
// pass c.Check, and its path must still be the very file it was issued
// for (Token.open: no link, same size, device and inode; else
// ErrFileChanged, or ErrFileGone when it cannot be opened at all). A
// token may be redeemed any number of times until it expires.
//
// Every error matches exactly one of ErrUnknown, ErrExpired,
// ErrFileChanged and ErrFileGone, or is c.Check's; each transport maps
// them to its own wire code. With c.Check's error, ErrFileChanged and
// ErrFileGone the Grant still carries the Token (and no File), so the
// caller can say which file it was; with the others it is empty.
func (s *Store) Redeem(c Claim, now time.Time) (Grant, error) {
	tok, err := s.lookup(c.ID, now)
	if err != nil {
		return Grant{}, err
	}
	owner := tok.Owner != "" && tok.Owner == c.Principal
	if c.MaySee != nil && !owner && !c.MaySee(tok.SessionID) {
		return Grant{}, ErrUnknown
	}
	if c.Check != nil {
		if err := c.Check(tok); err != nil {
			return Grant{Token: tok}, err
		}
	}
	f, st, err := tok.open()
	switch {
	case errors.Is(err, ErrFileChanged):
		return Grant{Token: tok}, err
	case err != nil:
		return Grant{Token: tok}, fmt.Errorf("%w: %s: %w", ErrFileGone, tok.Filename, err)
	}
	return Grant{Token: tok, File: f, Info: st}, nil
}
