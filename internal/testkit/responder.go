package testkit

import (
	"strings"

	"opsassist/api"
	"opsassist/chat"
)

// Recorder is a chat.Responder that keeps what a turn sends it: Events
// in order as "status:<type>", "delta:<text>" and "offer:<filename>";
// Statuses, each status's content; Text, the deltas joined. It never
// fails and is for one goroutine.
type Recorder struct {
	Events   []string
	Statuses []string
	Text     strings.Builder
}

var _ chat.Responder = (*Recorder)(nil)

// Status records a status.
func (r *Recorder) Status(typ, content string) error {
	r.Events = append(r.Events, "status:"+typ)
	r.Statuses = append(r.Statuses, content)
	return nil
}

// Delta records a chunk of the answer.
func (r *Recorder) Delta(text string) error {
	r.Events = append(r.Events, "delta:"+text)
	r.Text.WriteString(text)
	return nil
}

// Offer records a download offer.
func (r *Recorder) Offer(o api.Offer) error {
	r.Events = append(r.Events, "offer:"+o.Filename)
	return nil
}
