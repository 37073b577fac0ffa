package builtin

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"opsassist/internal/bytesize"
	"opsassist/storage/history"
	"opsassist/tools"
	"opsassist/tools/askuser"
)

// maxChoices bounds the files offered in one question.
const maxChoices = 10

// Kinds of files a download may name without naming the file, and the
// extensions of each: "下载配置文件", "download the log".
var fileKinds = []struct {
	words []string
	exts  []string
}{
	{[]string{"配置", "config", "conf"}, []string{".yaml", ".yml", ".json", ".conf", ".cfg", ".ini", ".toml", ".properties", ".env", ".xml"}},
	{[]string{"日志", "log"}, []string{".log", ".out", ".txt", ".gz"}},
	{[]string{"yaml", "yml"}, []string{".yaml", ".yml"}},
	{[]string{"json"}, []string{".json"}},
	{[]string{"pdf", "报告", "report"}, []string{".pdf"}},
	{[]string{"csv", "表格", "spreadsheet"}, []string{".csv"}},
	{[]string{"脚本", "script"}, []string{".sh", ".py"}},
}

// ambiguousDownload reports the uploads a download names only by kind
// ("下载配置文件" with app.yaml and db.yaml uploaded), newest first, when
// more than one matches: the user is asked which (ask_user). A named
// file, a path, "this file" or a request naming no kind of file ("the
// deployment guide", a document search) is not ambiguous.
func ambiguousDownload(in Intent, text string, uploads []history.Upload) []history.Upload {
	if in.Kind != "download" || in.Tool != "semantic_search" || looksLikeFileName(in.Query) {
		return nil
	}
	lower := strings.ToLower(text)
	var exts []string
	for _, k := range fileKinds {
		if slices.ContainsFunc(k.words, func(w string) bool { return strings.Contains(lower, w) }) {
			exts = k.exts
			break
		}
	}
	if exts == nil {
		return nil // "download the deployment guide" is a search
	}
	var match []history.Upload
	seen := map[string]bool{}
	for i := len(uploads) - 1; i >= 0 && len(match) < maxChoices; i-- {
		u := uploads[i]
		if seen[u.Filename] || !slices.Contains(exts, strings.ToLower(filepath.Ext(u.Filename))) {
			continue // an older upload of the same name is shadowed
		}
		seen[u.Filename] = true
		match = append(match, u)
	}
	if len(match) < 2 {
		return nil
	}
	return match
}

// whichFile is the ask_user call offering files as a choice, the newest
// recommended; option ids are the uploads' file ids.
func whichFile(zh bool, files []history.Upload) map[string]any {
	t := lang(zh)
	opts := make([]map[string]any, len(files))
	for i, u := range files {
		o := map[string]any{"id": u.FileID, "label": u.Filename,
			"description": fmt.Sprintf(t("%s，上传于 %s", "%s, uploaded %s"), bytesize.Format(u.Size), u.UploadedAt.Local().Format("2006-01-02 15:04"))}
		if i == 0 {
			o["recommended"] = true
		}
		opts[i] = o
	}
	return map[string]any{"question": t("有多个文件符合，要下载哪一个？", "Several files match; which one should I download?"),
		"kind": "choice", "options": opts}
}

// chosenFile returns the upload an ask_user result chose, if any.
func chosenFile(r result, uploads []history.Upload) (history.Upload, bool) {
	var out askuser.Result
	if !r.Success || json.Unmarshal(r.Output, &out) != nil || out.Option == "" {
		return history.Upload{}, false
	}
	for _, u := range uploads {
		if u.FileID == out.Option {
			return u, true
		}
	}
	return history.Upload{}, false
}

// describeQuestion tells the user what became of an ask_user question
// that led nowhere: nobody answered, or this client cannot be asked.
func describeQuestion(zh bool, r result) string {
	t := lang(zh)
	if !r.Success {
		files := ""
		if q, ok := r.args["options"].([]any); ok {
			var names []string
			for _, o := range q {
				if m, ok := o.(map[string]any); ok {
					names = append(names, fmt.Sprint(m["label"]))
				}
			}
			files = strings.Join(names, ", ")
		}
		return fmt.Sprintf(t("有多个文件符合（%s），但无法在此客户端提问。请说明要下载哪一个，例如“下载 %s”。", "Several files match (%s), and this client cannot be asked which. Say which one, e.g. \"download %s\"."), files, firstOf(files))
	}
	return t("没有收到回答，所以没有下载任何文件。", "No answer came, so nothing was downloaded.")
}

func firstOf(list string) string {
	first, _, _ := strings.Cut(list, ", ")
	return first
}

// canAsk reports whether the planner may call ask_user this step.
func canAsk(specs []tools.Spec) bool {
	return slices.ContainsFunc(specs, func(s tools.Spec) bool { return s.Name == askuser.Name })
}
