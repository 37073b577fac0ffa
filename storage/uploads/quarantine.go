package uploads

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"

	"opsassist/storage/fsutil"
)

// OrphansDir is the subdirectory of the store's directory that holds
// quarantined uploads, as <dir>/.orphans/<file_id>/<filename>. Nothing
// serves from it: downloads of files under the store's directory are
// limited to the calling conversation's recorded uploads.
const OrphansDir = ".orphans"

// OrphanGrace is how long a quarantined upload is kept before
// PurgeOrphans deletes it, so an operator has a week to restore an upload
// whose history record was damaged.
const OrphanGrace = 7 * 24 * time.Hour

// Quarantine moves the committed uploads whose file id keep rejects into
// <dir>/.orphans and returns their ids. It is for start-up, before any
// upload is committed: a crash between Commit's rename and the caller's
// record of the upload, or between deleting a conversation and removing
// its uploads, leaves a directory nothing refers to. Nothing is deleted:
// if the caller's records were wrong, the file is still on disk.
//
// Only upload directories last modified before the time before are
// considered (give or take the file system's timestamp granularity): an
// upload committed after the caller read its records is left alone. The
// directory's modification time is its Commit's rename. Entries that are
// not upload directories (the temp and quarantine directories, foreign
// names, plain files) are left alone.
//
// Quarantined bytes stay on disk, so they still count towards the total
// quota (Config.MaxTotal) until PurgeOrphans deletes them. A quarantined
// directory's modification time is set to when it was quarantined.
func (s *Store) Quarantine(keep func(id string) bool, before time.Time) ([]string, error) {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("uploads: %w", err)
	}
	qdir := filepath.Join(s.dir, OrphansDir)
	var moved []string
	for _, e := range ents {
		id := e.Name()
		if !e.IsDir() || uuid.Validate(id) != nil || keep(id) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			return moved, fmt.Errorf("uploads: %w", err)
		}
		if !info.ModTime().Before(before) {
			continue
		}
		if len(moved) == 0 {
			if err := os.MkdirAll(qdir, 0o700); err != nil {
				return moved, fmt.Errorf("uploads: %w", err)
			}
		}
		dst := filepath.Join(qdir, id)
		if _, err := os.Lstat(dst); err == nil {
			dst += "." + time.Now().UTC().Format("20060102T150405.000000000")
		}
		if err := os.Rename(filepath.Join(s.dir, id), dst); err != nil {
			return moved, fmt.Errorf("uploads: quarantining %s: %w", id, err)
		}
		now := time.Now()
		os.Chtimes(dst, now, now) // the grace period runs from now
		moved = append(moved, id)
	}
	if len(moved) > 0 {
		if err := fsutil.SyncDir(qdir); err != nil {
			return moved, fmt.Errorf("uploads: %w", err)
		}
		if err := fsutil.SyncDir(s.dir); err != nil {
			return moved, fmt.Errorf("uploads: %w", err)
		}
	}
	return moved, nil
}

// PurgeOrphans deletes the quarantined uploads quarantined before the
// time before (normally now less OrphanGrace), returns their names in
// the quarantine directory and frees their bytes from the total quota.
func (s *Store) PurgeOrphans(before time.Time) ([]string, error) {
	qdir := filepath.Join(s.dir, OrphansDir)
	ents, err := os.ReadDir(qdir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("uploads: %w", err)
	}
	var purged []string
	for _, e := range ents {
		info, err := e.Info()
		if err != nil || !info.ModTime().Before(before) {
			continue
		}
		path := filepath.Join(qdir, e.Name())
		n, _ := dirSize(path) // what cannot be read is not counted
		if err := os.RemoveAll(path); err != nil {
			return purged, fmt.Errorf("uploads: purging quarantined %s: %w", e.Name(), err)
		}
		s.mu.Lock()
		s.used = max(0, s.used-n)
		s.mu.Unlock()
		purged = append(purged, e.Name())
	}
	return purged, nil
}

// OrphanBytes returns the bytes held in quarantine.
func (s *Store) OrphanBytes() int64 {
	n, _ := dirSize(filepath.Join(s.dir, OrphansDir))
	return n
}
