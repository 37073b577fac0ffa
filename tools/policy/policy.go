package policy

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"opsassist/api"
	"opsassist/internal/runecut"
	"opsassist/tools"
	"opsassist/tools/pathguard"
)

// Config configures a Policy.
type Config struct {
	// Rules are the configured rules, in any order: the strictest match
	// wins (deny > ask > allow). Default none: the defaults alone.
	Rules []Rule
	// Inspectors are the tools that say what a call touches, by tool
	// name (command_executor, file_download). A tool without one gets
	// the default of its risk level.
	Inspectors map[string]Inspector
	// Roles are the configured roles by name, besides the built-in
	// admin, operator and viewer. An entry named like a built-in role
	// only adds its Rules to it (Tools or ReadOnly there is an error).
	// Default none: the built-in roles alone.
	Roles map[string]Role
	// DefaultRole is the role of a call without one (tools.Call.Role
	// ""). Default RoleOperator.
	DefaultRole string
}

// Policy is the permission policy. It is immutable and safe for
// concurrent use.
type Policy struct {
	cfg         Config
	roles       map[string]*role
	defaultRole string
}

var _ tools.Policy = (*Policy)(nil)

// New returns the policy for cfg, or an error naming the first
// malformed rule, role or tool pattern.
func New(cfg Config) (*Policy, error) {
	rules, err := nameRules(cfg.Rules, "rules")
	if err != nil {
		return nil, err
	}
	cfg.Rules = rules
	roles, err := compileRoles(cfg.Roles)
	if err != nil {
		return nil, err
	}
	def := cmp.Or(cfg.DefaultRole, RoleOperator)
	if _, ok := roles[def]; !ok {
		return nil, fmt.Errorf("policy: default role %q: %w", def, ErrUnknownRole)
	}
	return &Policy{cfg: cfg, roles: roles, defaultRole: def}, nil
}

// Decide places one call at Allow, Ask or Deny (see the package doc).
func (p *Policy) Decide(_ context.Context, call *tools.Call, spec tools.Spec, args json.RawMessage) tools.Verdict {
	v := tools.Verdict{Shown: tools.Redact(args), By: tools.DecidedByDefault}
	name := p.defaultRole
	if call != nil && call.Role != "" {
		name = call.Role
	}
	var t Target
	inspected := false
	if in, ok := p.cfg.Inspectors[spec.Name]; ok {
		if got, err := in.Inspect(args); err == nil || got.Tier == tools.Deny {
			t, inspected = got, true
		}
	}
	if inspected {
		if code, reason, denied := hardDeny(t); denied {
			v.Decision, v.Code = tools.Deny, code
			say(&v, reason)
			return v
		}
	}
	r, ok := p.roles[name]
	if !ok {
		n := shown(name)
		v.Decision, v.By, v.Rule = tools.Deny, tools.DecidedByRole, "roles."+name
		say(&v, api.Text{
			Zh: fmt.Sprintf("未知角色 %s，拒绝所有工具调用。", n),
			En: fmt.Sprintf("Unknown role %s: every tool call is denied.", n),
		})
		return v
	}
	roleSays, _ := r.decide(spec)
	if roleSays == tools.Deny {
		v.Decision, v.By, v.Rule = tools.Deny, tools.DecidedByRole, r.key
		say(&v, api.Text{
			Zh: fmt.Sprintf("角色 %s 不能使用工具 %s。", r.name, shown(spec.Name)),
			En: fmt.Sprintf("Role %s may not use the tool %s.", r.name, shown(spec.Name)),
		})
		return v
	}
	def, reason := p.byDefault(spec, t, inspected)
	v.Decision = def
	say(&v, reason)
	if rule, ok := p.ruled(r, spec.Name, t); ok {
		v.Decision, v.By, v.Rule = rule.Decision, tools.DecidedByRule, rule.Name
		switch {
		case rule.Decision == tools.Deny:
			say(&v, api.Text{Zh: "配置的权限规则禁止此调用。", En: "A configured permission rule denies this call."})
		case rule.Decision == tools.Ask && def != tools.Ask:
			say(&v, api.Text{Zh: "配置的权限规则要求先确认此调用。", En: "A configured permission rule asks you to confirm this call."})
		case rule.Decision == tools.Allow:
			say(&v, api.Text{})
			// An operator's allow for what the tool runs only once
			// approved: the ask tier, paths outside the roots.
			v.Approved = inspected && def == tools.Ask
		}
	}
	if r.readOnly && def != tools.Allow && v.Decision == tools.Allow {
		// No allow rule widens a read-only role.
		v.Decision, v.Approved, v.By, v.Rule = tools.Ask, false, tools.DecidedByRole, r.key
	}
	if roleSays == tools.Ask && v.Decision == tools.Allow {
		v.Decision, v.Approved, v.By, v.Rule = tools.Ask, false, tools.DecidedByRole, r.key
		say(&v, api.Text{
			Zh: fmt.Sprintf("角色 %s 每次使用工具 %s 都需要确认。", r.name, shown(spec.Name)),
			En: fmt.Sprintf("For the role %s, every call of the tool %s needs confirmation.", r.name, shown(spec.Name)),
		})
	}
	if r.readOnly && v.Decision == tools.Ask {
		// A read-only role is never asked: what would be asked is denied.
		if v.By == tools.DecidedByDefault {
			v.By, v.Rule = tools.DecidedByRole, r.key
		}
		v.Decision = tools.Deny
		say(&v, api.Text{
			Zh: fmt.Sprintf("角色 %s 只读：这次调用需要确认，因此被拒绝，不会询问。", r.name),
			En: fmt.Sprintf("Role %s is read-only: this call would need confirmation, so it is refused without asking.", r.name),
		})
		return v
	}
	if v.Decision == tools.Ask {
		v.Scope, v.ScopeKey = scope(spec.Name, t)
		say(&v, v.ReasonText.Then(covers(spec.Name, t, v.Scope)))
	}
	return v
}

