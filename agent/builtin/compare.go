package builtin

import (
	"encoding/json"
	"fmt"
	"strings"

	"opsassist/internal/confkv"
)

var (
	// reDiffQuestion asks how two files differ: "对比这两个配置文件", "what
	// changed between config_old.yaml and config.yaml". It is the
	// answer's reading, wider than the planner's reCompare (files.go)
	// that decides to list the files.
	reDiffQuestion = compile(`(?i)对比|比较|比对|区别|差异|差别|不同|有什么变化|改了(什么|哪些)|\bdiff\b|\bcompare\b|\bdiffer|\bdifferences?\b|\bchanged\b|\bchanges\b`)
	// reOldName marks the older of two files by its name.
	reOldName = compile(`(?i)(^|[._-])(old|bak|backup|orig|prev|previous)([._-]|$)|\.bak$|旧`)
)

// maxDiffLines is how many differences a comparison lists.
const maxDiffLines = 30

// readFile is a file_upload read result.
type readFile struct {
	FileID     string  `json:"file_id"`
	Filename   string  `json:"filename"`
	UploadedAt string  `json:"uploaded_at"`
	Content    *string `json:"content"`
	Truncated  bool    `json:"truncated"`
}

// reads are this turn's successful file_upload reads, in order.
func reads(results []result) []readFile {
	var out []readFile
	for _, r := range results {
		var f readFile
		if r.tool == "file_upload" && r.Success && json.Unmarshal(r.Output, &f) == nil && f.Content != nil {
			out = append(out, f)
		}
	}
	return out
}

// compareNext continues a comparison ("对比这两个配置文件"): after the
// uploads were listed, it reads each of the two to compare — the two
// the question names, else the newest two — by file_id, one call each;
// describeCompare then answers from the two reads. A read that failed
// is not tried again.
func compareNext(in Intent, results []result) (nextCall, bool) {
	if in.Kind != "upload_ref" || !reDiffQuestion.MatchString(in.input) {
		return nextCall{}, false
	}
	var files []struct {
		FileID   string `json:"file_id"`
		Filename string `json:"filename"`
	}
	tried := map[string]bool{}
	for _, r := range results {
		if r.tool != "file_upload" {
			continue
		}
		if id, _ := r.args["file_id"].(string); id != "" {
			tried[id] = true
		}
		var list struct {
			Files []struct {
				FileID   string `json:"file_id"`
				Filename string `json:"filename"`
			} `json:"files"`
		}
		if r.Success && json.Unmarshal(r.Output, &list) == nil && len(list.Files) >= 2 {
			files = list.Files
		}
	}
	if len(files) < 2 {
		return nextCall{}, false
	}
	pick := files[len(files)-2:]
	var named []int
	lower := strings.ToLower(in.input)
	for i, f := range files {
		if f.Filename != "" && strings.Contains(lower, strings.ToLower(f.Filename)) {
			named = append(named, i)
		}
	}
	if len(named) >= 2 {
		pick = append(pick[:0:0], files[named[len(named)-2]], files[named[len(named)-1]])
	}
	for _, f := range pick {
		if !tried[f.FileID] {
			return nextCall{"file_upload", map[string]any{"action": "read", "file_id": f.FileID}}, true
		}
	}
	return nextCall{}, false
}

// compareAnswer answers a comparison from the turn's last two reads, or
// says that two files are needed when the uploads listed were one; ok
// is false when the question compares nothing or fewer than two files
// were read.
func compareAnswer(zh bool, in Intent, results []result) (string, bool) {
	if !reDiffQuestion.MatchString(in.input) {
		return "", false
	}
	rs := reads(results)
	if len(rs) < 2 {
		if len(rs) == 0 && in.Kind == "upload_ref" && listedOne(results) {
			return lang(zh)("要对比需要两个文件，但本会话只上传了一个。请再上传一个文件，然后再问我。",
				"A comparison needs two files, but only one was uploaded in this conversation. Upload another and ask again."), true
		}
		return "", false
	}
	return describeCompare(zh, rs[len(rs)-2], rs[len(rs)-1]), true
}

// listedOne reports whether the turn's last file_upload list found
// exactly one upload.
func listedOne(results []result) bool {
	for i := len(results) - 1; i >= 0; i-- {
		var list struct {
			Total *int `json:"total"`
		}
		if r := results[i]; r.tool == "file_upload" && r.Success && json.Unmarshal(r.Output, &list) == nil && list.Total != nil {
			return *list.Total == 1
		}
	}
	return false
}

// describeCompare compares two configuration files key by key — by
// their flattened key paths (internal/confkv), so a YAML file compares
// with its TOML or .env rewrite — the older first (by a name such as
// config_old.yaml or .bak, else by upload time): the counts first, then
// the changed settings with old → new values, the added and the
// removed, at most maxDiffLines, secrets hidden. Files that are not
// configuration files are compared line by line.
func describeCompare(zh bool, a, b readFile) string {
	if older(b, a) {
		a, b = b, a
	}
	t := lang(zh)
	_, ea, errA := confkv.Parse(a.Filename, *a.Content)
	_, eb, errB := confkv.Parse(b.Filename, *b.Content)
	var s string
	if errA != nil || errB != nil || !keyFile(a.Filename) || !keyFile(b.Filename) {
		s = compareLines(zh, a, b)
	} else {
		s = compareSettings(zh, a.Filename, b.Filename, settingsOf(ea), settingsOf(eb))
	}
	if a.Truncated || b.Truncated {
		s += t("\n（文件较长，只比较了开头部分）", "\n(long files: only their beginnings were compared)")
	}
	return s
}

