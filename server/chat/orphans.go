package chat

import (
	"fmt"

	"go.uber.org/zap"
)

// RemoveOrphanUploads deletes the uploads on disk that no conversation
// records, and returns how many it deleted. A crash between storing an
// upload and recording it (CommitUpload), or between deleting a
// conversation and removing its uploads, leaves such files; nobody can
// reach them again. Call it at start-up, once History is loaded and
// before any transport serves: an upload being committed exists on disk
// a moment before its record does.
func (s *Service) RemoveOrphanUploads() (int, error) {
	recorded := make(map[string]bool)
	for _, sum := range s.cfg.History.List() {
		conv, err := s.cfg.History.Get(sum.ID)
		if err != nil {
			return 0, fmt.Errorf("chat: listing recorded uploads: %w", err)
		}
		for _, u := range conv.Uploads() {
			recorded[u.FileID] = true
		}
	}
	removed, err := s.cfg.Uploads.Prune(func(id string) bool { return recorded[id] })
	for _, id := range removed {
		s.log.Info("removed an upload no conversation records", zap.String("file_id", id))
	}
	return len(removed), err
}
