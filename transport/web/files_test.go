package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/internal/testkit"
	"opsassist/storage/tokens"
	"opsassist/storage/uploads"
)

// multipartBody builds a body with the fields in order; a field named
// "file" is sent as a file part called name.
func multipartBody(t testing.TB, name string, data []byte, fields ...string) (string, *bytes.Buffer) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for i := 0; i+1 < len(fields); i += 2 {
		if fields[i] == "file" {
			fw, _ := mw.CreateFormFile("file", name)
			fw.Write(data)
			continue
		}
		mw.WriteField(fields[i], fields[i+1])
	}
	mw.Close()
	return mw.FormDataContentType(), &b
}

func (e *testEnv) upload(t testing.TB, name string, data []byte, fields ...string) (*http.Response, []byte) {
	t.Helper()
	ct, body := multipartBody(t, name, data, fields...)
	return e.do(t, "POST", "/api/files", body.Bytes(), "Content-Type", ct)
}

type uploadReply struct {
	FileID    string `json:"file_id"`
	Filename  string `json:"filename"`
	Size      int64  `json:"size"`
	SHA256    string `json:"sha256"`
	SessionID string `json:"session_id"`
}

func TestUploadAndList(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	data := []byte("db_port: 5432\n")
	res, body := e.upload(t, "../../etc/config.yaml", data, "file", "")
	var u uploadReply
	decode(t, body, &u)
	sum := sha256.Sum256(data)
	if res.StatusCode != 200 || u.Filename != "config.yaml" || u.Size != int64(len(data)) || u.SHA256 != hex.EncodeToString(sum[:]) || u.SessionID == "" {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	// A second upload into the same conversation, session_id after the
	// file this time.
	res, body = e.upload(t, "报告.txt", []byte("第二个"), "file", "", "session_id", u.SessionID)
	var u2 uploadReply
	decode(t, body, &u2)
	if res.StatusCode != 200 || u2.SessionID != u.SessionID {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	_, body = e.do(t, "GET", "/api/files?session_id="+u.SessionID, nil)
	var list struct {
		Files []map[string]any `json:"files"`
	}
	decode(t, body, &list)
	if len(list.Files) != 2 || list.Files[0]["filename"] != "config.yaml" || list.Files[1]["filename"] != "报告.txt" {
		t.Fatalf("list %s", body)
	}
	if strings.Contains(string(body), e.dir) {
		t.Fatal("server paths in the file list")
	}
	res, body = e.upload(t, "empty.txt", nil, "file", "", "session_id", u.SessionID)
	var u3 uploadReply
	decode(t, body, &u3)
	if res.StatusCode != 200 || u3.Size != 0 || u3.SHA256 != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Fatalf("empty upload: %d %s", res.StatusCode, body)
	}
	got, err := os.ReadFile(filepath.Join(e.dir, "uploads", u.FileID, "config.yaml"))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("stored %q %v", got, err)
	}
}

func TestUploadRefusals(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}) // limit 1 MiB
	big := bytes.Repeat([]byte("x"), 1<<20+1)
	res, body := e.upload(t, "big.bin", big, "file", "")
	wantError(t, res, body, http.StatusRequestEntityTooLarge, api.CodeTooLarge)
	if !bytes.Contains(body, []byte("the 1 MiB limit")) {
		t.Errorf("the limit is not human-readable: %s", body)
	}
	// Past the limit with a body whose length is not announced.
	ct, mb := multipartBody(t, "big.bin", big, "file", "")
	req, _ := http.NewRequest("POST", e.ts.URL+"/api/files", io.MultiReader(mb))
	req.Header.Set("Content-Type", ct)
	req.ContentLength = -1
	hres, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(hres.Body)
	hres.Body.Close()
	wantError(t, hres, b, http.StatusRequestEntityTooLarge, api.CodeTooLarge)
	if !bytes.Contains(b, []byte("the 1 MiB limit")) {
		t.Errorf("the limit is not human-readable: %s", b)
	}
	ents, _ := os.ReadDir(filepath.Join(e.dir, "uploads", ".tmp"))
	if len(ents) != 0 {
		t.Fatalf("temp files left: %v", ents)
	}

	res, body = e.upload(t, "a.txt", []byte("a"), "session_id", "zzzzzzzz-unknown", "file", "")
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	res, body = e.upload(t, "", nil, "note", "no file here")
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadRequest)
	res, body = e.upload(t, "..", []byte("a"), "file", "")
	wantError(t, res, body, http.StatusBadRequest, api.CodeUploadInvalid)
	res, body = e.do(t, "POST", "/api/files", `{"file":"x"}`, "Content-Type", "application/json")
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadRequest)
	res, body = e.do(t, "GET", "/api/files", nil)
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadRequest)
	res, body = e.do(t, "GET", "/api/files?session_id=nope-nope-nope", nil)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
}

