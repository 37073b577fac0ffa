package confkv

import (
	"errors"
	"strings"

	"go.yaml.in/yaml/v3"
)

// parseYAML reads the first YAML document, which must be a map or a
// list. Aliases are followed; every value reached counts against
// MaxEntries, so an alias bomb stops at the bound.
func parseYAML(text string) ([]Entry, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		if strings.Contains(err.Error(), "exceeded max depth") {
			return nil, ErrTooDeep
		}
		return nil, &SyntaxError{Format: YAML, Msg: err.Error()}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, &SyntaxError{Format: YAML, Msg: "empty document"}
	}
	root := doc.Content[0]
	for root.Kind == yaml.AliasNode && root.Alias != nil {
		root = root.Alias
	}
	if root.Kind != yaml.MappingNode && root.Kind != yaml.SequenceNode {
		return nil, &SyntaxError{Format: YAML, Line: root.Line, Msg: "not a map or a list"}
	}
	w := yamlWalker{}
	if err := w.walk(root, "", 0); err != nil {
		return nil, err
	}
	return w.out, nil
}

type yamlWalker struct {
	collector
	// visits counts the nodes walked, aliases followed included.
	visits int
}

// errYAMLKey is a map key that is not a scalar.
var errYAMLKey = errors.New("a map key that is not a scalar")

func (w *yamlWalker) walk(n *yaml.Node, path string, depth int) error {
	if depth > MaxDepth {
		return ErrTooDeep
	}
	if w.visits++; w.visits > 4*MaxEntries {
		return ErrTooMany
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return &SyntaxError{Format: YAML, Line: n.Line, Msg: "unknown alias"}
		}
		return w.walk(n.Alias, path, depth+1)
	case yaml.MappingNode:
		if len(n.Content) == 0 {
			return w.add(path, "{}", n.Line)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				return &SyntaxError{Format: YAML, Line: k.Line, Msg: errYAMLKey.Error()}
			}
			if k.Tag == "!!merge" {
				// "<<: *defaults": the merged map's keys are this map's.
				if err := w.walk(v, path, depth+1); err != nil {
					return err
				}
				continue
			}
			if err := w.walk(v, join(path, k.Value), depth+1); err != nil {
				return err
			}
		}
		return nil
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return w.add(path, "[]", n.Line)
		}
		for i, v := range n.Content {
			if err := w.walk(v, index(path, i), depth+1); err != nil {
				return err
			}
		}
		return nil
	case yaml.ScalarNode:
		v := n.Value
		if n.Tag == "!!null" {
			v = "null"
		}
		return w.add(path, v, n.Line)
	}
	return &SyntaxError{Format: YAML, Line: n.Line, Msg: "unexpected node"}
}
