package tools

import (
	"errors"
	"fmt"
	"strings"
)

// Failure codes (Result.Code): why a call did not succeed, named once
// here and said in the user's language by UserText.
const (
	CodeDeclined       = "declined"
	CodeNotAnswered    = "not_answered"
	CodeCancelled      = "cancelled"
	CodeDisconnected   = "disconnected"
	CodeNoConfirmation = "no_confirmation"
	CodeDenied         = "denied"
	CodeDeniedByRole   = "denied_by_role"
	CodeDeniedByRule   = "denied_by_rule"
	CodeRateLimited    = "rate_limited"
	CodeAuditPaused    = "audit_paused"
	CodeLoopStopped    = "loop_stopped"
	CodeStepLimit      = "step_limit"
	CodeTimeout        = "timeout"
	// CodeUnavailable: the tool cannot serve yet (its index or backend
	// is missing); a tool says so with WithCode.
	CodeUnavailable = "unavailable"
	// CodeArgsInCommand: command_executor was called with arguments
	// inside its command field ({"command":"df -h"}); it runs the
	// command's name alone, with the arguments in args.
	CodeArgsInCommand = "args_in_command"
	// CodeNotRegular: a path the call names is not a regular file or
	// directory (a device, a FIFO, a socket).
	CodeNotRegular = "not_regular"
	// CodeSecretFile: a path the call names may hold secrets (a deny
	// pattern) and is never read.
	CodeSecretFile = "secret_file"
	// CodeCommandNotAllowed: the command is not one the assistant runs
	// (outside the whitelist and the ask tier, or on the deny list).
	CodeCommandNotAllowed = "command_not_allowed"
	// CodeNoUploads: the call needs an uploaded file, and none has been
	// uploaded in this conversation.
	CodeNoUploads = "no_uploads"
)

// Coded is an error that names its failure code (Result.Code) itself;
// WithCode marks any error. The Registry takes the outermost one's code
// over the one the error's class would give.
type Coded interface {
	error
	FailureCode() string
}

// codedError is an error a tool marked with its failure code.
type codedError struct {
	code string
	err  error
}

func (e *codedError) Error() string       { return e.err.Error() }
func (e *codedError) Unwrap() error       { return e.err }
func (e *codedError) FailureCode() string { return e.code }

// WithCode marks err with the failure code c (one of the Code
// constants); the result unwraps to err, and WithCode(c, nil) is nil.
func WithCode(c string, err error) error {
	if err == nil {
		return nil
	}
	return &codedError{code: c, err: err}
}

// codeOf is the code err names itself (Coded), or "".
func codeOf(err error) string {
	if ce, ok := errors.AsType[Coded](err); ok {
		return ce.FailureCode()
	}
	return ""
}

// failureCode is the Code of a call that did not succeed, from its
// record: who refused it, or the class of its error.
func failureCode(rec *CallRecord) string {
	switch rec.Status {
	case StatusDenied:
		switch rec.DecidedBy {
		case ByUser:
			return CodeDeclined
		case ByTimeout:
			return CodeNotAnswered
		case ByCancel:
			return CodeCancelled
		case ByDisconnect:
			return CodeDisconnected
		case DecidedByNoClient:
			return CodeNoConfirmation
		case DecidedByRateLimit:
			return CodeRateLimited
		case DecidedByAudit:
			return CodeAuditPaused
		case DecidedByLoopGuard:
			return CodeLoopStopped
		case DecidedByStepLimit:
			return CodeStepLimit
		case DecidedByRole:
			return CodeDeniedByRole
		case DecidedByRule:
			return CodeDeniedByRule
		}
		return CodeDenied
	case StatusTimeout:
		return CodeTimeout
	case StatusCancelled:
		return CodeCancelled
	}
	if rec.ErrorClass != ClassNone {
		return string(rec.ErrorClass)
	}
	return string(ClassExecution)
}

