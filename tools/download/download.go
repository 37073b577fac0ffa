// Package download is the file_download tool: it checks a file path,
// issues a download token bound to the file's path and SHA-256, picks the
// transport for the client, and offers the file to the client. The
// transfer itself is the RDT, HTTP or NPLT server's job.
package download

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"opsassist/api"
	"opsassist/storage/tokens"
	"opsassist/tools"
)

// PathChecker resolves a path and checks it is allowed
// (pathguard.Validator).
type PathChecker interface {
	Check(path string) (string, error)
}

// PathOpener is a PathChecker that also checks and opens in one step,
// checking the file it opened (pathguard.Validator.Open), so the file
// hashed is the file that was checked. When Config.Paths is not one, the
// checked path is opened without following a link at its last component.
type PathOpener interface {
	PathChecker
	Open(path string) (*os.File, string, error)
}

// Config configures the tool.
type Config struct {
	// Paths checks every requested path. Required.
	Paths PathChecker
	// Approved checks the path of a call the user approved
	// (tools.Call.Approved): Paths' pathguard.Validator.Approved, which
	// also accepts paths outside the roots and still refuses denied
	// ones. Default Paths: approval widens nothing.
	Approved PathChecker
	// Tokens records issued tokens. Required.
	Tokens *tokens.Store
	// UploadsDir, if set, is where all conversations' uploads live: a file
	// under it is offered only to the conversation that uploaded it.
	UploadsDir string
	// RDTAddr is the address clients download from over RDT.
	RDTAddr string
	// HTTPBase is the base URL of the HTTP server, e.g.
	// http://127.0.0.1:8080.
	HTTPBase string
	// Now returns the current time. Default time.Now.
	Now func() time.Time
}

// Tool is the file_download tool.
type Tool struct{ cfg Config }

var _ tools.Tool = (*Tool)(nil)

// New returns the tool.
func New(cfg Config) (*Tool, error) {
	if cfg.Paths == nil || cfg.Tokens == nil {
		return nil, errors.New("download: Paths and Tokens are required")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Approved == nil {
		cfg.Approved = cfg.Paths
	}
	return &Tool{cfg: cfg}, nil
}

const schema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "absolute path of the file, e.g. a filepath returned by semantic_search or file_upload"},
    "transport_mode": {"type": "string", "enum": ["auto", "rdt", "http", "nplt"], "description": "auto picks rdt for CLI and desktop clients, http for web clients"}
  },
  "required": ["file_path"],
  "additionalProperties": false
}`

// Spec describes the tool.
func (t *Tool) Spec() tools.Spec {
	return tools.Spec{
		Name: "file_download",
		Description: "准备文件下载：校验路径，生成下载令牌（10 分钟有效），按客户端类型选择传输方式（CLI/桌面 → RDT，Web → HTTP）。" +
			"Prepare a download of a file the user asked for. To download a file by name, call semantic_search first to find its path.\n" +
			"关键词：下载、获取文件、download",
		Summary: api.Text{Zh: "准备下载一个文件：校验路径，生成 10 分钟有效的下载令牌。",
			En: "Prepare a file's download: check its path and make a download token valid for 10 minutes."},
		Parameters: json.RawMessage(schema),
		Risk:       tools.RiskSensitive,
		Timeout:    60 * time.Second,
	}
}

// Output is the tool's result.
type Output struct {
	TransportMode string `json:"transport_mode"`
	DownloadToken string `json:"download_token,omitempty"`
	DownloadURL   string `json:"download_url,omitempty"`
	RDTAddr       string `json:"rdt_addr,omitempty"`
	Filename      string `json:"filename"`
	FileSize      int64  `json:"file_size"`
	SHA256        string `json:"sha256"`
	ExpiresAt     string `json:"expires_at"`
	Message       string `json:"message"`
}

// Run checks the file, issues a token and offers the download. An
// approved call (tools.Call.Approved) may name a file outside the roots
// (Config.Approved).
func (t *Tool) Run(ctx context.Context, call *tools.Call, raw json.RawMessage) (any, error) {
	var a struct {
		FilePath      string `json:"file_path"`
		TransportMode string `json:"transport_mode"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	paths := t.cfg.Paths
	if call.Approved {
		paths = t.cfg.Approved
	}
	f, path, err := open(paths, a.FilePath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := t.ownUpload(call, path); err != nil {
		return nil, err
	}
	size, sum, st, err := hashFile(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", a.FilePath, err)
	}
	// The token names the file hashed, not just its path: the servers
	// refuse whatever else is found at the path later.
	dev, ino := tokens.FileID(st)
	mode := transport(a.TransportMode, call.ClientType)
	tok, err := t.cfg.Tokens.Issue(tokens.Token{Path: path, Filename: filepath.Base(path), Size: size, SHA256: sum, SessionID: call.SessionID, Owner: call.Owner,
		Dev: dev, Ino: ino}, t.cfg.Now())
	if err != nil {
		return nil, err
	}
	out := Output{TransportMode: mode, DownloadToken: tok.ID, Filename: tok.Filename, FileSize: size, SHA256: sum,
		ExpiresAt: tok.ExpiresAt.UTC().Format(time.RFC3339)}
	offer := api.Offer{TransportMode: mode, DownloadToken: tok.ID, Filename: out.Filename, FileSize: size, SHA256: sum, ExpiresAt: out.ExpiresAt}
	switch mode {
	case api.TransportRDT:
		out.RDTAddr, offer.RDTAddr = t.cfg.RDTAddr, t.cfg.RDTAddr
		out.Message = "RDT 下载已就绪，客户端将自动下载 (RDT download ready)"
	case api.TransportHTTP:
		out.DownloadURL = t.cfg.HTTPBase + "/api/files/download/" + tok.ID
		offer.DownloadURL = out.DownloadURL
		out.Message = "请通过链接下载 (download link ready)"
	default:
		out.Message = "将通过 NPLT 连接传输 (download over the chat connection)"
	}
	if call.Offer != nil {
		if err := call.Offer(offer); err != nil {
			return nil, fmt.Errorf("offering the download: %w", err)
		}
	}
	return out, nil
}

