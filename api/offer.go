package api

// Offer is a file offered for download: the file_download tool's
// contract, carried by the chat core's offer event, NPLT's DOWNLOAD_OFFER
// payload, the HTTP "download_offer" event's data and the client's
// Event.Offer. Its JSON is the same on every transport.
type Offer struct {
	// TransportMode is how to fetch the file: TransportRDT, TransportHTTP
	// or TransportNPLT.
	TransportMode string `json:"transport_mode"`
	// DownloadToken names the file to the RDT server, FILE_REQUEST and the
	// HTTP download path.
	DownloadToken string `json:"download_token,omitempty"`
	// DownloadURL is set for TransportHTTP.
	DownloadURL string `json:"download_url,omitempty"`
	// Filename is the file's base name.
	Filename string `json:"filename"`
	// FileSize is the file's size in bytes.
	FileSize int64 `json:"file_size"`
	// SHA256 is the file's hash, hex-encoded.
	SHA256 string `json:"sha256,omitempty"`
	// RDTAddr is the RDT server's address, for TransportRDT.
	RDTAddr string `json:"rdt_addr,omitempty"`
	// ExpiresAt is when the token expires, RFC 3339.
	ExpiresAt string `json:"expires_at,omitempty"`
}
