package agent

import (
	"unicode/utf8"

	"opsassist/storage/history"
)

// DefaultHistoryBudget is the default token budget for the history sent
// to a planner.
const DefaultHistoryBudget = 24000

// estimateTokens is a cheap, conservative token estimate: about one token
// per CJK character and one per four bytes of other text.
func estimateTokens(m history.Message) int {
	n := 4 // role and framing
	for _, s := range []string{m.Content, m.ToolCallID, m.Name} {
		n += textTokens(s)
	}
	for _, tc := range m.ToolCalls {
		n += textTokens(tc.Name) + textTokens(tc.Arguments) + 4
	}
	return n
}

func textTokens(s string) int {
	ascii, other := 0, 0
	for _, r := range s {
		if r < utf8.RuneSelf {
			ascii++
		} else {
			other++
		}
	}
	return ascii/4 + other + 1
}

// trimHistory drops the oldest whole turns until the history fits budget
// tokens. A turn starts at a user message and runs to the next, so a tool
// result is never kept without the call that asked for it. The newest
// turn is always kept. (The system prompt and the list of uploaded files
// are not part of the history: they are rebuilt for every request.)
func trimHistory(msgs []history.Message, budget int) []history.Message {
	if budget <= 0 {
		return msgs
	}
	total := 0
	for _, m := range msgs {
		total += estimateTokens(m)
	}
	start := 0
	for total > budget {
		next := start + 1
		for next < len(msgs) && msgs[next].Role != "user" {
			next++
		}
		if next >= len(msgs) {
			break // only the newest turn is left
		}
		for _, m := range msgs[start:next] {
			total -= estimateTokens(m)
		}
		start = next
	}
	return msgs[start:]
}
