package tools

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.uber.org/zap"
)

// ErrNameTaken is returned (wrapped, in ReplaceSource's joined error)
// for a tool whose name another source already registered.
var ErrNameTaken = errors.New("tools: name taken by another source")

// isBuiltin reports whether source names the built-in tools.
func isBuiltin(source string) bool { return source == "" || source == SourceBuiltin }

// ReplaceSource atomically replaces every registered tool whose
// Spec.Source is source with ts (nil or empty: the source's tools are
// removed). Each tool in ts must have Spec.Source == source. A tool
// whose schema does not compile, whose name is empty or repeated, or
// whose name a tool of another source holds (ErrNameTaken) is skipped;
// the rest are registered, and the skipped ones are reported in the
// returned error (errors.Join of one error per tool). Callers in the
// middle of Execute keep the entry they looked up.
func (r *Registry) ReplaceSource(source string, ts []Tool) error {
	if isBuiltin(source) {
		return fmt.Errorf("tools: ReplaceSource of the built-in tools")
	}
	type ready struct {
		name string
		e    *entry
	}
	var errs []error
	var add []ready
	seen := make(map[string]bool, len(ts))
	for _, t := range ts {
		spec := t.Spec()
		switch {
		case spec.Name == "":
			errs = append(errs, fmt.Errorf("tools: %s: tool without a name", source))
			continue
		case spec.Source != source:
			errs = append(errs, fmt.Errorf("tools: %s: source %q, want %q", spec.Name, spec.Source, source))
			continue
		case seen[spec.Name]:
			errs = append(errs, fmt.Errorf("tools: %q registered twice", spec.Name))
			continue
		}
		schema, err := compileSchema(spec)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		seen[spec.Name] = true
		add = append(add, ready{spec.Name, &entry{tool: t, spec: spec, schema: schema}})
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	order := r.order[:0:0]
	for _, n := range r.order {
		if r.tools[n].spec.Source == source {
			delete(r.tools, n)
			continue
		}
		order = append(order, n)
	}
	for _, a := range add {
		if _, taken := r.tools[a.name]; taken {
			errs = append(errs, fmt.Errorf("%w: %q (from %s)", ErrNameTaken, a.name, source))
			continue
		}
		r.tools[a.name] = a.e
		order = append(order, a.name)
	}
	r.order = order
	return errors.Join(errs...)
}

// Unregister removes the named tools; unknown names are ignored.
func (r *Registry) Unregister(names ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range names {
		delete(r.tools, n)
	}
	// A new slice: Execute reads the old one after unlocking.
	order := make([]string, 0, len(r.order))
	for _, n := range r.order {
		if _, ok := r.tools[n]; ok {
			order = append(order, n)
		}
	}
	r.order = order
}

// Offered returns the specs offered to the model: the built-in tools
// first, in registration order, then the others by source and name, at
// most Config.MaxOffered (or SetMaxOffered) of them; left names the tools left out. When
// the set left out changes, a warning naming them is logged. A tool
// that is not offered is still registered: Execute runs it when the
// model names it.
func (r *Registry) Offered() (specs []Spec, left []string) {
	r.mu.RLock()
	maxOffered := r.maxOffered
	all := make([]Spec, len(r.order))
	for i, n := range r.order {
		all[i] = r.tools[n].spec
	}
	r.mu.RUnlock()
	slices.SortStableFunc(all, func(a, b Spec) int {
		ab, bb := isBuiltin(a.Source), isBuiltin(b.Source)
		switch {
		case ab && bb:
			return 0 // registration order
		case ab:
			return -1
		case bb:
			return 1
		}
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Name, b.Name))
	})
	if len(all) > maxOffered {
		for _, s := range all[maxOffered:] {
			left = append(left, s.Name)
		}
		all = all[:maxOffered]
	}
	key := strings.Join(left, ",")
	r.mu.Lock()
	changed := key != r.leftWarned
	r.leftWarned = key
	r.mu.Unlock()
	if changed && len(left) > 0 {
		r.cfg.Logger.Warn("more tools than the model is offered; some are left out",
			zap.Int("max_offered", maxOffered), zap.Int("left_out", len(left)), zap.Strings("tools", left))
	}
	return all, left
}
