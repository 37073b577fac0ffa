package builtin

import (
	"opsassist/storage/history"
)

// reFollowUp is an elliptical follow-up question: "那 redis 的端口呢？",
// "and the redis port?", "what about the cache host?".
var reFollowUp = compile(`(?i)^\s*(?:那|那么|还有|另外)?.{0,40}呢\s*[?？]?\s*$|^\s*(?:and|what about|how about)\b.{0,60}$`)

// followUp is the intent of an elliptical question that asks another
// setting of the upload the previous question read ("那 redis 的端口呢？"
// after "这个配置文件里数据库端口是多少？"): that read again, answered for
// this question. ok is false when input is no such question or the
// previous user message read no upload.
func (p Planner) followUp(input string, msgs []history.Message, hasUploads bool) (Intent, bool) {
	text := normalize(input)
	if !hasUploads || len(text) > 200 || !reFollowUp.MatchString(text) || !reKeyQuestion.MatchString(names(text)) {
		return Intent{}, false
	}
	seen := false // the last user message is this one
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		if !seen {
			seen = true
			continue
		}
		prev := p.Classify(msgs[i].Content, true)
		if prev.Tool != "file_upload" || prev.Args["action"] != "read" {
			return Intent{}, false
		}
		prev.input = input
		return prev, true
	}
	return Intent{}, false
}
