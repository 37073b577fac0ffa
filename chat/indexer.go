package chat

import (
	"context"

	"go.uber.org/zap"

	"opsassist/storage/history"
)

// Indexer makes a committed upload searchable. The core calls IndexUpload
// in its own goroutine after the upload is recorded; when it returns nil
// the upload's indexed flag is set. The storage layer implements it
// (indexer.Indexer), bounding how many files are indexed at once.
type Indexer interface {
	IndexUpload(ctx context.Context, sessionID string, u history.Upload) error
}

// IndexChecker is implemented by indexers that can tell whether an
// upload's current version is in the index; ReindexUploads uses it to
// repair what a crash left out.
type IndexChecker interface {
	Indexed(u history.Upload) bool
}

// ConversationForgetter is implemented by indexers that drop a deleted
// conversation's uploads from the index.
type ConversationForgetter interface {
	ForgetConversation(ctx context.Context, conversationID string) error
}

// IndexNotice tells a client what became of an upload it sent: indexed
// (searchable) or not, and why not.
type IndexNotice struct {
	FileID    string `json:"file_id"`
	Filename  string `json:"filename"`
	SessionID string `json:"session_id"`
	Indexed   bool   `json:"indexed"`
	Error     string `json:"error,omitempty"`
}

// ReindexUploads indexes, in the background, every upload not marked
// indexed or missing from the index (after a crash, or when the embedder
// changed). It returns how many it started.
func (s *Service) ReindexUploads() int {
	check, _ := s.cfg.Indexer.(IndexChecker)
	if s.cfg.Indexer == nil {
		return 0
	}
	type job struct {
		conv *history.Conversation
		u    history.Upload
	}
	var jobs []job
	for _, sum := range s.cfg.History.List() {
		conv, err := s.cfg.History.Get(sum.ID)
		if err != nil {
			continue
		}
		for _, u := range conv.Uploads() {
			if u.Indexed && (check == nil || check.Indexed(u)) {
				continue
			}
			jobs = append(jobs, job{conv, u})
		}
	}
	if len(jobs) == 0 {
		return 0
	}
	// One goroutine for the lot: after an embedder change that can be
	// every upload there is.
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for _, j := range jobs {
			if s.bg.Err() != nil {
				return
			}
			s.indexNow(j.conv, j.u, nil)
		}
	}()
	return len(jobs)
}

// ForgetDeletedConversations removes from the index the uploads of
// conversations that no longer exist (deleted while the daemon was down,
// or while their uploads were being indexed). It returns how many
// conversations it removed.
func (s *Service) ForgetDeletedConversations(ctx context.Context, indexed []string) int {
	f, ok := s.cfg.Indexer.(ConversationForgetter)
	if !ok {
		return 0
	}
	n := 0
	for _, id := range indexed {
		if _, err := s.cfg.History.Get(id); err == nil {
			continue
		}
		if err := f.ForgetConversation(ctx, id); err != nil {
			s.log.Warn("removing a deleted conversation from the index failed", zap.String("conversation", id), zap.Error(err))
			continue
		}
		n++
	}
	return n
}
