package rdt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"opsassist/internal/rangeset"
	"os"
)

// RecordSuffix is appended to PATH.part to name the record of received
// ranges that makes a download resumable.
const RecordSuffix = ".rdt"

// PartSuffix is appended to the destination path while downloading.
const PartSuffix = ".part"

// record is what a client keeps next to PATH.part: which token and file
// the partial data belongs to, and which byte ranges of it are on disk.
type record struct {
	Token  string      `json:"token"`
	SHA256 string      `json:"sha256,omitempty"`
	Size   int64       `json:"size"`
	Ranges [][2]uint64 `json:"ranges"`
}

// loadRecord reads a record; a missing one is (nil, nil).
func loadRecord(path string) (*record, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("resume record %s: %w", path, err)
	}
	var have rangeset.Set
	for _, x := range r.Ranges {
		if x[0] >= x[1] || r.Size >= 0 && x[1] > uint64(r.Size) {
			return nil, fmt.Errorf("resume record %s: bad range %v", path, x)
		}
		have.Add(x[0], x[1])
	}
	r.Ranges = r.Ranges[:0]
	for _, x := range have.Ranges() {
		r.Ranges = append(r.Ranges, [2]uint64{x.Start, x.End})
	}
	return &r, nil
}

// save writes the record atomically (temporary file, fsync, rename).
func (r *record) save(path string) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// have returns the record's ranges.
func (r *record) have() []Range {
	out := make([]Range, 0, len(r.Ranges))
	for _, x := range r.Ranges {
		out = append(out, Range{x[0], x[1]})
	}
	return out
}