// offer issues a token for a new file with this content.
func (e *testEnv) offer(t testing.TB, name string, data []byte) tokens.Token {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	tok, err := e.tokens.Issue(tokens.Token{Path: path, Filename: name, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}, e.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestDownload(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	data := []byte("0123456789abcdefghij")
	tok := e.offer(t, "日志 report.txt", data)
	url := "/api/files/download/" + tok.ID

	res, body := e.do(t, "GET", url, nil)
	if res.StatusCode != 200 || !bytes.Equal(body, data) {
		t.Fatalf("%d %q", res.StatusCode, body)
	}
	if et := res.Header.Get("ETag"); et != `"`+tok.SHA256+`"` {
		t.Fatalf("ETag %q", et)
	}
	cd := res.Header.Get("Content-Disposition")
	if !strings.Contains(cd, `filename*=UTF-8''%E6%97%A5%E5%BF%97%20report.txt`) || !strings.Contains(cd, `filename="__ report.txt"`) {
		t.Fatalf("Content-Disposition %q", cd)
	}
	if res.Header.Get("Accept-Ranges") != "bytes" {
		t.Fatal("no Accept-Ranges")
	}

	// The same token serves several ranged requests (a resumed download).
	for _, r := range []struct {
		hdr, want, cr string
	}{{"bytes=0-9", "0123456789", "bytes 0-9/20"}, {"bytes=10-", "abcdefghij", "bytes 10-19/20"}, {"bytes=-3", "hij", "bytes 17-19/20"}} {
		res, body = e.do(t, "GET", url, nil, "Range", r.hdr)
		if res.StatusCode != http.StatusPartialContent || string(body) != r.want || res.Header.Get("Content-Range") != r.cr {
			t.Fatalf("%s: %d %q %q", r.hdr, res.StatusCode, body, res.Header.Get("Content-Range"))
		}
	}
	// If-Range with the ETag resumes; with a stale one the whole file comes.
	res, body = e.do(t, "GET", url, nil, "Range", "bytes=15-", "If-Range", `"`+tok.SHA256+`"`)
	if res.StatusCode != 206 || string(body) != "fghij" {
		t.Fatalf("If-Range: %d %q", res.StatusCode, body)
	}
	res, _ = e.do(t, "GET", url, nil, "Range", "bytes=15-", "If-Range", `"stale"`)
	if res.StatusCode != 200 {
		t.Fatalf("stale If-Range: %d", res.StatusCode)
	}
	res, body = e.do(t, "GET", url, nil, "Range", "bytes=20-")
	wantError(t, res, body, http.StatusRequestedRangeNotSatisfiable, api.CodeRangeNotSatisfiable)
	if res.Header.Get("Content-Range") != "bytes */20" {
		t.Fatalf("416 Content-Range %q", res.Header.Get("Content-Range"))
	}
	res, body = e.do(t, "HEAD", url, nil)
	if res.StatusCode != 200 || len(body) != 0 || res.Header.Get("Content-Length") != "20" {
		t.Fatalf("HEAD %d %v", res.StatusCode, res.Header)
	}

	res, body = e.do(t, "GET", "/api/files/download/0000", nil)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)

	// The file changed after the offer.
	changed := e.offer(t, "c.txt", []byte("abc"))
	os.WriteFile(changed.Path, []byte("abcd"), 0o600)
	res, body = e.do(t, "GET", "/api/files/download/"+changed.ID, nil)
	wantError(t, res, body, http.StatusGone, api.CodeFileChanged)
	os.Remove(changed.Path)
	res, body = e.do(t, "GET", "/api/files/download/"+changed.ID, nil)
	wantError(t, res, body, http.StatusGone, api.CodeFileChanged)

	e.clock.Add(2 * time.Minute) // past the token's TTL
	res, body = e.do(t, "GET", url, nil)
	wantError(t, res, body, http.StatusGone, api.CodeExpired)
}

func TestContentDisposition(t *testing.T) {
	for name, want := range map[string]string{
		"a.txt":        `attachment; filename="a.txt"; filename*=UTF-8''a.txt`,
		`q"uote\.txt`:  `attachment; filename="q_uote_.txt"; filename*=UTF-8''q%22uote%5C.txt`,
		"配置 1.yaml":    `attachment; filename="__ 1.yaml"; filename*=UTF-8''%E9%85%8D%E7%BD%AE%201.yaml`,
		"semi;colon.x": `attachment; filename="semi;colon.x"; filename*=UTF-8''semi%3Bcolon.x`,
		"it's (1)=a@b": `attachment; filename="it's (1)=a@b"; filename*=UTF-8''it%27s%20%281%29%3Da%40b`,
	} {
		if got := contentDisposition(name); got != want {
			t.Errorf("%q: %s, want %s", name, got, want)
		}
	}
}

// TestUploadNameLosesInvisibleCharacters: over HTTP as over NPLT, bidi
// overrides and zero-width characters leave the stored name, and a name
// of nothing else becomes "upload".
func TestUploadNameLosesInvisibleCharacters(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	for name, want := range map[string]string{"invoice\u202Efdp.exe": "invoicefdp.exe", "\u200B\u2066\uFEFF": uploads.DefaultName} {
		res, body := e.upload(t, name, []byte("MZ"), "file", "")
		var u uploadReply
		decode(t, body, &u)
		if res.StatusCode != 200 || u.Filename != want {
			t.Fatalf("%q: %d %s; want %q", name, res.StatusCode, body, want)
		}
		if _, err := os.Stat(filepath.Join(e.dir, "uploads", u.FileID, want)); err != nil {
			t.Fatal(err)
		}
	}
}