// userTexts are the failure codes said to the user, Chinese then
// English; %[1]s is the tool.
var userTexts = map[string][2]string{
	CodeDeclined:            {"你拒绝了 %[1]s 的调用，它没有执行。", "You declined %[1]s, so it did not run."},
	CodeNotAnswered:         {"%[1]s 的确认请求没有在时限内得到回答，已按拒绝处理，没有执行。", "The confirmation for %[1]s was not answered in time, so it did not run."},
	CodeCancelled:           {"请求已取消，%[1]s 没有执行完。", "The request was cancelled, so %[1]s did not finish."},
	CodeDisconnected:        {"客户端在回答确认前断开了，%[1]s 没有执行。", "The client left before answering, so %[1]s did not run."},
	CodeNoConfirmation:      {"%[1]s 需要你确认，但当前客户端无法询问你，所以没有执行。可以在终端里用 opsassist（或 ask --yes）重试，或请管理员在配置中放宽 allowed_roots / permissions.rules。", "%[1]s needs your confirmation, and this client cannot ask you, so it did not run. Retry from a terminal with opsassist (or ask --yes), or have an administrator widen allowed_roots / permissions.rules in the configuration."},
	CodeDenied:              {"这次调用（%[1]s）不被允许（禁止的命令，或可能含有密钥、口令的文件），没有执行。", "This call (%[1]s) is not allowed (a forbidden command, or a file that may hold secrets), so it did not run."},
	CodeDeniedByRole:        {"你的角色不允许这次 %[1]s 调用，没有执行；如需放宽，请管理员在配置中修改你的角色（users 的 role，或 roles 的 tools / rules / read_only）。", "Your role does not allow this call of %[1]s, so it did not run; to widen it, an administrator changes your role in the configuration (users' role, or roles' tools, rules, read_only)."},
	CodeDeniedByRule:        {"配置的权限规则（permissions.rules）禁止这次 %[1]s 调用，没有执行。", "A configured permission rule (permissions.rules) forbids this call of %[1]s, so it did not run."},
	CodeRateLimited:         {"调用过于频繁（%[1]s），已达到配置的 rate_limits，请稍后再试。", "Too many calls (%[1]s): the configured rate_limits were reached; try again later."},
	CodeAuditPaused:         {"审计日志暂时无法写入，工具调用已暂停，请联系管理员。", "The audit log cannot be written, so tool calls are paused; contact the administrator."},
	CodeLoopStopped:         {"同一个调用（%[1]s）被反复发出，已停止，没有再次执行。", "The same call (%[1]s) was repeated with the same arguments, so it was stopped."},
	CodeStepLimit:           {"本轮的工具调用次数已达上限，%[1]s 没有执行。", "This answer reached its limit of tool calls, so %[1]s did not run."},
	CodeTimeout:             {"执行超时（%[1]s）。", "The call timed out (%[1]s)."},
	CodeUnavailable:         {"%[1]s 暂时不可用（服务刚启动或未配置），请稍后再试。", "%[1]s is not available yet (the server just started, or it is not configured); try again later."},
	CodeArgsInCommand:       {"%[1]s 的调用格式有误：命令名里带了参数（命令名和参数要分开写，如命令 df、参数 -h），所以没有执行。", "%[1]s was called with the arguments inside the command's name (the name and its arguments are given apart, e.g. command df, arguments -h), so it did not run."},
	CodeNotRegular:          {"%[2]s不是普通文件或目录（例如设备或管道），不会读取它（%[1]s）。", "%[2]s is not a regular file or directory (a device or a pipe, say), so it was not read (%[1]s)."},
	CodeSecretFile:          {"%[2]s可能含有密钥或口令，不会读取它，也不会询问（%[1]s）。", "%[2]s may hold secrets, so it is never read (%[1]s)."},
	CodeCommandNotAllowed:   {"%[2]s不在允许执行的命令之内，没有运行它（%[1]s）。", "%[2]s is not a command the assistant runs, so it did not run (%[1]s)."},
	CodeNotFound:            {"%[2]s不存在（%[1]s）。", "%[2]s does not exist (%[1]s)."},
	CodeAccessDenied:        {"系统拒绝了对%[2]s的访问（权限不足），无法读取它（%[1]s）。", "The system denied access to %[2]s (permission denied), so it could not be read (%[1]s)."},
	CodeIsDirectory:         {"%[2]s是一个目录，不是文件，无法把它当作文件读取（%[1]s）。", "%[2]s is a directory, not a file, so it could not be read as one (%[1]s)."},
	CodeExists:              {"%[2]s已经存在，没有覆盖它（%[1]s）。", "%[2]s exists already, so it was not overwritten (%[1]s)."},
	CodeNoUploads:           {"这个对话里还没有上传文件——先用 opsassist upload FILE（REPL 里 /upload）上传，再问。", "No file has been uploaded in this conversation yet — upload one with opsassist upload FILE (/upload in the REPL), then ask again."},
	string(ClassConnection): {"无法连接到所需的服务（%[1]s），请稍后再试。", "The service the call needs could not be reached (%[1]s); try again later."},
	string(ClassPermission): {"系统拒绝了访问，没有权限（%[1]s）。", "The system refused access: no permission (%[1]s)."},
	string(ClassParameter):  {"%[1]s 的参数有误，或要找的文件不存在。", "%[1]s got an invalid argument, or the file it was asked for does not exist."},
	string(ClassValidation): {"无法调用（%[1]s：工具不存在或参数格式错误）。", "The call could not be made (%[1]s: no such tool, or malformed arguments)."},
	string(ClassExecution):  {"%[1]s 执行失败。", "%[1]s failed."},
}