// open checks and opens the requested file, through paths.Open when
// paths has it.
func open(paths PathChecker, name string) (*os.File, string, error) {
	if o, ok := paths.(PathOpener); ok {
		return o.Open(name)
	}
	path, err := paths.Check(name)
	if err != nil {
		return nil, "", err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, "", err
	}
	return f, path, nil
}

// ErrOtherConversation refuses an upload of another conversation.
var ErrOtherConversation = errors.New("that file was uploaded in another conversation")

// ownUpload checks that a path under UploadsDir is one of the calling
// conversation's uploads.
func (t *Tool) ownUpload(call *tools.Call, path string) error {
	if t.cfg.UploadsDir == "" {
		return nil
	}
	dir, err := t.cfg.Paths.Check(t.cfg.UploadsDir)
	if err != nil {
		dir = t.cfg.UploadsDir
	}
	if !strings.HasPrefix(path, dir+string(filepath.Separator)) {
		return nil
	}
	for _, u := range call.Uploads {
		if own, err := t.cfg.Paths.Check(u.FilePath); err == nil && own == path {
			return nil
		}
	}
	return fmt.Errorf("%w: %s", ErrOtherConversation, filepath.Base(path))
}

// transport picks the transport: an explicit mode wins; auto (or none)
// follows the client type.
func transport(mode, clientType string) string {
	if mode != "" && mode != api.TransportAuto {
		return mode
	}
	switch clientType {
	case api.ClientCLI, api.ClientDesktop:
		return api.TransportRDT
	case api.ClientWeb, api.ClientMCP:
		return api.TransportHTTP
	}
	return api.TransportNPLT
}

// errNotRegular refuses a directory or another special file.
var errNotRegular = errors.New("not a regular file")

// hashFile returns the size and SHA-256 of the open file f, which must be
// a regular file that does not change while it is read, stopping if ctx
// ends. It also returns f's stat.
func hashFile(ctx context.Context, f *os.File) (int64, string, fs.FileInfo, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, "", nil, err
	}
	if !st.Mode().IsRegular() {
		return 0, "", nil, errNotRegular
	}
	h := sha256.New()
	n, err := io.Copy(h, ctxReader{ctx, f})
	if err != nil {
		return 0, "", nil, err
	}
	if n != st.Size() {
		return 0, "", nil, errors.New("the file changed while it was read")
	}
	return n, hex.EncodeToString(h.Sum(nil)), st, nil
}

// ctxReader stops reading once its context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
