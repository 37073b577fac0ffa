package netimpair

import (
	"fmt"
	"sync/atomic"
)

// Stats are a relay's counters since New.
type Stats struct {
	// Forward counts client→server packets.
	Forward DirectionStats
	// Reverse counts server→client packets.
	Reverse DirectionStats
	// Clients is the number of client addresses seen since New.
	Clients uint64
	// ActiveClients is the number of clients with an open upstream socket.
	ActiveClients int
}

// DirectionStats are the counters of one direction.
type DirectionStats struct {
	// PacketsIn and BytesIn count packets received from the sender.
	PacketsIn, BytesIn uint64
	// PacketsOut and BytesOut count packets written to the receiver,
	// duplicates included.
	PacketsOut, BytesOut uint64
	// Lost counts Bernoulli losses.
	Lost uint64
	// BurstLost counts Gilbert-Elliott losses.
	BurstLost uint64
	// QueueDropped counts drop-tail losses at the bottleneck queue.
	QueueDropped uint64
	// Duplicated counts packets sent twice.
	Duplicated uint64
	// Reordered counts packets held back so later ones overtake them.
	Reordered uint64
	// Corrupted counts packet copies with a flipped bit.
	Corrupted uint64
	// SendErrors counts failed writes to the receiver.
	SendErrors uint64
	// Pending is the number of packets waiting for their release time.
	Pending uint64
}

// Dropped is the total of packets not delivered for any cause.
func (d DirectionStats) Dropped() uint64 { return d.Lost + d.BurstLost + d.QueueDropped }

// String formats d on one line.
func (d DirectionStats) String() string {
	return fmt.Sprintf("in=%d (%d B) out=%d (%d B) lost=%d burst_lost=%d queue_dropped=%d duplicated=%d reordered=%d corrupted=%d send_errors=%d",
		d.PacketsIn, d.BytesIn, d.PacketsOut, d.BytesOut, d.Lost, d.BurstLost, d.QueueDropped,
		d.Duplicated, d.Reordered, d.Corrupted, d.SendErrors)
}

// counters is the atomic form of DirectionStats, written by one
// direction's goroutines and read by Stats.
type counters struct {
	packetsIn, bytesIn, packetsOut, bytesOut    atomic.Uint64
	lost, burstLost, queueDropped               atomic.Uint64
	duplicated, reordered, corrupted, sendError atomic.Uint64
	pending                                     atomic.Uint64
}

func (c *counters) snapshot() DirectionStats {
	return DirectionStats{
		PacketsIn: c.packetsIn.Load(), BytesIn: c.bytesIn.Load(),
		PacketsOut: c.packetsOut.Load(), BytesOut: c.bytesOut.Load(),
		Lost: c.lost.Load(), BurstLost: c.burstLost.Load(), QueueDropped: c.queueDropped.Load(),
		Duplicated: c.duplicated.Load(), Reordered: c.reordered.Load(), Corrupted: c.corrupted.Load(),
		SendErrors: c.sendError.Load(), Pending: c.pending.Load(),
	}
}
