package cli

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// Terminal Markdown.
//
// The answer streams in as deltas, so the renderer works line by line: a
// line is rendered as soon as its newline arrives (headings, paragraphs,
// list items, quotes, rules and code lines), a table when its last row
// has arrived, and Flush renders the unfinished tail at the end of the
// reply. The start of a long paragraph line is shown before its newline,
// up to its first inline marker (see progress). No style spans a line
// break, so a delta that ends inside "**", a fence marker or a table row
// changes nothing: the output is the same as for the whole reply at
// once.
//
// It is a small renderer of our own rather than charmbracelet/glamour:
// glamour renders a whole document (it cannot say which part of a
// streamed reply is final), pulls in goldmark, chroma and termenv with
// their transitive trees, and wraps to a fixed width. The block rules
// here are the CommonMark subset models write; go-runewidth (already in
// the build through liner) measures East Asian wide runes as two
// columns so tables line up with Chinese cells.

// mdStyle holds the ANSI codes of the Markdown renderer; the zero value
// is no colour, which keeps the layout (code frames, bullets, table
// borders, link URLs) without escape codes.
type mdStyle struct {
	bold, italic, strike, code, link, heading, quote, frame, reset string
}

// newMDStyle returns the styles, with colour or without.
func newMDStyle(colour bool) mdStyle {
	if !colour {
		return mdStyle{}
	}
	return mdStyle{
		bold: "\x1b[1m", italic: "\x1b[3m", strike: "\x1b[9m",
		code: "\x1b[36m", link: "\x1b[4;34m", heading: "\x1b[1;35m",
		quote: "\x1b[2;3m", frame: "\x1b[2m", reset: ansiReset,
	}
}

// wrap styles s with code, or returns s when the style is empty. Styles
// nested in s end with a reset; the outer style is put back after each.
func (st mdStyle) wrap(code, s string) string {
	if code == "" || s == "" {
		return s
	}
	return code + strings.ReplaceAll(s, st.reset, st.reset+code) + st.reset
}

// ruleWidth is the width of horizontal rules and heading underlines' cap.
const ruleWidth = 40

// maxPendingTable caps the rows a table buffers before it is printed
// as it stands, so a runaway table cannot hold back the answer forever.
const maxPendingTable = 200

// maxTail caps an unfinished line; a longer one is rendered as it
// stands (cut at a rune), so a reply without newlines cannot grow the
// buffer without bound.
const maxTail = 16 << 10

// mdRenderer renders streamed Markdown to out. Write takes deltas; Flush
// ends the reply. It keeps the first write error.
type mdRenderer struct {
	out io.Writer
	st  mdStyle

	tail    string   // the unfinished line
	shown   string   // the part of tail already printed, verbatim (see progress)
	broken  bool     // a line of someone else's was printed after shown
	held    bool     // tail has a marker, or may not be a paragraph: progress waits for the newline
	fence   string   // the open fence's marker ("```", "~~~~"); "" outside code
	table   []string // buffered lines of a table in progress
	blank   bool     // the last line written was blank
	started bool     // something was written
	err     error
}

// newMDRenderer returns a renderer writing to out, with colour or without.
func newMDRenderer(out io.Writer, colour bool) *mdRenderer {
	return &mdRenderer{out: out, st: newMDStyle(colour)}
}

