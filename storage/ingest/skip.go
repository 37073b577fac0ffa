package ingest

// SkipError reports that a file was not ingested, and why. Callers record
// Reason and move on; match it with errors.As.
type SkipError struct {
	// Reason is a short human-readable cause, such as "binary file",
	// "unsupported type .docx" or "too large: 2048 B, larger than the 1 KiB limit".
	Reason string
}

// Error implements error.
func (e *SkipError) Error() string { return "ingest: skipped: " + e.Reason }
