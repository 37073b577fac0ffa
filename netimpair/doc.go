// Package netimpair is a userspace UDP relay that impairs traffic the way
// tc netem would, for tests and benchmarks on machines without netem.
//
// A Relay listens on one UDP address. Each client address gets its own
// socket towards the upstream server, so many clients work at once and
// the server sees them as distinct peers. Both directions are impaired
// independently (Config.Forward for client→server, Config.Reverse for
// server→client):
//
//   - a bottleneck: a token bucket of Rate bits/s in front of a drop-tail
//     FIFO limited by QueueBytes and/or QueuePackets; packets really wait
//     in the queue and leave at the bottleneck rate;
//   - loss: Bernoulli (Loss) and Gilbert-Elliott bursts (GE);
//   - corruption (one random bit flipped), duplication;
//   - one-way delay with jitter, and reordering by holding a packet back.
//
// Every random decision comes from a PCG generator seeded by Config.Seed
// and drawn in a fixed order per packet, so a given seed and packet
// sequence always loses, corrupts and duplicates the same packets.
//
// Each direction has one owner goroutine that keeps a heap of release
// times and a timer; socket readers only hand packets over. It carries
// hundreds of Mbit/s of 1200-byte datagrams on one core.
//
// Usage:
//
//	r, err := netimpair.New(netimpair.Config{
//		Upstream: "127.0.0.1:9998",
//		Forward:  netimpair.Impairment{Delay: 10 * time.Millisecond},
//		Reverse: netimpair.Impairment{
//			Rate:  100_000_000, // 100 Mbit/s
//			Delay: 10 * time.Millisecond,
//			Loss:  0.05,
//		},
//		Seed: 1,
//	})
//	if err != nil { ... }
//	defer r.Close()
//	// clients send to r.Addr() instead of 127.0.0.1:9998
//
// The udpimpair command wraps a Relay with flags; see docs/udpimpair.md.
package netimpair
