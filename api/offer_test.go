package api

import (
	"encoding/json"
	"testing"
)

// TestOfferJSON pins the offer's JSON, the file_download contract every
// transport sends: field names, order and which fields are omitted.
func TestOfferJSON(t *testing.T) {
	tests := []struct {
		o    Offer
		want string
	}{
		{Offer{TransportMode: TransportRDT, DownloadToken: "tok", DownloadURL: "http://h/api/files/download/tok", Filename: "a.csv",
			FileSize: 12, SHA256: "ab", RDTAddr: "127.0.0.1:9998", ExpiresAt: "2026-01-02T03:04:05Z"},
			`{"transport_mode":"rdt","download_token":"tok","download_url":"http://h/api/files/download/tok","filename":"a.csv","file_size":12,"sha256":"ab","rdt_addr":"127.0.0.1:9998","expires_at":"2026-01-02T03:04:05Z"}`},
		{Offer{}, `{"transport_mode":"","filename":"","file_size":0}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.o)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("got  %s\nwant %s", b, tt.want)
		}
	}
}
