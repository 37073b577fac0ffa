package chat

import (
	"strings"

	"opsassist/storage/history"
)

// MaxSearchBytes is how much message text one Search reads at most
// (32 MiB): the cost of a search is bounded however large the history.
const MaxSearchBytes = 32 << 20

// Search returns the saved conversations who may see whose title or
// user or assistant messages contain q, ignoring case, most recently
// updated first. It reads at most budget bytes of message text (≤ 0:
// MaxSearchBytes); complete is false when it stopped there, so older
// conversations may match too.
func (s *Service) Search(who Principal, q string, budget int64) (list []history.Summary, complete bool) {
	if budget <= 0 {
		budget = MaxSearchBytes
	}
	lq := strings.ToLower(q)
	var read int64
	for _, sum := range s.List(who) {
		if read >= budget {
			return list, false
		}
		c, err := s.cfg.History.Get(sum.ID)
		if err != nil {
			continue // deleted meanwhile
		}
		ok, n := c.Matches(lq, budget-read)
		read += n
		if ok {
			list = append(list, c.Summary())
		} else if read >= budget {
			return list, false // this one may match further on
		}
	}
	return list, true
}