// say sets v's reason: t language by language (ReasonText), and in both
// languages at once (Reason, for the model, the audit log and clients
// that show one text).
func say(v *tools.Verdict, t api.Text) {
	v.ReasonText, v.Reason = t, t.Both()
}

// hardDeny is a denied command or a secret path: denied whatever the
// rules say, never asked.
func hardDeny(t Target) (string, api.Text, bool) {
	if t.Tier == tools.Deny {
		zh := "该命令不允许执行，也不会询问。"
		if t.WhyZh != "" {
			zh = fmt.Sprintf("该命令不允许执行，也不会询问：%s。", shown(t.WhyZh))
		}
		return tools.CodeCommandNotAllowed, api.Text{
			Zh: zh,
			En: fmt.Sprintf("This command is never run: %s.", shown(t.Why)),
		}, true
	}
	for _, p := range t.Paths {
		if p.Class == pathguard.Secret {
			a := shown(p.Arg)
			return tools.CodeSecretFile, api.Text{
				Zh: fmt.Sprintf("%s 可能含有密钥或口令，不会读取，也不会询问。", a),
				En: fmt.Sprintf("%s may hold secrets and is never read.", a),
			}, true
		}
	}
	return "", api.Text{}, false
}

// widenZh and widenEn tell how to read outside the allowed directories
// without being asked: the configuration keys that widen them
// (docs/configuration.md).
const (
	widenZh = "（如需免确认读取，可在配置文件的 allowed_roots 中加入该目录，或在 permissions.rules 中加一条 allow 规则）"
	widenEn = " (to read it without asking, add its directory to allowed_roots, or an allow rule to permissions.rules, in the configuration file)"
)

// byDefault is the decision without rules, and its reason.
func (p *Policy) byDefault(spec tools.Spec, t Target, inspected bool) (tools.Decision, api.Text) {
	if !inspected {
		switch spec.Risk {
		case tools.RiskSensitive, tools.RiskDangerous:
			return tools.Ask, api.Text{
				Zh: fmt.Sprintf("工具 %s 的风险级别为 %s，需要确认。", spec.Name, spec.Risk),
				En: fmt.Sprintf("The tool %s is %s and needs your confirmation.", spec.Name, spec.Risk),
			}
		}
		return tools.Allow, api.Text{}
	}
	if t.Tier == tools.Ask {
		line := shown(strings.Join(append([]string{t.Command}, t.Args...), " "))
		if t.Why != "" && t.WhyZh != "" {
			return tools.Ask, api.Text{
				Zh: fmt.Sprintf("命令 %s 需要你确认后才会执行：%s。", line, t.WhyZh),
				En: fmt.Sprintf("The command %s runs only once you confirm it: %s.", line, t.Why),
			}
		}
		return tools.Ask, api.Text{
			Zh: fmt.Sprintf("运维命令 %s 需要你确认后才会执行。", line),
			En: fmt.Sprintf("The operator command %s runs only once you confirm it.", line),
		}
	}
	var out []string
	for _, p := range t.Paths {
		if p.Class == pathguard.Outside {
			out = append(out, shown(p.Arg))
		}
	}
	if len(out) > 0 {
		list := strings.Join(out, ", ")
		return tools.Ask, api.Text{
			Zh: fmt.Sprintf("%s 在允许的目录之外，读取前需要确认%s。", list, widenZh),
			En: fmt.Sprintf("%s: outside the allowed directories; reading needs your confirmation%s.", list, widenEn),
		}
	}
	return tools.Allow, api.Text{}
}

