package builtin

import "unicode/utf8"

// decide is the learned stage: every intent rule's answer, the concepts
// the message names and its words become features (features.go); the
// model scores every class with weights learned from the train set
// (model.go); the best-scoring class whose slots can be filled
// (slots.go) is the intent. A class whose slots the message does not
// give — a command with no command to run, a download of nothing — gives
// way to the next.
//
// It reads the first maxDecide bytes of a message: the safety stage has
// read it all, and what a long message asks for is said at its start;
// so the learned stage costs the same for any longer message.
func (c *commands) decide(text string, hasUploads bool) Intent {
	text = prefix(text, maxDecide)
	hits := c.rules(text, hasUploads)
	if in := noUpload(text, hasUploads); in.Kind == "no_upload" && !fired(&hits) {
		return in // an errors question with nothing uploaded to read
	}
	if argv, ok := c.leadingCommand(text); ok {
		return commandIntent(withoutSudo(argv)) // "docker ps 看下": the line is the request
	}
	if argv, ok := c.verbless(text); ok {
		return commandIntent(argv) // "last 50 syslog", "ports?"
	}
	if bareUploads(text) {
		return Intent{Kind: "upload_ref", Tool: "file_upload", Args: map[string]any{"action": "list", "reference": "all"}} // "uploads?"
	}
	if argv, ok := c.outputOf(text); ok {
		return commandIntent(argv) // "把 free 的输出给我"
	}
	fs := c.features(text, hasUploads, &hits)
	for i, k := range ranked(c.model().scores(fs)) {
		if in, ok := c.slots(classes[k], text, hasUploads, &hits); ok {
			return in
		}
		if i == 0 {
			// The best class has nothing to fill it with ("a command"
			// naming none): the first rule that recognised the message
			// knows more than the runner-up, which is often "none".
			if in := firstHit(&hits); in.Kind != "" && labelOf(in) != classes[k] {
				if in, ok := c.slots(labelOf(in), text, hasUploads, &hits); ok {
					return in
				}
			}
		}
	}
	return noUpload(text, hasUploads)
}

// firstHit is the first intent rule's answer, Kind "" when none fired.
func firstHit(hits *[len(ruleNames)]Intent) Intent {
	for _, h := range hits {
		if h.Kind != "" {
			return h
		}
	}
	return Intent{}
}

// fired reports whether any intent rule recognised the message.
func fired(hits *[len(ruleNames)]Intent) bool {
	for _, h := range hits {
		if h.Kind != "" {
			return true
		}
	}
	return false
}

// model is the weights the commands decide by: the trained model, or
// one a test trained on part of the train set.
func (c *commands) model() weights {
	if c.weights != nil {
		return c.weights
	}
	return loadModel()
}

// maxDecide is how much of a message, in bytes, the learned stage reads.
const maxDecide = 2 << 10

// prefix is s cut to at most n bytes, at a rune boundary.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
