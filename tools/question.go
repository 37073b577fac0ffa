package tools

import (
	"time"

	"opsassist/api"
)

// Question is what a tool asks the user through Call.AskUser (the
// ask_user tool).
type Question struct {
	// Question is the text shown to the user.
	Question string
	// Kind is api.QuestionText, api.QuestionChoice or api.QuestionConfirm.
	Kind string
	// Options are a choice's options.
	Options []api.QuestionOption
	// AllowCustom lets a choice be answered with free text.
	AllowCustom bool
	// Default, if set, answers the question when it times out.
	Default string
	// Timeout bounds the wait; zero: the permission timeout.
	Timeout time.Duration
}

// Answered is the answer to a Question.
type Answered struct {
	// Answer is an option id, "yes"/"no" or free text; empty if nobody
	// answered.
	Answer string
	// Option is the chosen option's id, when Answer is one.
	Option string
	// By is ByUser, ByDefault, ByTimeout, ByDisconnect or ByCancel.
	By string
}

// ByDefault: a Question timed out and its default answered.
const ByDefault = "default"
