package tools

import (
	"fmt"
	"regexp"
	"strings"
)

// reSchemaFailure is the registry's error for arguments its JSON schema
// refused (Registry.Execute with validationText): the tool, then
// "LOCATION: KIND" parts separated by "; ".
var reSchemaFailure = regexp.MustCompile(`^invalid arguments for (\S+): (.+)$`)

// reQuotedName is a property name the validator quotes ('file_path').
var reQuotedName = regexp.MustCompile(`'([^']*)'`)

// schemaFailureText says which arguments a call's schema refused —
// missing, unknown, of the wrong type or value — naming each property,
// in Chinese when zh; "" when errText is not the registry's schema
// error. The raw text stays in the model's result, the log and the audit
// record.
func schemaFailureText(zh bool, tool, errText string) string {
	m := reSchemaFailure.FindStringSubmatch(errText)
	if m == nil {
		return ""
	}
	var said []string
	for part := range strings.SplitSeq(m[2], "; ") {
		loc, kind, ok := strings.Cut(part, ": ")
		if !ok {
			continue
		}
		prop := strings.ReplaceAll(strings.TrimPrefix(loc, "/"), "/", ".")
		names := func() (string, int) {
			var ns []string
			for _, q := range reQuotedName.FindAllStringSubmatch(kind, -1) {
				if prop != "" {
					ns = append(ns, prop+"."+q[1])
				} else {
					ns = append(ns, q[1])
				}
			}
			return strings.Join(ns, pickLang(zh, "、", ", ")), len(ns)
		}
		switch {
		case strings.HasPrefix(kind, "missing propert"):
			n, k := names()
			en := "the argument %s is missing"
			if k > 1 {
				en = "the arguments %s are missing"
			}
			said = append(said, fmt.Sprintf(pickLang(zh, "缺少参数 %s", en), n))
		case strings.HasPrefix(kind, "additional properties"):
			n, k := names()
			en := "%s is not an argument it takes"
			if k > 1 {
				en = "%s are not arguments it takes"
			}
			said = append(said, fmt.Sprintf(pickLang(zh, "不认识参数 %s", en), n))
		case strings.HasPrefix(kind, "got ") && prop != "":
			var got, want string
			if _, err := fmt.Sscanf(kind, "got %s want %s", &got, &want); err == nil {
				got = strings.TrimSuffix(got, ",")
				said = append(said, fmt.Sprintf(pickLang(zh, "参数 %s 应为 %s，而不是 %s", "the argument %s must be a %s, not a %s"), prop, want, got))
				continue
			}
			said = append(said, fmt.Sprintf(pickLang(zh, "参数 %s 的值不符合要求", "the argument %s has a value it does not take"), prop))
		case prop != "":
			said = append(said, fmt.Sprintf(pickLang(zh, "参数 %s 的值不符合要求", "the argument %s has a value it does not take"), prop))
		default:
			said = append(said, pickLang(zh, "参数不符合要求", "the arguments are not what it takes"))
		}
	}
	if len(said) == 0 {
		return ""
	}
	return fmt.Sprintf(pickLang(zh, "%s 的参数有误：%s，所以没有执行。", "%s was called with wrong arguments: %s, so it did not run."),
		tool, strings.Join(said, pickLang(zh, "；", "; ")))
}