// older reports whether x is the older version of the pair.
func older(x, y readFile) bool {
	xo, yo := reOldName.MatchString(x.Filename), reOldName.MatchString(y.Filename)
	if xo != yo {
		return xo
	}
	return x.UploadedAt != "" && y.UploadedAt != "" && x.UploadedAt < y.UploadedAt
}

// compareSettings lists the differences of two files' settings.
func compareSettings(zh bool, oldName, newName string, olds, news []setting) string {
	t := lang(zh)
	oldBy := map[string]setting{}
	for _, e := range olds {
		oldBy[e.Path] = e
	}
	newBy := map[string]setting{}
	for _, e := range news {
		newBy[e.Path] = e
	}
	var changed, added, removed []string
	seen := map[string]bool{}
	for _, e := range news {
		if seen[e.Path] {
			continue
		}
		seen[e.Path] = true
		e = newBy[e.Path] // a key written twice: its last value
		o, ok := oldBy[e.Path]
		switch {
		case !ok:
			added = append(added, "+ "+shownPath(e.Path)+" = "+shownValue(e))
		case o.Value != e.Value:
			changed = append(changed, "~ "+shownPath(e.Path)+": "+shownValue(o)+" → "+shownValue(e))
		}
	}
	for _, e := range olds {
		if _, ok := newBy[e.Path]; !ok && !seen[e.Path] {
			seen[e.Path] = true
			removed = append(removed, "- "+shownPath(e.Path)+" = "+shownValue(e))
		}
	}
	if len(changed)+len(added)+len(removed) == 0 {
		if zh {
			return spaceHanLatin(fmt.Sprintf("%s 与 %s 的配置项相同（共 %d 项）。", oldName, newName, len(newBy)))
		}
		return fmt.Sprintf("%s and %s have the same settings (%d).", oldName, newName, len(newBy))
	}
	var head string
	if zh {
		head = fmt.Sprintf("对比 %s（旧）与 %s（新）：修改 %d 项，新增 %d 项，删除 %d 项。", oldName, newName, len(changed), len(added), len(removed))
	} else {
		head = fmt.Sprintf("Comparing %s (old) with %s (new): %d changed, %d added, %d removed.", oldName, newName, len(changed), len(added), len(removed))
	}
	lines := append(append(changed, added...), removed...)
	return head + "\n" + cappedBlock(zh, lines) + t("\n（~ 修改，+ 新增，- 删除）", "\n(~ changed, + added, - removed)")
}

// cappedBlock fences at most maxDiffLines lines and says how many more
// there are.
func cappedBlock(zh bool, lines []string) string {
	t := lang(zh)
	s := codeBlock(strings.Join(lines[:min(len(lines), maxDiffLines)], "\n"))
	if n := len(lines) - maxDiffLines; n > 0 {
		s += fmt.Sprintf(t("\n…另有 %d 项未列出", "\n… and %d more"), n)
	}
	return s
}

// compareLines compares two texts that are not both configuration
// files: the lines only one of them has (blank lines and comments
// aside), secrets hidden.
func compareLines(zh bool, a, b readFile) string {
	count := func(text string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimSpace(l); l != "" && !isComment(l) {
				m[l]++
			}
		}
		return m
	}
	ca, cb := count(*a.Content), count(*b.Content)
	var only []string
	gone, came := 0, 0
	for _, l := range strings.Split(*a.Content, "\n") {
		if l = strings.TrimSpace(l); cb[l] < ca[l] && l != "" && !isComment(l) {
			ca[l]--
			gone++
			only = append(only, "- "+shownLine(l))
		}
	}
	ca = count(*a.Content)
	for _, l := range strings.Split(*b.Content, "\n") {
		if l = strings.TrimSpace(l); ca[l] < cb[l] && l != "" && !isComment(l) {
			cb[l]--
			came++
			only = append(only, "+ "+shownLine(l))
		}
	}
	if gone+came == 0 {
		if zh {
			return spaceHanLatin(fmt.Sprintf("%s 与 %s 的内容相同（空行和注释除外）。", a.Filename, b.Filename))
		}
		return fmt.Sprintf("%s and %s have the same lines (blank lines and comments aside).", a.Filename, b.Filename)
	}
	var head string
	if zh {
		head = fmt.Sprintf("%s 与 %s 不都是可解析的配置文件，按行对比：%s 独有 %d 行，%s 独有 %d 行。", a.Filename, b.Filename, a.Filename, gone, b.Filename, came)
	} else {
		head = fmt.Sprintf("%s and %s are not both configuration files I can parse; compared line by line: %d lines only in %s, %d only in %s.", a.Filename, b.Filename, gone, a.Filename, came, b.Filename)
	}
	return head + "\n" + cappedBlock(zh, only)
}
