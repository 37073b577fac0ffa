package cli

import (
	"context"
	"slices"
	"time"

	"opsassist/client"
)

// completionWait bounds the requests that refresh Tab completion's
// lists: a slow server leaves the old lists, never a stuck prompt.
const completionWait = 2 * time.Second

// refreshCompletion fetches, on the REPL's own goroutine before a
// prompt, the lists Tab completes from: the conversations (newest
// first, as the server lists them) and the model names. It runs only
// where Tab exists (the line editor on a terminal) and only after a
// command ran (completionStale), so a pipe into the REPL sends nothing
// more; a failure keeps the old lists and says nothing.
func (r *repl) refreshCompletion(ctx context.Context) {
	if !r.tabCompletes || !r.completionStale || r.conn == nil || r.conn.Err() != nil {
		return
	}
	r.completionStale = false
	ctx, cancel := context.WithTimeout(ctx, completionWait)
	defer cancel()
	if sr, err := fetchSessions(ctx, r.conn, "", false, ""); err == nil {
		r.rememberSessions(sr.list)
	}
	if res, err := r.conn.Model(ctx, ""); err == nil && res.Kind == client.KindModels {
		var l client.ModelList
		if res.Decode(&l) == nil {
			r.modelNames = slices.Clone(l.Models)
		}
	}
}

// sessionCandidates are the conversation ids Tab offers after cmd: the
// known ones, newest first, without the current one after /switch
// (switching there does nothing).
func (r *repl) sessionCandidates(cmd string) []string {
	ids := r.knownSessions()
	if cmd == "/switch" {
		ids = slices.DeleteFunc(ids, func(id string) bool { return id == r.session })
	}
	return ids
}
