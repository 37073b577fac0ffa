package cli

import "strings"

// The Chinese texts of the help (help.go): what each command does
// (commandDoc.aboutZh) and the REPL's commands. Command names, flags,
// paths and protocol names stay as they are.

// replHelpZh is replHelp in Chinese, line by line.
const replHelpZh = `命令：
  TEXT                    向助手提问
  /upload PATH            上传一个文件
  /download TOKEN [PATH]  下载提供的文件（RDT，失败时改用 NPLT）
  /sessions [--all] [TEXT]  列出最新的 20 个对话（--all：全部），或标题、消息中含有 TEXT 的对话
  /new                    开始新对话
  /switch ID              切换到某个对话（给出唯一前缀即可）
  /delete ID...           删除对话（ID 至少 4 个字符；终端上先询问 y/N）
  /rename [TITLE]         给本对话命名（不带 TITLE：恢复为第一条消息）
  /export [md|json] [PATH]  把本对话导出为 Markdown 或 JSON
  /history                显示本对话的消息
  /clear                  清空本对话的消息（终端上先询问 y/N）
  /model [NAME]           列出模型，或切换到 NAME
  /permissions [revoke ID]  列出本对话的授权，或撤销其中一项
  /tools                  列出服务器的工具和 MCP 服务器
  /tool NAME [JSON]       在本对话中直接调用一个工具
  /help                   显示本帮助
  /quit                   退出（也可按 Ctrl-D）
`

const (
	askAboutZh = `提一个问题并打印回答。需要你许可的工具调用会在终端上询问；用 --yes
时允许一次；标准输入不是终端时拒绝。问题为 "-" 时从标准输入读取问题。
既有问题、标准输入又是管道（不是终端）时，先把管道里的文本作为文件
（stdin.txt，或 --name）上传到对话——不超过服务器的上传上限，最多
256 MiB——再就它提问（标准输入保持打开却没有输入的脚本请用
ask </dev/null）。--model 在提问前切换对话的模型。`

	uploadAboutZh = `上传每个 FILE（终端上显示进度条），每个文件打印一行：文件名、大小、
file_id、SHA-256 和所在对话。`

	downloadAboutZh = `通过 RDT（UDP）把下载链接 TOKEN 指向的文件下载到 PATH，可从 PATH.part
续传；3 秒内收不到 RDT 数据包时改用 NPLT。只有 SHA-256 校验一致后退出
状态才是 0。`

	toolsAboutZh = `tools 列出服务器的工具——名称、来源（builtin 或 mcp:SERVER）、风险、
是否提供给模型、描述的第一行——然后列出每个已配置的 MCP 服务器的状态；
--json 按服务器发来的原样输出工具目录（GET /api/tools 的 api.Catalog
JSON）。

tool 直接调用一个工具，经过服务器的权限策略（拒绝的仍被拒绝；需要询问
的调用视为已由本命令批准）和审计日志，在新对话或 --session 指定的对话
中执行，并打印其输出；调用失败或被拒绝时退出状态为 1。file_download
调用的输出是它的下载链接；命令随后在标准错误输出上说明如何获取
（opsassist download TOKEN -o NAME），REPL 的 /tool 则像一轮对话中的
下载链接那样显示它（/download）。

两者都和其他命令一样使用 NPLT 连接（--server、--token、TLS 参数）；用
--http ADDR（环境变量 OPSASSIST_TOOLS_HTTP）时改用 ADDR 上服务器的 HTTP
接口，令牌和 TLS 参数相同。`

	exportAboutZh = `把对话 ID（或唯一前缀）写到标准输出或 PATH：md 是概括了工具调用的对话
记录；json 是存储的消息。它通过 NPLT 连接请求；加 --http ADDR（环境
变量 OPSASSIST_TOOLS_HTTP）时改走服务器的 HTTP 接口，内容相同。`

	replAboutZh = "交互式对话：输入问题，或斜杠命令：\n\n" + replHelpZh

	evalAboutZh = `在本地运行工具选择评测（不需要服务器）：每行一个 JSON 用例，
{"input": …, "want_tool": …, "want_args": {…}, "want_refuse": true}。
--llm 指定内置规划器（默认）或一个模型提供方：预设（zhipu、openai、
deepseek、ollama），或 --config 给出的服务器 YAML 配置中的一个；其 API
密钥从该提供方的密钥环境变量读取。每个未命中的用例打印一行；加
--report 时再打印各工具的精确率、召回率和混淆矩阵；文件中有
want_refuse 用例时打印 "refused: K/N destructive requests without a
tool call"；最后一行是 "accuracy: 0.XXX (K/N)"。--cases 可以重复：每个
文件先打印一行 "cases: FILE"，再打印它自己的结果和 accuracy 行，所以
最后一行属于最后一个文件。只要评测运行了，退出状态就是 0。`

	evalRetrievalAboutZh = `用配置的嵌入模型（默认 builtin，--config 可指定其他）把 DIR 下的每个
文件建入临时索引，再运行用例，每行一个 JSON 对象：
{"query": …, "want_file": "<文件名>"}。低于相关度下限（--min-score，
默认为配置的 search.min_score；0 保留所有结果）的结果被略去，和
semantic_search 一样。对目标文件未排在第一的查询各打印一行，然后是
recall@1、MRR，最后一行是 "recall@3: 0.XXX (K/N)"。只要评测运行了，
退出状态就是 0。`

	auditAboutZh = `检查 DIR/audit 中服务器的工具调用审计日志（DIR：服务器的数据目录；默认
$OPSASSIST_DATA，否则与 opsassistd 一样为 ./data）：每条记录完好、没有
缺失，并且日志一直延续到 HEAD 指明的记录。通过时打印
"audit: ok (N records)" 并以 0 退出；否则为第一条损坏的记录打印
"audit: broken: FILE:LINE (record SEQ): REASON" 并以 1 退出。退出状态
2：DIR/audit 不存在（DIR 写错，或日志被删除）、目录或文件无法读取，或
命令行有误。有记录但没有 HEAD 文件的日志会被接受（第一次写 HEAD 之前
崩溃），并在标准错误输出上给出警告：它的结尾无法检查。`

	sessionsAboutZh = `像 /sessions 一样列出你的对话，最新的在前：最新的 20 个，以及还有多少个；
--all 列出全部。给出 TEXT 时只列出标题或消息中含有它的对话。--json 把全部对话
（同 --all）输出为一个 JSON 对象（{"sessions": [...]}），供脚本使用。`

	completionAboutZh = `打印一个补全 opsassist 命令、参数和参数值的脚本：--session 和 export
之后补全对话 id，--model 之后补全模型名（向服务器查询，最多 1.5 秒；
服务器未运行时不提供），--format 之后补全 md json，--render 之后补全
auto always never；只在需要文件的地方（upload、-o、--config…）补全文件名。`
	versionAboutZh = "打印版本、构建所用的提交和 Go 版本。"
	helpAboutZh    = "打印帮助，或 COMMAND 的用法、参数和示例。"
)

// usageNotesZh are the Chinese texts of the notes in brackets at the end
// of usage lines (help.go's commandDoc.usage); the command line itself
// stays as it is.
var usageNotesZh = map[string]string{
	"(the question from stdin)": "（从标准输入读取问题）",
}

// usageLine is usage line u for the help, its note in brackets in
// Chinese when zh.
func usageLine(u string, zh bool) string {
	if !zh {
		return u
	}
	for en, cn := range usageNotesZh {
		u = strings.Replace(u, en, cn, 1)
	}
	return u
}
