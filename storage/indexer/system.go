package indexer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"opsassist/storage/index"
)

// SyncReport counts what a system-document scan did.
type SyncReport struct {
	Added, Updated, Unchanged, Removed, Skipped, Failed int
}

// skipDirs are directories never scanned for documents.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true, ".cache": true}

// SyncSystem indexes the system documents under roots (files or
// directories) incrementally: unchanged files (same SHA-256) are skipped,
// changed ones replaced, and documents no longer present removed. Roots
// that do not exist are ignored. Symbolic links are not followed.
func (ix *Indexer) SyncSystem(ctx context.Context, roots []string) (SyncReport, error) {
	var rep SyncReport
	seen := map[string]bool{}
	for _, root := range roots {
		abs, err := filepath.Abs(root)
		if err != nil {
			return rep, fmt.Errorf("indexer: %w", err)
		}
		err = filepath.WalkDir(abs, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && path == abs {
					return nil
				}
				ix.log.Warn("system docs: cannot read", zap.String("path", path), zap.Error(err))
				return nil
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if d.IsDir() {
				if path != abs && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			id := SystemID(path)
			if seen[id] {
				return nil
			}
			seen[id] = true
			info, err := d.Info()
			if err != nil {
				rep.Failed++
				return nil
			}
			_, existed := ix.cfg.Index.Get(id)
			res, err := ix.IndexFile(ctx, Source{ID: id, Name: d.Name(), Path: path, Scope: index.ScopeSystem, UploadedAt: info.ModTime()})
			switch {
			case err != nil:
				if ctx.Err() != nil {
					return ctx.Err()
				}
				rep.Failed++
				ix.log.Warn("system docs: indexing failed", zap.String("path", path), zap.Error(err))
			case res.Unchanged:
				rep.Unchanged++
			case res.Skipped != "":
				rep.Skipped++
			case existed:
				rep.Updated++
			default:
				rep.Added++
			}
			return nil
		})
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return rep, err
		}
	}
	for _, f := range ix.cfg.Index.Files(index.ScopeSystem, "") {
		if seen[f.ID] {
			continue
		}
		if err := ix.cfg.Index.Delete(ctx, f.ID); err != nil {
			return rep, err
		}
		rep.Removed++
	}
	return rep, nil
}
