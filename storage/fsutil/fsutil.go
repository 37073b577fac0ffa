// Package fsutil holds the small file-system helpers the storage packages
// share for durable writes.
package fsutil

import "os"

// SyncDir fsyncs a directory, so an entry created, renamed or removed in it
// survives a crash.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
