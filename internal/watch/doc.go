// Package watch tells its owner when files change. It watches the
// files' directories, not the files, and filters events by name, so an
// editor's write-to-temporary-then-rename, a remove and recreate and a
// Kubernetes ConfigMap's symlink swap are all seen; a burst of events is
// reported once, after a quiet interval.
package watch
