package history

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrBadCursor means a paging cursor was not made by Cursor.String.
var ErrBadCursor = errors.New("history: bad paging cursor")

// cursorPrefix starts every encoded cursor; a conversation id (a UUID)
// never does, so a cursor and an id cannot be confused.
const cursorPrefix = "c1."

// Compare orders summaries as List does: most recently updated first,
// then by id. It is a strict total order, so a page boundary stays put
// while conversations change.
func Compare(a, b Summary) int {
	if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// Sort sorts list in Compare's order.
func Sort(list []Summary) { slices.SortFunc(list, Compare) }

// Cursor is a position in a list in Compare's order: the last
// conversation of a page, by the values it had then. The next page is
// every conversation after it in the order, so a walk of pages shows each
// conversation not updated meanwhile exactly once — never skipped, never
// repeated, whatever else is added, updated or deleted. One updated
// during the walk moves before the cursor: the walk does not show it
// again (nor, if it had not come yet, at all); the next walk shows it
// first.
type Cursor struct {
	UpdatedAt time.Time
	ID        string
}

// CursorAt is the cursor just past s.
func CursorAt(s Summary) Cursor { return Cursor{UpdatedAt: s.UpdatedAt, ID: s.ID} }

// String encodes c as an opaque token for clients.
func (c Cursor) String() string {
	// Seconds and nanoseconds, not UnixNano: that is undefined outside
	// the years 1678–2262, and a zero or damaged time must round-trip.
	raw := strconv.FormatInt(c.UpdatedAt.Unix(), 10) + ":" + strconv.Itoa(c.UpdatedAt.Nanosecond()) + "." + c.ID
	return cursorPrefix + base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// IsCursor reports whether s looks like an encoded cursor (and not a
// conversation id).
func IsCursor(s string) bool { return strings.HasPrefix(s, cursorPrefix) }

// ParseCursor decodes a cursor made by String.
func ParseCursor(s string) (Cursor, error) {
	rest, ok := strings.CutPrefix(s, cursorPrefix)
	if !ok {
		return Cursor{}, ErrBadCursor
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return Cursor{}, fmt.Errorf("%w: %w", ErrBadCursor, err)
	}
	ns, id, ok := strings.Cut(string(raw), ".")
	if !ok || id == "" {
		return Cursor{}, ErrBadCursor
	}
	secs, nanos, ok := strings.Cut(ns, ":")
	if !ok {
		// The first form: nanoseconds since 1970.
		n, err := strconv.ParseInt(ns, 10, 64)
		if err != nil {
			return Cursor{}, fmt.Errorf("%w: %w", ErrBadCursor, err)
		}
		return Cursor{UpdatedAt: time.Unix(0, n), ID: id}, nil
	}
	sec, err := strconv.ParseInt(secs, 10, 64)
	if err != nil {
		return Cursor{}, fmt.Errorf("%w: %w", ErrBadCursor, err)
	}
	nsec, err := strconv.ParseInt(nanos, 10, 64)
	if err != nil || nsec < 0 || nsec >= 1e9 {
		return Cursor{}, ErrBadCursor
	}
	return Cursor{UpdatedAt: time.Unix(sec, nsec), ID: id}, nil
}

// after reports whether s comes after c in Compare's order.
func (c Cursor) after(s Summary) bool {
	return Compare(Summary{UpdatedAt: c.UpdatedAt, ID: c.ID}, s) < 0
}

// Page returns the conversations of list (in Compare's order) after
// from (nil: from the start), at most limit of them (≤ 0: all), and the
// cursor of the next page, nil on the last one.
func Page(list []Summary, from *Cursor, limit int) (page []Summary, next *Cursor) {
	if from != nil {
		i, _ := slices.BinarySearchFunc(list, *from, func(s Summary, c Cursor) int {
			if c.after(s) {
				return 1
			}
			return -1
		})
		list = list[i:]
	}
	if limit > 0 && len(list) > limit {
		c := CursorAt(list[limit-1])
		return list[:limit], &c
	}
	return list, nil
}
