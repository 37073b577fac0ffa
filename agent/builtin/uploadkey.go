package builtin

import "strings"

var (
	// reConfName is a configuration file named by its bare name
	// ("app.toml", ".env", "application.properties"); a name with a
	// directory is a file of the server, a command's.
	reConfName = compile(`(?i)(?:^|[\s"'“‘(（：:,，]|\p{Han})(\.env|[\w\-]+(?:\.[\w\-]+)*\.(?:env|properties|toml|ini|json|ya?ml|conf|cfg))(?:$|[\s"'”’)）：:,，.?？!！]|\p{Han})`)
	// reConfFormat names a configuration format or a configuration:
	// "the env file", "这个 TOML 配置", "this config".
	reConfFormat = compile(`(?i)\b(env|dotenv|toml|ini|properties|json|yaml|yml)\b|配置文件|配置|\bconfig(uration)?s?\b|\bsettings file\b`)
	// reThisFile is the newest upload called a file, whatever its kind.
	reThisFile = compile(`(?i)(这|该|此)(个|份)?\s*文件|\bthis file\b|\bthe file i (just )?(uploaded|sent)\b`)
	// reKeyQuestion asks for a setting's value: a port, a host, a level,
	// what a key is or is set to.
	reKeyQuestion = compile(`(?i)端口|地址|主机|级别|用户名|超时|开了|启用|(是|配的是|设的是|设置的?是|配了|设了)(多少|什么|啥|几)|多少|是什么|\b(port|host|address|level|timeout|user(name)?|value|enabled?)\b|\bset (to)?\b|\bwhat('s| is| does)\b|\bwhich\b`)
	// reWhichFile asks which file says something: a search.
	reWhichFile = compile(`(?i)哪个文件|哪些文件|哪份|\b(which|what) (file|config|document)s?\b`)
	// reFormatWord maps a format word to the name filter of its files.
	reFormatWord = compile(`(?i)\b(env|dotenv|toml|ini|properties|json|ya?ml)\b`)
)

// uploadKeyIntent reads one upload for a question about its content
// that other rules misread: a setting of a configuration in any format
// ("这个 .env 文件里 DATABASE_PORT 是多少？", "what port is mysql on in
// my.ini?", "这个文件里日志级别是什么？" — a log level of a
// configuration is a key, not a log file), or the last lines of an
// uploaded log ("显示我上传的日志的最后 3 行", "…的前 2 行"). It needs uploads; a file
// named with a directory is the server's, and comparisons, error
// questions and "which file…" are other rules'.
func uploadKeyIntent(text string, hasUploads bool) (Intent, bool) {
	if !hasUploads || reCompare.MatchString(text) || reCount.MatchString(text) || reWhichFile.MatchString(text) {
		return Intent{}, false
	}
	if namesPath(text) {
		return Intent{}, false
	}
	args := map[string]any{"action": "read", "reference": "this"}
	if rePrev.MatchString(text) {
		args["reference"] = "previous"
	}
	prose := names(text)
	name := ""
	if m := reConfName.FindStringSubmatch(text); m != nil {
		name = m[1]
	}
	switch {
	case (reTail.MatchString(prose) || reHead.MatchString(prose)) && (reUploadWord.MatchString(text) || reThis.MatchString(text) || name != "") && !reErrorQuestion.MatchString(prose):
		// The last or first lines of an upload: read it.
		if ft := fileType(text); ft == "log" {
			args["file_type"] = ft
		}
	case reKeyQuestion.MatchString(prose) && !reErrorQuestion.MatchString(prose) &&
		(name != "" || reConfFormat.MatchString(prose) || reThisFile.MatchString(text)):
		switch {
		case name != "":
			args["file_type"] = strings.TrimPrefix(name, ".")
		case reFormatWord.MatchString(prose):
			f := strings.ToLower(reFormatWord.FindString(prose))
			if f == "dotenv" {
				f = "env"
			}
			args["file_type"] = f
		}
	default:
		return Intent{}, false
	}
	return Intent{Kind: "upload_ref", Tool: "file_upload", Args: args}, true
}
