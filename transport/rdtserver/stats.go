package rdtserver

import "time"

// TransferStats describes one finished server-side transfer. The server
// logs it and hands it to ServerConfig.OnTransfer.
type TransferStats struct {
	// ConnID is the transfer's connection id.
	ConnID uint64
	// Remote is the client's address.
	Remote string
	// File is the file's base name.
	File string
	// Size is the file size in bytes.
	Size int64
	// Resumed is how many bytes the client already held when it asked.
	Resumed int64
	// BytesSent counts DATA payload bytes sent, retransmissions included.
	BytesSent int64
	// PacketsSent counts DATA packets sent, retransmissions included.
	PacketsSent int64
	// Retransmits counts DATA packets that carried data sent before.
	Retransmits int64
	// TailCopies counts the second copies of retransmissions sent at
	// the tail, once every byte went out (included in Retransmits).
	TailCopies int64
	// Spurious counts packets declared lost that were acknowledged later.
	Spurious int64
	// Lost counts packets declared lost.
	Lost int64
	// PTOs counts probe timeouts.
	PTOs int64
	// AcksReceived counts ACK packets processed.
	AcksReceived int64
	// Duration is the time from the validated request to the end.
	Duration time.Duration
	// SRTT and MinRTT are the smoothed and minimum round-trip times.
	SRTT, MinRTT time.Duration
	// Bandwidth is the final bottleneck estimate in bytes per second.
	Bandwidth float64
	// Cwnd is the final congestion window in bytes.
	Cwnd int
	// Payload is the DATA payload in use at the end: the one the client
	// asked for, or a larger one path MTU probing proved.
	Payload int
	// BlackHoles counts falls back to the asked-for payload after probe
	// timeouts in a row (path MTU black-hole detection).
	BlackHoles int64
	// Err is why the transfer failed, nil if the client confirmed the
	// file.
	Err error
}

// ServerStats are a server's counters.
type ServerStats struct {
	// Active is the number of transfers in progress holding a slot
	// (limited by MaxTransfers and MaxPerAddr).
	Active int
	// Lingering is the number of transfers whose every byte was
	// acknowledged, still waiting for the client's confirmation; they
	// hold no slot.
	Lingering int
	// Transfers counts transfers started.
	Transfers int64
	// Malformed counts datagrams dropped as malformed.
	Malformed int64
	// Dropped counts valid packets dropped (unknown connection, wrong
	// address, full queue).
	Dropped int64
	// Retries counts RETRY packets sent.
	Retries int64
	// Refused counts requests answered with an ERROR packet.
	Refused int64
}
