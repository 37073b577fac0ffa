package rdt

// capsWithAcks is how many of its first ACKs a client follows with a
// CAPS, in case the one after the REQUEST was lost or overtook it.
const capsWithAcks = 2

// sendCaps tells the server the largest datagram this client receives
// (CAPS), which lets a server that knows CAPS probe the path for larger
// DATA. A server that does not know CAPS drops it as malformed, and
// sends DATA of the REQUEST's max_payload as before.
func (f *fetch) sendCaps() error {
	if f.cfg.SmallDatagrams {
		return nil
	}
	return f.send(&Packet{Type: TypeCaps, ConnID: f.recv.connID, MaxDatagram: MaxDatagramSize})
}