// ruled is the first of the strictest rules matching the call, of
// Config.Rules and then the role's, if any matches.
func (p *Policy) ruled(r *role, tool string, t Target) (Rule, bool) {
	var best Rule
	found := false
	for _, rules := range [2][]Rule{p.cfg.Rules, r.rules} {
		for _, rule := range rules {
			if rule.matches(tool, t) && (!found || rule.Decision > best.Decision) {
				best, found = rule, true
			}
		}
	}
	return best, found
}

// scope is what an "allow for this session" answer covers: the tool and
// the ask-tier command line, or the tool, the command and the
// directories of the paths outside the roots; "" (the tool and its exact
// arguments) for anything else. Never the whole tool.
//
// The scope is shown to the user and listed with the session's grants:
// secrets in it are redacted (RedactString), so a grant never shows a
// password the model put in an argument. key is what the grant is
// matched on: api.GrantKey of the scope before redaction, so two
// command lines that differ only in a secret are two grants.
func scope(tool string, t Target) (shown, key string) {
	body := scopeBody(t)
	if body == "" {
		return "", ""
	}
	return tool + ":" + tools.RedactString(body), api.GrantKey(tool, tool+":"+body, nil)
}

// scopeBody is scope after the tool's name, before redaction.
func scopeBody(t Target) string {
	if t.Tier == tools.Ask && t.Scope != "" {
		return t.Scope
	}
	dirs, ok := outsideDirs(t)
	if !ok {
		return ""
	}
	if len(dirs) == 0 {
		return ""
	}
	if t.Command != "" {
		dirs = append([]string{t.Command}, dirs...)
	}
	return strings.Join(dirs, " ")
}

// outsideDirs are the directories of the paths outside the roots (a
// directory stands for itself, a file in "/" too); false when one of
// them is "/" itself, which nothing narrower than the whole file system
// names.
func outsideDirs(t Target) ([]string, bool) {
	var dirs []string
	for _, p := range t.Paths {
		if p.Class == pathguard.Outside && p.Resolved == "/" {
			return nil, false
		}
		if p.Class == pathguard.Outside && p.Resolved != "" {
			dirs = append(dirs, scopeDir(p.Resolved))
		}
	}
	return dirs, true
}

// covers says, for the reason, what "allow for this session" would
// cover, in the user's words — what will no longer be asked, never the
// tool's name: the ask-tier command line, the command and the
// directories of the files outside the roots, or this exact call.
func covers(tool string, t Target, scope string) api.Text {
	const (
		zhHead = "选“本对话允许”后，本对话中"
		enHead = "With “allow for this conversation”, "
	)
	if scope == "" {
		return api.Text{Zh: zhHead + "只有完全相同的调用不再询问。", En: enHead + "only this exact call is not asked again in this conversation."}
	}
	if t.Tier == tools.Ask && t.Scope != "" {
		line := shown(t.Scope)
		return api.Text{
			Zh: fmt.Sprintf(zhHead+"运行命令 %s 不再询问。", line),
			En: fmt.Sprintf(enHead+"running the command %s is not asked again in this conversation.", line),
		}
	}
	var dirs []string
	all, _ := outsideDirs(t)
	for _, d := range all {
		dirs = append(dirs, shown(d))
	}
	list := strings.Join(dirs, ", ")
	if t.Command != "" {
		cmd := shown(t.Command)
		return api.Text{
			Zh: fmt.Sprintf(zhHead+"用 %s 读取 %s 下的文件不再询问。", cmd, list),
			En: fmt.Sprintf(enHead+"%s on files in %s is not asked again in this conversation.", cmd, list),
		}
	}
	zhVerb, enVerb := "读取", "reading"
	if tool == "file_download" {
		zhVerb, enVerb = "下载", "downloading"
	}
	return api.Text{
		Zh: fmt.Sprintf(zhHead+"%s %s 下的文件不再询问。", zhVerb, list),
		En: fmt.Sprintf(enHead+"%s files in %s is not asked again in this conversation.", enVerb, list),
	}
}

// maxShown caps a path or command line quoted in a reason: arguments are
// the model's, and a 60 KB one must not come back whole.
const maxShown = 160

// shown is s for a reason: secrets redacted, and cut to its head and tail
// around "…" when longer than maxShown bytes.
func shown(s string) string {
	s = tools.RedactString(s)
	if len(s) <= maxShown {
		return s
	}
	return runecut.Head(s, maxShown*2/3) + "…" + runecut.Tail(s, maxShown/3)
}

// scopeDir is the directory a grant for the physical path resolved
// covers, ending in "/": the directory itself when resolved is one
// ("ls .." lists that directory, not its parent's), else the file's
// directory; a file in "/" stands for itself.
func scopeDir(resolved string) string {
	if fi, err := os.Stat(resolved); err == nil && fi.IsDir() {
		return strings.TrimSuffix(resolved, "/") + "/"
	}
	dir := filepath.Dir(resolved) + "/"
	if dir == "//" {
		return resolved
	}
	return dir
}
