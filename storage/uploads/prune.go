package uploads

import (
	"fmt"
	"os"

	"github.com/google/uuid"
)

// Prune removes the committed uploads whose file id keep rejects, and
// returns their ids. It is for start-up, before any upload is committed:
// a crash between Commit's rename and the caller's record of the upload,
// or between deleting a conversation and removing its uploads, leaves a
// directory nothing refers to. Entries that are not upload directories
// (the temp directory, foreign names, plain files) are left alone.
func (s *Store) Prune(keep func(id string) bool) ([]string, error) {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("uploads: %w", err)
	}
	var removed []string
	for _, e := range ents {
		id := e.Name()
		if !e.IsDir() || uuid.Validate(id) != nil || keep(id) {
			continue
		}
		if err := s.Remove(id); err != nil {
			return removed, err
		}
		removed = append(removed, id)
	}
	return removed, nil
}
