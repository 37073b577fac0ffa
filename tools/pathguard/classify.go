package pathguard

import "errors"

// Class is where a path falls for the permission policy: the one
// classification the policy (package tools/policy) asks for and the
// tools' checks (Check, Open, Pin and their Approved forms) enforce.
type Class int

// Path classes.
const (
	// Inside is a path inside a root that matches no deny pattern: read
	// without asking.
	Inside Class = iota
	// Outside is a path outside every root that matches no deny pattern:
	// read only once the user approved the call (Approved).
	Outside
	// Secret is a path that matches a deny pattern (as written, or
	// resolved): never read, never asked.
	Secret
	// Unusable is a path that cannot name a file (empty, a NUL byte, a
	// link loop): the tool refuses it with its own error.
	Unusable
)

// String returns "inside", "outside", "secret" or "unusable".
func (c Class) String() string {
	switch c {
	case Inside:
		return "inside"
	case Outside:
		return "outside"
	case Secret:
		return "secret"
	}
	return "unusable"
}

// Classify resolves path like Check and says where it falls, with the
// resolved path (empty for Unusable). Like Check, the answer is a
// snapshot: the tools check the file they open again.
func (v *Validator) Classify(path string) (Class, string) {
	resolved, err := v.Approved().Check(path)
	switch {
	case err == nil && v.inside(resolved):
		return Inside, resolved
	case err == nil:
		return Outside, resolved
	case errors.Is(err, ErrForbidden):
		r, _ := v.resolved(path)
		return Secret, r
	}
	return Unusable, ""
}

// resolved is the physical absolute path path names.
func (v *Validator) resolved(path string) (string, error) {
	abs, err := v.absolute(path)
	if err != nil {
		return "", err
	}
	return resolve(abs)
}

// Approved returns a Validator like v that also accepts paths outside
// the roots: the one a tool uses for a call the user approved
// (tools.Call.Approved). Everything else still holds: a path matching a
// deny pattern is refused (ErrForbidden), Open and Pin walk without
// following links and check the file they opened, hard links are
// refused unless Config.AllowHardlinks.
func (v *Validator) Approved() *Validator {
	a := *v
	a.outsideOK = true
	return &a
}
