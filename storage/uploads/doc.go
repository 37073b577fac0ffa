// Package uploads stores uploaded files under a directory (normally
// <data>/uploads) as <file_id>/<filename>.
//
// An upload streams into a temp file under <dir>/.tmp; only a complete,
// verified upload is fsynced and renamed into place, so a crash or a
// disconnect never leaves a partial file where readers look.
package uploads
