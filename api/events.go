package api

// Status types of a chat reply: the "type" of an NPLT AGENT_THOUGHT
// payload and of an HTTP "status" event's data. StatusStreamStart is
// only NPLT's: HTTP sends it as its own event, EventStreamStart.
const (
	// StatusStreamStart opens a reply and names its conversation.
	StatusStreamStart = "stream_start"
	// StatusThinking says the agent is planning its next step.
	StatusThinking = "thinking"
	// StatusToolCall names the tool the agent calls, with its arguments.
	StatusToolCall = "tool_call"
	// StatusToolResult reports how a tool call ended.
	StatusToolResult = "tool_result"
	// StatusGenerating says the agent is writing the answer.
	StatusGenerating = "generating"
)

// Event types of a chat reply: the chat core's event kinds, the HTTP SSE
// "event:" names, and the "type" of the JSON lines "opsassist ask --json"
// prints.
const (
	// EventStreamStart opens a reply and names its conversation.
	EventStreamStart = "stream_start"
	// EventStatus carries an agent status (Status*).
	EventStatus = "status"
	// EventDelta carries the next piece of the answer.
	EventDelta = "delta"
	// EventDownloadOffer carries an Offer.
	EventDownloadOffer = "download_offer"
	// EventError carries an error code and message; EventEnd follows.
	EventError = "error"
	// EventEnd ends a reply.
	EventEnd = "end"
	// EventPermissionRequest carries a PermissionRequest; the reply
	// goes on once it is answered or expires.
	EventPermissionRequest = "permission_request"
	// EventQuestion carries a Question (the ask_user tool).
	EventQuestion = "question"
	// EventUploadIndexed reports, outside any reply, that an upload was
	// indexed for search, or why not (NPLT UPLOAD_INDEXED).
	EventUploadIndexed = "upload_indexed"
)
