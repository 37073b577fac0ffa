package api

// Error codes. Each comment names the protocols that send the code (the
// matching table of docs/protocol/*.md lists exactly those) and when.
// NPLT sends a code in an ERROR frame, HTTP in a JSON error body or an
// SSE "error" event, RDT as the name of an ERROR packet's numeric code.
const (
	// CodeBadRequest (NPLT, HTTP, RDT) refuses a request with the right
	// shape but bad values: a negative upload size, an empty message, an
	// ambiguous session prefix, an RDT max_payload below 256.
	CodeBadRequest = "bad_request"
	// CodeBadJSON (NPLT, HTTP) refuses a payload or body that is not the
	// JSON its type requires.
	CodeBadJSON = "bad_json"
	// CodeUnknownType (NPLT) refuses a frame type not in the protocol.
	CodeUnknownType = "unknown_type"
	// CodeServerBusy (NPLT, HTTP) refuses a connection over max_clients,
	// or closes the longest-waiting unauthenticated one to make room, or
	// refuses a request that finds the connection's queue full while
	// the reply in progress asks the user; over HTTP (503), a new MCP
	// session at /mcp past the server's cap.
	CodeServerBusy = "server_busy"
	// CodeUnauthorized (NPLT, HTTP) refuses a missing or wrong token, or
	// an NPLT connection that sent no HELLO in time.
	CodeUnauthorized = "unauthorized"
	// CodeForbidden (HTTP) refuses a cross-origin request, or, on a
	// server without a token, a Host that is not a loopback name.
	CodeForbidden = "forbidden"
	// CodeTooManyAttempts (NPLT, HTTP) refuses an address that sent too
	// many wrong tokens lately, on either transport.
	CodeTooManyAttempts = "too_many_attempts"
	// CodeIdleTimeout (NPLT) closes a connection that sent nothing for
	// idle_timeout.
	CodeIdleTimeout = "idle_timeout"
	// CodeShuttingDown (NPLT, RDT) closes a connection or ends a transfer
	// because the server is stopping.
	CodeShuttingDown = "shutting_down"
	// CodeUploadTooLarge (NPLT) refuses an upload declared over
	// max_upload.
	CodeUploadTooLarge = "upload_too_large"
	// CodeUploadNoMetadata (NPLT) refuses FILE_DATA with no upload in
	// progress.
	CodeUploadNoMetadata = "upload_no_metadata"
	// CodeUploadInProgress (NPLT) aborts an upload when FILE_METADATA
	// starts another.
	CodeUploadInProgress = "upload_in_progress"
	// CodeUploadOverflow (NPLT) aborts an upload that sent more bytes than
	// it declared.
	CodeUploadOverflow = "upload_overflow"
	// CodeUploadChecksum (NPLT) aborts an upload whose SHA-256 does not
	// match its FILE_METADATA.
	CodeUploadChecksum = "upload_checksum"
	// CodeUploadBadName (NPLT) refuses an upload whose file name is empty
	// or only dots, spaces and separators.
	CodeUploadBadName = "upload_bad_name"
	// CodeUploadTimeout (NPLT) aborts an upload that received no file data
	// for the server's upload stall timeout.
	CodeUploadTimeout = "upload_timeout"
	// CodeUploadInvalid (HTTP) refuses an uploaded file whose name is
	// unusable or whose checksum does not match.
	CodeUploadInvalid = "upload_invalid"
	// CodeQuotaExceeded (NPLT, HTTP) refuses an upload over the
	// conversation's or the server's upload quota.
	CodeQuotaExceeded = "quota_exceeded"
	// CodeTooLarge (NPLT, HTTP) refuses a request body or chat message
	// over its limit (chat.MaxMessage, the JSON body limit, max_upload),
	// or an NPLT PERMISSION_RESPONSE or PERMISSION_GRANTS over 1 KiB.
	CodeTooLarge = "too_large"
	// CodeNotFound (NPLT, HTTP) answers an unknown session, an unknown
	// download token (HTTP) or an unknown path (HTTP).
	CodeNotFound = "not_found"
	// CodeUnknownModel (NPLT, HTTP) refuses a switch to a model that is
	// not configured.
	CodeUnknownModel = "unknown_model"
	// CodeTokenUnknown (NPLT) refuses a FILE_REQUEST whose download token
	// was never issued or is long gone.
	CodeTokenUnknown = "token_unknown"
	// CodeTokenExpired (NPLT) refuses a FILE_REQUEST whose download token
	// expired.
	CodeTokenExpired = "token_expired"
	// CodeExpired (HTTP) refuses a download whose token expired.
	CodeExpired = "expired"
	// CodeFileChanged (NPLT, HTTP) refuses a download of a file removed or
	// resized since its token was issued.
	CodeFileChanged = "file_changed"
	// CodeRangeNotSatisfiable (HTTP) refuses a download Range outside the
	// file.
	CodeRangeNotSatisfiable = "range_not_satisfiable"
	// CodeMethodNotAllowed (HTTP) refuses a method the path does not
	// serve.
	CodeMethodNotAllowed = "method_not_allowed"
	// CodePermissionUnknown (NPLT, HTTP) refuses an answer to a
	// permission request that this conversation and principal never had
	// (or long ago); HTTP 404.
	CodePermissionUnknown = "permission_unknown"
	// CodePermissionAnswered (NPLT, HTTP) refuses a second answer to a
	// permission request; HTTP 409.
	CodePermissionAnswered = "permission_answered"
	// CodePermissionExpired (NPLT, HTTP) refuses an answer to a
	// permission request that timed out (denied); HTTP 410.
	CodePermissionExpired = "permission_expired"
	// CodeBadDecision (NPLT, HTTP) refuses a permission answer whose
	// decision is not allow_once, allow_session or deny.
	CodeBadDecision = "bad_decision"
	// CodeQuestionUnknown (NPLT, HTTP) refuses an answer to an ask_user
	// question that this conversation and principal never had (or long
	// ago); HTTP 404.
	CodeQuestionUnknown = "question_unknown"
	// CodeQuestionAnswered (NPLT, HTTP) refuses a second answer to a
	// question; HTTP 409.
	CodeQuestionAnswered = "question_answered"
	// CodeQuestionExpired (NPLT, HTTP) refuses an answer to a question
	// that timed out, was cancelled or whose client left; HTTP 410.
	CodeQuestionExpired = "question_expired"
	// CodeBadAnswer (NPLT, HTTP) refuses an answer the question does not
	// take (not one of its option ids, not yes/no, empty); the question
	// stays open. HTTP 400.
	CodeBadAnswer = "bad_answer"
	// CodeAgentError (NPLT, HTTP) ends a chat turn the agent failed (the
	// model unreachable, a planner error); the reply's end follows.
	CodeAgentError = "agent_error"
	// CodeInternal (NPLT, HTTP, RDT) reports a server-side failure (disk
	// full, a panic, an unreadable file); the detail is logged, not sent.
	CodeInternal = "internal"
)

// RDT error code names: what rdt.ErrorCode's String returns for the codes
// only RDT sends. RDT shares CodeBadRequest, CodeInternal and
// CodeShuttingDown with the other protocols.
const (
	// CodeRDTUnknownToken (RDT) refuses a token never issued or long gone.
	CodeRDTUnknownToken = "unknown_token"
	// CodeRDTExpiredToken (RDT) refuses an expired token.
	CodeRDTExpiredToken = "expired_token"
	// CodeRDTWrongFile (RDT) refuses a token for another file than the
	// client expects, or a file changed since the token was issued; a
	// client sends it when the FIN's SHA-256 differs from the offer.
	CodeRDTWrongFile = "wrong_file"
	// CodeRDTBusy (RDT) refuses a transfer over the server's limits, in
	// all or from one address.
	CodeRDTBusy = "busy"
	// CodeRDTChecksum (RDT) is sent by a client whose received file does
	// not match the FIN's SHA-256.
	CodeRDTChecksum = "checksum"
	// CodeRDTCancelled (RDT) is sent by a client that gave up.
	CodeRDTCancelled = "cancelled"
)
