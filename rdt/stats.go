package rdt

import "time"

// Stats describes one client download.
type Stats struct {
	// Size is the file size in bytes.
	Size int64
	// Resumed is how many bytes were already on disk from an earlier
	// attempt.
	Resumed int64
	// BytesReceived counts DATA payload bytes received, duplicates
	// included.
	BytesReceived int64
	// DuplicateBytes counts payload bytes received that were already held.
	DuplicateBytes int64
	// PacketsReceived counts valid packets received.
	PacketsReceived int64
	// Malformed counts datagrams dropped as malformed (bad checksum,
	// truncated, foreign).
	Malformed int64
	// AcksSent counts ACK packets sent.
	AcksSent int64
	// Duration is the time from the first request to the verified file.
	Duration time.Duration
	// MaxStall is the longest time between two DATA packets that brought
	// new bytes.
	MaxStall time.Duration
	// Transport is "rdt", or "nplt" after a fallback.
	Transport string
}

// Progress is a snapshot handed to ClientConfig.Progress.
type Progress struct {
	// Received is how many bytes of the file are held.
	Received int64
	// Size is the file size, -1 until the server told it.
	Size int64
	// Rate is the recent download rate in bytes per second.
	Rate float64
	// Elapsed is the time since the download started.
	Elapsed time.Duration
	// ETA estimates the time left, 0 if unknown.
	ETA time.Duration
}