// UserText says why a call of tool did not succeed, from its Result's
// Code, in Chinese when zh (chat.IsChinese of the user's message) and
// in English otherwise, without the raw error, which stays in Result.Error,
// the log and the audit record. It returns "" for a code it does not
// know (a Result from before codes, or a successful one).
func UserText(code, tool string, zh bool) string {
	return UserTextAbout(code, tool, "", zh)
}

// UserTextAbout is UserText naming what the call was refused about: the
// file or command line subject (quoted) for the codes that concern one
// (CodeNotRegular, CodeSecretFile, CodeCommandNotAllowed, CodeNotFound,
// CodeAccessDenied, CodeIsDirectory, CodeExists); without a
// subject they say "this file" or "this command".
func UserTextAbout(code, tool, subject string, zh bool) string {
	t, ok := userTexts[code]
	if !ok {
		return ""
	}
	what := fmt.Sprintf("%q", subject)
	if subject == "" {
		what = subjectless[code][1]
		if zh {
			what = subjectless[code][0]
		}
	}
	if !strings.Contains(t[0], "%") {
		return pickLang(zh, t[0], t[1]) // names neither tool nor subject
	}
	if zh {
		return fmt.Sprintf(t[0], tool, what)
	}
	s := fmt.Sprintf(t[1], tool, what)
	if _, ok := subjectless[code]; ok && subject == "" {
		s = strings.ToUpper(s[:1]) + s[1:] // "This file may hold secrets…"
	}
	return s
}

// subjectless names the subject of a code's text when the caller does
// not know it, Chinese then English.
var subjectless = map[string][2]string{
	CodeNotRegular:        {"这个路径", "this path"},
	CodeSecretFile:        {"这个文件", "this file"},
	CodeCommandNotAllowed: {"这个命令", "this command"},
	CodeNotFound:          {"这个文件", "this file"},
	CodeAccessDenied:      {"这个文件", "this file"},
	CodeIsDirectory:       {"这个路径", "this path"},
	CodeExists:            {"这个文件", "this file"},
}

// UserTextIn is text — what UserText says for tool, in either language —
// in Chinese when zh, so a client can show a status the agent worded in
// the question's language in its own; ok is false for any other text (a
// tool's raw error), which stays as it is.
func UserTextIn(text, tool string, zh bool) (string, bool) {
	for code := range userTexts {
		if text == UserText(code, tool, true) || text == UserText(code, tool, false) {
			return UserText(code, tool, zh), true
		}
	}
	return "", false
}
