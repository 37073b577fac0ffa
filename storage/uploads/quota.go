package uploads

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"opsassist/internal/bytesize"
)

// ErrQuota is matched (errors.Is) by every QuotaError.
var ErrQuota = errors.New("uploads: quota exceeded")

// Quota scopes.
const (
	QuotaServer       = "server"
	QuotaConversation = "conversation"
)

// QuotaError refuses an upload that would take the stored uploads of the
// server, or of one conversation, past their limit.
type QuotaError struct {
	// Scope is QuotaServer or QuotaConversation.
	Scope string
	// Limit is the quota in bytes; Used is what is stored (or being
	// stored) already; Need is what the refused upload asked for.
	Limit, Used, Need int64
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("uploads: %s upload quota exceeded: %d of %d bytes used, %d more asked", e.Scope, e.Used, e.Limit, e.Need)
}

// Is makes errors.Is(err, ErrQuota) true.
func (e *QuotaError) Is(target error) bool { return target == ErrQuota }

// Message is the refusal as users read it, in Chinese and English: upload
// refusals come before any text that would tell the user's language.
func (e *QuotaError) Message() string {
	if e.Scope == QuotaConversation {
		return fmt.Sprintf("上传配额已满：本会话的上传文件已占用 %s，上限 %s，这个文件还需要 %s。请删除文件或新建会话。"+
			" Upload quota exceeded: this conversation's uploads take %s of its %s limit and this file needs %s more. Delete files or start a new conversation.",
			bytesize.Short(e.Used), bytesize.Short(e.Limit), bytesize.Short(e.Need), bytesize.Short(e.Used), bytesize.Short(e.Limit), bytesize.Short(e.Need))
	}
	return fmt.Sprintf("上传配额已满：服务器上的上传文件已占用 %s，上限 %s，这个文件还需要 %s。请联系管理员清理。"+
		" Upload quota exceeded: the server's uploads take %s of its %s limit and this file needs %s more. Ask the operator to free space.",
		bytesize.Short(e.Used), bytesize.Short(e.Limit), bytesize.Short(e.Need), bytesize.Short(e.Used), bytesize.Short(e.Limit), bytesize.Short(e.Need))
}

// fits refuses n more bytes that would take the uploads stored and
// those in progress past the server quota, without booking them.
func (s *Store) fits(n int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.over(n)
}

// over is fits with s.mu held.
func (s *Store) over(n int64) error {
	if s.maxTotal > 0 && s.used+s.reserved+n > s.maxTotal {
		return &QuotaError{Scope: QuotaServer, Limit: s.maxTotal, Used: s.used + s.reserved, Need: n}
	}
	return nil
}

// reserve books n more bytes against the server quota.
func (s *Store) reserve(n int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.over(n); err != nil {
		return err
	}
	s.reserved += n
	return nil
}

// release returns n reserved bytes; stored, if set, moves them to the
// stored total instead.
func (s *Store) release(n int64, stored bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reserved -= n
	if stored {
		s.used += n
	}
}

// Used returns the bytes of committed uploads.
func (s *Store) Used() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}

// Receiving returns the bytes written so far by uploads in progress,
// which the server quota counts beside Used.
func (s *Store) Receiving() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reserved
}

// dirSize returns the bytes of the regular files under dir, skipping
// the temp directory.
func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() && d.Name() == tmpDir && filepath.Dir(path) == dir {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				if errors.Is(err, os.ErrNotExist) {
					return nil
				}
				return err
			}
			n += info.Size()
		}
		return nil
	})
	return n, err
}

// SizeError is an upload larger than the limit of one upload
// (ErrTooLarge). Its size never reads as the limit (bytesize.Over):
// "104857601 B", not "100.0 MiB, limit 100 MiB".
type SizeError struct {
	Size, Limit int64
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("uploads: file too large: %s, larger than the %s limit", bytesize.Over(e.Size, e.Limit), bytesize.Short(e.Limit))
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *SizeError) Is(target error) bool { return target == ErrTooLarge }

// Message is the refusal as users read it, in Chinese and English (no
// text has told the user's language yet).
func (e *SizeError) Message() string {
	size, limit := bytesize.Over(e.Size, e.Limit), bytesize.Short(e.Limit)
	return fmt.Sprintf("文件太大：%s，超过了单个文件 %s 的上传上限。 File too large: %s is larger than the %s limit for one upload.", size, limit, size, limit)
}
