package tools

import (
	"opsassist/api"
)

// Question is what a tool asks the user through Call.AskUser (the
// ask_user tool): api.UserQuestion, the type the chat core asks with.
type Question = api.UserQuestion

// Answered is the answer to a Question; By is ByUser, ByDefault,
// ByTimeout, ByDisconnect or ByCancel.
type Answered = api.UserAnswer

// ByDefault: a Question timed out and its default answered.
const ByDefault = "default"
