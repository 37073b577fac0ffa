package llm

import (
	"encoding/json"
	"fmt"
	"strings"

	"opsassist/agent"
	"opsassist/storage/history"
)

// textGate holds back streamed text until it is clear the reply is not a
// TOOL:/ARGS: call, so the user never sees protocol lines.
type textGate struct {
	enabled bool
	decided bool
	tool    bool
	held    strings.Builder
}

// feed takes a chunk and returns what may be shown now.
func (g *textGate) feed(s string) string {
	if !g.enabled || g.decided && !g.tool {
		return s
	}
	if g.tool {
		return ""
	}
	g.held.WriteString(s)
	t := strings.TrimLeft(g.held.String(), " \n\r\t")
	if len(t) < len("TOOL:") && strings.HasPrefix("TOOL:", strings.ToUpper(t)) {
		return "" // not enough yet
	}
	g.decided = true
	g.tool = strings.HasPrefix(strings.ToUpper(t), "TOOL:")
	if g.tool {
		return ""
	}
	out := g.held.String()
	g.held.Reset()
	return out
}

// flush returns held text at the end of a reply that was not a call.
func (g *textGate) flush() string {
	if g.tool {
		return ""
	}
	out := g.held.String()
	g.held.Reset()
	return out
}

// parseTextProtocol turns TOOL: name / ARGS: {json} lines in the content
// into tool calls; the text before the first TOOL: line stays content.
func parseTextProtocol(st *agent.Step) {
	lines := strings.Split(st.Content, "\n")
	var keep []string
	n := 0
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(strings.ToUpper(l), "TOOL:") {
			if n == 0 {
				keep = append(keep, lines[i])
			}
			continue
		}
		name := strings.TrimSpace(l[len("TOOL:"):])
		args := "{}"
		if i+1 < len(lines) && strings.HasPrefix(strings.ToUpper(strings.TrimSpace(lines[i+1])), "ARGS:") {
			i++
			args = strings.TrimSpace(strings.TrimSpace(lines[i])[len("ARGS:"):])
			// ARGS may span lines until the JSON is complete.
			for !json.Valid([]byte(args)) && i+1 < len(lines) && !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(lines[i+1])), "TOOL:") {
				i++
				args += "\n" + lines[i]
			}
		}
		n++
		st.ToolCalls = append(st.ToolCalls, history.ToolCall{ID: fmt.Sprintf("text_%d", n), Name: name, Arguments: args})
	}
	if n > 0 {
		st.Content = strings.TrimSpace(strings.Join(keep, "\n"))
	}
}
