package chat_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// retentionEnv is a Service at now over a history with conversations
// last updated ages ago, newest first; empty ones have no user message.
func retentionEnv(t *testing.T, now time.Time, ages []time.Duration, empty map[int]bool) (*chat.Service, *history.Store, []string) {
	t.Helper()
	dir := t.TempDir()
	h, err := history.Open(filepath.Join(dir, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, age := range ages {
		c := h.NewOwned(now.Add(-age), chat.LocalID)
		m := history.Message{Role: "user", Content: "q", Time: now.Add(-age)}
		if empty[i] {
			m.Role = "assistant"
		}
		if err := c.Append(m); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID())
	}
	s, err := chat.New(chat.Config{History: h, Uploads: u, Agent: scripted{text: "ok"}, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s, h, ids
}

func remaining(h *history.Store) map[string]bool {
	out := map[string]bool{}
	for _, s := range h.List() {
		out[s.ID] = true
	}
	return out
}

func TestRetention(t *testing.T) {
	now := time.Date(2026, 11, 24, 6, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	ages := []time.Duration{1 * time.Hour, 2 * time.Hour, 3 * time.Hour, 40 * day, 50 * day}
	s, h, ids := retentionEnv(t, now, ages, map[int]bool{1: true})
	n, err := s.ApplyRetention(chat.Retention{DropEmpty: true, MaxAge: 30 * day, MaxConversations: 1})
	if err != nil {
		t.Fatal(err)
	}
	left := remaining(h)
	if n != 4 || len(left) != 1 || !left[ids[0]] {
		t.Fatalf("deleted %d, left %v (ids %v)", n, left, ids)
	}
	if n, _ := s.ApplyRetention(chat.Retention{}); n != 0 || len(remaining(h)) != 1 {
		t.Fatal("the zero Retention deleted something")
	}
}

// TestRetentionSparesRunningTurns: a conversation whose turn lock is
// held is neither deleted nor counted as kept.
func TestRetentionSparesRunningTurns(t *testing.T) {
	now := time.Date(2026, 11, 24, 6, 0, 0, 0, time.UTC)
	s, h, ids := retentionEnv(t, now, []time.Duration{time.Hour, 2 * time.Hour, 3 * time.Hour}, nil)
	unlock, err := chat.LockTurn(context.Background(), s, ids[2])
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.ApplyRetention(chat.Retention{MaxConversations: 1})
	unlock()
	left := remaining(h)
	if err != nil || n != 1 || !left[ids[0]] || !left[ids[2]] || left[ids[1]] {
		t.Fatalf("deleted %d (%v), left %v", n, err, left)
	}
}

// TestRunRetentionRunsAtStartAndOnEachTick: RunRetention applies the
// policy at once and on every tick, and returns when ctx ends.
func TestRunRetentionRunsAtStartAndOnEachTick(t *testing.T) {
	now := time.Date(2026, 11, 24, 6, 0, 0, 0, time.UTC)
	s, h, _ := retentionEnv(t, now, []time.Duration{time.Hour, 2 * time.Hour}, nil)
	ticks := make(chan time.Time)
	asked := make(chan time.Duration)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.RunRetention(ctx, chat.Retention{MaxConversations: 1}, time.Hour, func(d time.Duration) <-chan time.Time {
			asked <- d
			return ticks
		})
	}()
	if d := <-asked; d != time.Hour {
		t.Fatalf("interval %v", d)
	}
	if len(remaining(h)) != 1 {
		t.Fatal("not applied at start")
	}
	c := h.NewOwned(now, chat.LocalID)
	c.Append(history.Message{Role: "user", Content: "new", Time: now})
	ticks <- now
	<-asked
	if left := remaining(h); len(left) != 1 || !left[c.ID()] {
		t.Fatalf("not applied on the tick: %v", left)
	}
	cancel()
	<-done
}

// TestRunRetentionPolicyFollowsChanges: a policy that deletes nothing
// runs nothing and sets no timer; Set to one that does applies it at
// once (the interval starting again), Set to the same value wakes
// nothing, and a policy turned off stops the timer.
func TestRunRetentionPolicyFollowsChanges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		now := time.Date(2026, 11, 24, 6, 0, 0, 0, time.UTC)
		s, h, _ := retentionEnv(t, now, []time.Duration{time.Hour, 2 * time.Hour, 3 * time.Hour}, nil)
		p := chat.NewRetentionPolicy(chat.Retention{})
		var timers atomic.Int32
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.RunRetentionPolicy(ctx, p, time.Hour, func(time.Duration) <-chan time.Time {
				timers.Add(1)
				return nil // never fires: only changes wake the loop
			})
		}()
		synctest.Wait()
		if len(remaining(h)) != 3 || timers.Load() != 0 {
			t.Fatalf("a disabled policy ran: %d timers", timers.Load())
		}
		if !p.Set(chat.Retention{MaxConversations: 2}) {
			t.Fatal("Set reported no change")
		}
		synctest.Wait()
		if left := remaining(h); len(left) != 2 || timers.Load() != 1 {
			t.Fatalf("after max 2: %v, %d timers", left, timers.Load())
		}
		if p.Set(chat.Retention{MaxConversations: 2}) {
			t.Fatal("Set of the same policy reported a change")
		}
		synctest.Wait()
		if timers.Load() != 1 {
			t.Fatalf("the same policy ran again: %d timers", timers.Load())
		}
		p.Set(chat.Retention{MaxConversations: 1})
		synctest.Wait()
		if left := remaining(h); len(left) != 1 || timers.Load() != 2 {
			t.Fatalf("after max 1: %v, %d timers", left, timers.Load())
		}
		p.Set(chat.Retention{})
		synctest.Wait()
		if timers.Load() != 2 {
			t.Fatalf("a disabled policy set a timer: %d", timers.Load())
		}
		cancel()
		<-done
	})
}
