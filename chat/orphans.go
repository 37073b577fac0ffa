package chat

import (
	"fmt"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"opsassist/storage/uploads"
)

// OrphanReport is what QuarantineOrphanUploads did.
type OrphanReport struct {
	// Quarantined are the file ids moved to quarantine.
	Quarantined []string
	// Purged are the quarantined uploads deleted after their grace period.
	Purged []string
	// Skipped is set when History lost records at load (Damaged): no
	// upload was judged an orphan.
	Skipped bool
}

// QuarantineOrphanUploads moves the uploads on disk that no conversation
// records into the uploads store's quarantine (uploads.OrphansDir),
// where nothing serves them, and deletes quarantined uploads older than
// uploads.OrphanGrace. A crash between storing an upload and recording it
// (CommitUpload), or between deleting a conversation and removing its
// uploads, leaves such files; nobody can reach them again.
//
// Call it at start-up, once History is loaded and before any transport
// serves, with loaded the moment History began loading: only uploads
// committed before then are judged, as a record of a later one cannot be
// in what was loaded. If History skipped damaged lines (one may have
// recorded an upload), nothing is quarantined and Skipped is set; a
// warning says so.
func (s *Service) QuarantineOrphanUploads(loaded time.Time) (OrphanReport, error) {
	var rep OrphanReport
	purged, err := s.cfg.Uploads.PurgeOrphans(time.Now().Add(-uploads.OrphanGrace)) // file times are real time
	rep.Purged = purged
	for _, name := range purged {
		s.log.Info("deleted a quarantined upload after its grace period", zap.String("file_id", name), zap.Duration("grace", uploads.OrphanGrace))
	}
	if err != nil {
		return rep, err
	}
	if n := s.cfg.History.Damaged(); n > 0 {
		s.log.Warn("history has damaged lines that may have recorded uploads: no upload is treated as unrecorded this time; repair or remove the damaged lines (or foreign *.jsonl files) and restart",
			zap.Int("damaged", n), zap.String("history", s.cfg.History.Dir()))
		rep.Skipped = true
		return rep, nil
	}
	recorded := make(map[string]bool)
	for _, sum := range s.cfg.History.List() {
		conv, err := s.cfg.History.Get(sum.ID)
		if err != nil {
			return rep, fmt.Errorf("chat: listing recorded uploads: %w", err)
		}
		for _, u := range conv.Uploads() {
			recorded[u.FileID] = true
		}
	}
	moved, err := s.cfg.Uploads.Quarantine(func(id string) bool { return recorded[id] }, loaded)
	rep.Quarantined = moved
	qdir := filepath.Join(s.cfg.Uploads.Dir(), uploads.OrphansDir)
	for _, id := range moved {
		s.log.Warn("quarantined an upload no conversation records; it is deleted after the grace period",
			zap.String("file_id", id), zap.String("quarantine", filepath.Join(qdir, id)), zap.Duration("grace", uploads.OrphanGrace))
	}
	return rep, err
}
