package web

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"path/filepath"
	"strings"
	"unicode"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/internal/bytesize"
	"opsassist/storage/tokens"
)

// handleDownload serves the file a download token grants, through
// http.ServeContent: Range and If-Range requests get 206 so browsers and
// `curl -C -` resume, a range past the end gets 416, and the ETag is the
// quoted SHA-256 the token was issued for. A token serves any number of
// requests until it expires (410); an unknown one is 404. The checks are
// tokens.Store.Redeem's: a token issued in a conversation the requester
// may not see is unknown (chat.Service.MayDownload) — unless it was
// issued to the requester outside any conversation (an MCP or direct
// call: tokens.Token.Owner) —, and if the path no
// longer holds the very file the token was issued for (a link, another
// device, inode or size), it changed since it was offered and the
// request gets 410 file_changed.
func (s *Server) handleDownload(w http.ResponseWriter, r *http.Request) {
	principal := s.principal(r)
	g, err := s.cfg.Tokens.Redeem(tokens.Claim{ID: r.PathValue("token"), Principal: principal.ID,
		MaySee: func(sessionID string) bool { return s.cfg.Chat.MayDownload(principal, sessionID) }}, s.cfg.Now())
	switch {
	case errors.Is(err, tokens.ErrExpired):
		s.writeError(w, r, errorf(http.StatusGone, api.CodeExpired, "download token expired: ask the assistant for the file again"))
		return
	case errors.Is(err, tokens.ErrFileGone):
		s.log.Info("download: file unreadable", zap.String("file", g.Filename), zap.Error(err))
		s.writeError(w, r, errorf(http.StatusGone, api.CodeFileChanged, "the file is no longer available: ask the assistant for it again"))
		return
	case errors.Is(err, tokens.ErrFileChanged):
		s.writeError(w, r, errorf(http.StatusGone, api.CodeFileChanged,
			fmt.Sprintf("the file changed since it was offered (%s offered): ask the assistant for it again", bytesize.Short(g.Size))))
		return
	case err != nil:
		// Unknown, or another principal's token: as good as unknown.
		s.writeError(w, r, errorf(http.StatusNotFound, api.CodeNotFound, "unknown download token"))
		return
	}
	tok, f, st := g.Token, g.File, g.Info
	defer f.Close()
	h := w.Header()
	ct := mime.TypeByExtension(filepath.Ext(tok.Filename))
	if ct == "" {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Disposition", contentDisposition(tok.Filename))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "private, no-transform")
	if tok.SHA256 != "" {
		h.Set("ETag", `"`+tok.SHA256+`"`)
	}
	// Each chunk may block at most StallTimeout; the whole transfer has no
	// deadline.
	rc := http.NewResponseController(w)
	sw := &stallWriter{ResponseWriter: w, rc: rc, stall: s.cfg.StallTimeout}
	http.ServeContent(sw, r, tok.Filename, st.ModTime(), f)
}

// contentDisposition builds an attachment header with an ASCII fallback
// name and the exact name in RFC 5987 form.
func contentDisposition(name string) string {
	fallback := strings.Map(func(r rune) rune {
		if r > unicode.MaxASCII || r < 0x20 || r == '"' || r == '\\' || r == 0x7f {
			return '_'
		}
		return r
	}, name)
	return fmt.Sprintf(`attachment; filename="%s"; filename*=UTF-8''%s`, fallback, rfc5987(name))
}

// rfc5987 percent-encodes every byte of s that is not an attr-char of
// RFC 5987.
func rfc5987(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
