package index

import (
	"errors"
	"fmt"

	"opsassist/internal/bytesize"
)

// ErrQuota is matched (errors.Is) by every QuotaError.
var ErrQuota = errors.New("index: indexed-text quota exceeded")

// Quota scopes.
const (
	QuotaServer       = "server"
	QuotaConversation = "conversation"
)

// QuotaError refuses an upload whose chunk text would take the uploads
// of the index, or of one conversation, past their limit.
type QuotaError struct {
	// Scope is QuotaServer or QuotaConversation.
	Scope string
	// Limit is the quota in bytes of chunk text; Used is what the index
	// holds; Need is what the refused file asked for.
	Limit, Used, Need int64
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("index: %s indexed-text quota exceeded: %d of %d bytes used, %d more asked", e.Scope, e.Used, e.Limit, e.Need)
}

// Is makes errors.Is(err, ErrQuota) true.
func (e *QuotaError) Is(target error) bool { return target == ErrQuota }

// ReasonZH is Reason in Chinese.
func (e *QuotaError) ReasonZH() string {
	whose := "服务器上的上传文件"
	if e.Scope == QuotaConversation {
		whose = "本会话的上传文件"
	}
	return fmt.Sprintf("超出索引文本配额：%s已有 %s 索引文本，上限 %s，这个文件需要 %s",
		whose, bytesize.Short(e.Used), bytesize.Short(e.Limit), bytesize.Short(e.Need))
}

// Reason is the refusal as a file's skip reason.
func (e *QuotaError) Reason() string {
	whose := "the server's uploads have"
	if e.Scope == QuotaConversation {
		whose = "this conversation's uploads have"
	}
	return fmt.Sprintf("over the indexed-text quota: %s %s of indexed text, limit %s, and this file needs %s",
		whose, bytesize.Short(e.Used), bytesize.Short(e.Limit), bytesize.Short(e.Need))
}

// textBytes is the chunk text a file holds in memory.
func textBytes(chunks []Chunk) int64 {
	var n int64
	for _, c := range chunks {
		n += int64(len(c.Text))
	}
	return n
}

// CheckQuota reports, without changing anything, whether Put would
// refuse f (its chunks need only their text) for a quota: callers check
// before spending time on embeddings. Put checks again.
func (x *Index) CheckQuota(f File) error { return x.checkQuota(f) }

// checkQuota refuses f if its chunk text would take the uploads past a
// quota; a file replaced by f no longer counts. x.wmu must be held, so
// no other change slips in between the check and the put.
func (x *Index) checkQuota(f File) error {
	maxTotal, maxConv := x.cfg.MaxUploadText, x.cfg.MaxUploadTextPerConversation
	if f.Scope != ScopeUploads || (maxTotal <= 0 && maxConv <= 0) {
		return nil
	}
	need := textBytes(f.Chunks)
	name := partName(f.Scope, f.ConversationID)
	x.mu.RLock()
	total := x.uploadText
	var conv int64
	if p := x.parts[name]; p != nil {
		conv = p.text
	}
	if old := x.files[f.ID]; old != nil && old.info.Scope == ScopeUploads {
		total -= old.text
		if old.part == name {
			conv -= old.text
		}
	}
	x.mu.RUnlock()
	if maxConv > 0 && conv+need > maxConv {
		return &QuotaError{Scope: QuotaConversation, Limit: maxConv, Used: conv, Need: need}
	}
	if maxTotal > 0 && total+need > maxTotal {
		return &QuotaError{Scope: QuotaServer, Limit: maxTotal, Used: total, Need: need}
	}
	return nil
}
