package partfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"opsassist/internal/rangeset"
)

// record is what a download keeps next to NAME.part: which token and file
// the partial data belongs to, and which byte ranges of it are on disk.
// Its JSON is the on-disk format of NAME.part.rdt.
type record struct {
	Token  string      `json:"token"`
	SHA256 string      `json:"sha256,omitempty"`
	Size   int64       `json:"size"`
	Ranges [][2]uint64 `json:"ranges"`
}

// belongsTo reports whether the record's bytes are of the download id:
// fetched with the same token, or of the same SHA-256 when id names one,
// and never of another SHA-256.
func (r *record) belongsTo(id ID) bool {
	if r.Token != id.Token && (id.SHA256 == "" || r.SHA256 != id.SHA256) {
		return false
	}
	return id.SHA256 == "" || r.SHA256 == "" || r.SHA256 == id.SHA256
}

// loadRecord reads a record and normalises its ranges; a missing one is
// (nil, nil).
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