// Write renders the complete lines of the text so far and keeps the rest.
func (m *mdRenderer) Write(delta string) {
	m.tail += delta
	for {
		i := strings.IndexByte(m.tail, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSuffix(m.tail[:i], "\r")
		m.tail, m.held = m.tail[i+1:], false
		m.line(line)
	}
	if len(m.tail) > maxTail {
		cut := lastRuneStart(m.tail) // the last rune may be incomplete
		line := m.tail[:cut]
		m.tail, m.held = m.tail[cut:], false
		m.line(line)
	}
	m.progress()
}

// progress prints the start of an unfinished paragraph line, so a long
// line still appears as it arrives: the part before its first inline
// marker, which renders as itself whatever follows. Lines that may turn
// out to be something else (a heading, list item, quote, table, fence or
// rule) wait for their newline. emit prints the rest of the line.
func (m *mdRenderer) progress() {
	if m.held || m.fence != "" || len(m.table) > 0 || m.err != nil {
		return
	}
	t := strings.TrimLeft(m.tail, " ")
	if t == "" {
		return
	}
	if strings.IndexByte("#>|-*+_~`=0123456789\t", t[0]) >= 0 {
		m.held = true
		return
	}
	safe := m.tail
	if i := strings.IndexAny(safe[len(m.shown):], "*_~`[<\\!\r"); i >= 0 {
		safe, m.held = safe[:len(m.shown)+i], true
	}
	if j := lastRuneStart(safe); !utf8.FullRuneInString(safe[j:]) {
		safe = safe[:j] // the delta ended inside a rune
	}
	if len(safe) <= len(m.shown) {
		return
	}
	m.write(safe[len(m.shown):])
	m.shown = safe
	m.started = true
}

// interrupt moves the cursor to a new line when part of a line is shown,
// so that another line (a status) can be printed; the rest of the line
// follows on a line of its own.
func (m *mdRenderer) interrupt() {
	if m.shown != "" && !m.broken {
		m.write("\n")
		m.broken = true
	}
}

// Flush renders the unfinished tail, a table in progress and closes an
// open code block: the end of the reply.
func (m *mdRenderer) Flush() {
	if m.tail != "" {
		line := m.tail
		m.tail = ""
		m.line(line)
	}
	m.endTable()
	if m.fence != "" {
		m.fence = ""
		m.emit(m.st.wrap(m.st.frame, "└─"))
	}
	m.blank, m.started = false, false
}

// line renders one complete line.
func (m *mdRenderer) line(s string) {
	if m.fence != "" {
		if closesFence(s, m.fence) {
			m.fence = ""
			m.emit(m.st.wrap(m.st.frame, "└─"))
			return
		}
		m.emit(m.st.wrap(m.st.frame, "│ ") + m.st.wrap(m.st.code, expandTabs(s)))
		return
	}
	trimmed := strings.TrimLeft(s, " ")
	indent := len(s) - len(trimmed)
	if len(m.table) > 0 {
		if indent < 4 && strings.HasPrefix(trimmed, "|") && len(m.table) < maxPendingTable {
			m.table = append(m.table, trimmed)
			return
		}
		m.endTable()
	}
	switch {
	case strings.TrimSpace(s) == "":
		if m.started && !m.blank {
			m.emit("")
		}
		return
	}
	// Lines indented four or more are nested list items and
	// continuations far more often than indented code, so they are
	// rendered like the others, their indent kept.
	if marker, lang, ok := opensFence(trimmed); ok {
		m.fence = marker
		label := "┌─"
		if lang != "" {
			label += " " + lang
		}
		m.emit(m.st.wrap(m.st.frame, label))
		return
	}
	if strings.HasPrefix(trimmed, "|") {
		m.table = append(m.table, trimmed)
		return
	}
	if level, text, ok := heading(trimmed); ok {
		m.heading(level, text)
		return
	}
	if isRule(trimmed) {
		m.emit(m.st.wrap(m.st.frame, strings.Repeat("─", ruleWidth)))
		return
	}
	if depth, rest := quoteDepth(trimmed); depth > 0 {
		bar := strings.Repeat("│ ", depth)
		m.emit(m.st.wrap(m.st.frame, bar) + m.st.wrap(m.st.quote, m.inlineLine(rest)))
		return
	}
	if bullet, rest, ok := listItem(trimmed); ok {
		m.emit(s[:indent] + bullet + " " + m.inlineLine(rest))
		return
	}
	m.emit(s[:indent] + m.inlineLine(trimmed))
}

// inlineLine renders a line's inline Markdown with the renderer's styles.
func (m *mdRenderer) inlineLine(s string) string {
	return renderInline(s, m.st)
}

// heading prints a heading: levels 1 and 2 underlined, all bold.
func (m *mdRenderer) heading(level int, text string) {
	plain := renderInline(text, mdStyle{})
	if plain == "" {
		return // "#" alone: nothing to show
	}
	m.emit(m.st.wrap(m.st.heading, plain)) // inner styles would end the heading's
	w := min(runewidth.StringWidth(plain), ruleWidth)
	switch level {
	case 1:
		m.emit(m.st.wrap(m.st.frame, strings.Repeat("═", w)))
	case 2:
		m.emit(m.st.wrap(m.st.frame, strings.Repeat("─", w)))
	}
}

// endTable prints the buffered table, if any.
func (m *mdRenderer) endTable() {
	if len(m.table) == 0 {
		return
	}
	rows := m.table
	m.table = nil
	for _, l := range renderTable(rows, m.st) {
		m.emit(l)
	}
}

// emit writes one output line, folding runs of blank lines into one.
// The start progress has already shown is not written again.
func (m *mdRenderer) emit(s string) {
	m.blank = s == ""
	m.started = true
	if shown := m.shown; shown != "" {
		m.shown, m.broken = "", false
		if rest, ok := strings.CutPrefix(s, shown); ok {
			s = rest
		} else { // cannot happen: progress shows only text that renders as itself
			m.write("\n")
		}
	}
	m.write(s + "\n")
}

func (m *mdRenderer) write(s string) {
	if m.err == nil {
		_, m.err = io.WriteString(m.out, s)
	}
}
