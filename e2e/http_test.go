package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// TestHTTPEndToEnd drives the daemon's HTTP API with the built-in
// planner: an upload, a download offer whose URL names the real listener,
// the download itself, and the metrics that all of it produced.
func TestHTTPEndToEnd(t *testing.T) {
	t.Parallel()
	a := startApp(t, t.TempDir())
	defer stop(t, a)
	base := "http://" + a.HTTPAddr().String()

	data := []byte("季度报告\n磁盘告警 3 次\n")
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "report.txt")
	fw.Write(data)
	mw.Close()
	res, err := http.Post(base+"/api/files", mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	var up struct {
		SessionID string `json:"session_id"`
		Size      int64  `json:"size"`
	}
	json.NewDecoder(res.Body).Decode(&up)
	res.Body.Close()
	if res.StatusCode != 200 || up.SessionID == "" || up.Size != int64(len(data)) {
		t.Fatalf("upload: %d %+v", res.StatusCode, up)
	}

	req, _ := json.Marshal(map[string]string{"message": "下载 report.txt", "session_id": up.SessionID})
	res, err = http.Post(base+"/api/chat", "application/json", bytes.NewReader(req))
	if err != nil {
		t.Fatal(err)
	}
	var url, event string
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "event: "); ok {
			event = e
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok && event == "download_offer" {
			var o struct {
				URL  string `json:"download_url"`
				Mode string `json:"transport_mode"`
			}
			json.Unmarshal([]byte(d), &o)
			if o.Mode != "http" {
				t.Fatalf("offer %s", d)
			}
			url = o.URL
		}
	}
	res.Body.Close()
	if !strings.HasPrefix(url, base+"/api/files/download/") {
		t.Fatalf("download_url %q does not name the listener %s", url, base)
	}
	res, err = http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !bytes.Equal(got, data) {
		t.Fatalf("download: %d %q", res.StatusCode, got)
	}

	res, err = http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{
		`opsassist_chats_total{transport="http"} 1`,
		`opsassist_upload_bytes_total{transport="http"} ` + itoa(len(data)),
		`opsassist_tool_calls_total{status="ok",tool="file_download"} 1`,
		`opsassist_tool_duration_seconds_count{tool="file_download"} 1`,
		`opsassist_search_duration_seconds_count 1`,
		`opsassist_connections_total{transport="http"}`,
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
