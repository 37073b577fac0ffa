package history

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestPageWalkWhileUpdating: walking every page while one conversation
// not yet shown, and one already shown, are updated (moved to the top)
// between pages, and one is added, shows every untouched conversation
// exactly once, in order; the updated ones are never shown twice.
func TestPageWalkWhileUpdating(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var convs []*Conversation
	for i := range 10 {
		c := s.New(base.Add(time.Duration(i%4) * time.Minute)) // ties on updated_at
		if err := c.Append(Message{Role: "user", Content: fmt.Sprint(i), Time: base.Add(time.Duration(i%4) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
		convs = append(convs, c)
	}
	initial := s.List()
	seen := map[string]int{}
	var from *Cursor
	touched := map[string]bool{}
	for pages := 0; ; pages++ {
		if pages > 20 {
			t.Fatal("paging does not end")
		}
		page, next := Page(s.List(), from, 3)
		for _, sum := range page {
			seen[sum.ID]++
		}
		if next == nil {
			break
		}
		// The cursor survives a round trip as the client sees it.
		c, err := ParseCursor(next.String())
		if err != nil || !c.UpdatedAt.Equal(next.UpdatedAt) || c.ID != next.ID {
			t.Fatalf("cursor %v round trip %v %v", next, c, err)
		}
		from = &c
		if pages == 0 {
			// Update the page's last (the cursor's own) and one still to
			// come; add one.
			now := base.Add(time.Hour)
			for _, sum := range []Summary{page[len(page)-1], initial[len(initial)-1]} {
				cv, _ := s.Get(sum.ID)
				cv.Append(Message{Role: "user", Content: "again", Time: now})
				touched[sum.ID] = true
			}
			s.New(now).Append(Message{Role: "user", Content: "new", Time: now})
		}
	}
	for _, sum := range initial {
		n := seen[sum.ID]
		if touched[sum.ID] && n > 1 || !touched[sum.ID] && n != 1 {
			t.Errorf("%s seen %d times (touched %v)", sum.ID, n, touched[sum.ID])
		}
	}
}

// TestParseCursorRefuses: anything String did not make is ErrBadCursor.
func TestParseCursorRefuses(t *testing.T) {
	for _, s := range []string{"", "c1.", "c1.!!", "x1.MTIz", "c1." + "MTIz", "c1.YS5i", "3f2a"} {
		if _, err := ParseCursor(s); !errors.Is(err, ErrBadCursor) {
			t.Errorf("%q: %v", s, err)
		}
	}
}

// FuzzParseCursor: a cursor that parses encodes back to one that parses
// to the same position; nothing panics.
func FuzzParseCursor(f *testing.F) {
	f.Add(Cursor{UpdatedAt: time.Unix(0, 1), ID: "3f2a"}.String())
	f.Add("c1.")
	f.Add("c1.LTEuYQ")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCursor(s)
		if err != nil {
			return
		}
		c2, err := ParseCursor(c.String())
		if err != nil || !c2.UpdatedAt.Equal(c.UpdatedAt) || c2.ID != c.ID {
			t.Fatalf("%q: %+v, again %+v %v", s, c, c2, err)
		}
	})
}

// TestCursorAnyTime: a cursor round-trips a zero time and one far
// outside UnixNano's range, so a limit-1 walk over such conversations
// ends (the review's walk repeated a zero-time one forever).
func TestCursorAnyTime(t *testing.T) {
	far := time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	for _, at := range []time.Time{{}, far, time.Unix(0, 1)} {
		c := Cursor{UpdatedAt: at, ID: "a.b"}
		got, err := ParseCursor(c.String())
		if err != nil || !got.UpdatedAt.Equal(at) || got.ID != "a.b" {
			t.Errorf("%v: ParseCursor(String()) = %+v, %v", at, got, err)
		}
	}
	list := []Summary{{ID: "b", UpdatedAt: far}, {ID: "a", UpdatedAt: far}, {ID: "y"}, {ID: "x"}}
	Sort(list)
	var seen []string
	var from *Cursor
	for range len(list) + 1 {
		page, next := Page(list, from, 1)
		for _, s := range page {
			seen = append(seen, s.ID)
		}
		if next == nil {
			break
		}
		c, err := ParseCursor(next.String())
		if err != nil {
			t.Fatal(err)
		}
		from = &c
	}
	if len(seen) != len(list) {
		t.Errorf("walk saw %q, want each of %d once", seen, len(list))
	}
}
