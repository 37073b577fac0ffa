// Package config defines the server's configuration: a documented struct
// with defaults, loaded from an optional YAML file, then OPSASSIST_*
// environment variables, then command-line flags, each overriding the one
// before. docs/configuration.md lists every key.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"opsassist/storage/index"
)

// Config is the whole server configuration. Defaults returns it with the
// default each field's comment states; a YAML file, OPSASSIST_* variables
// and flags then replace fields one by one (Load). A key set to zero is
// zero, not its default: the limits whose comment says what 0 does take
// it (a quota of 0 is off), and Validate refuses 0 for every other limit,
// and a negative value for any, naming the key ("limits.max_clients: must
// be positive").
type Config struct {
	// NPLT is the TCP address of the NPLT chat server. Default 127.0.0.1:9999.
	NPLT string `yaml:"nplt"`
	// RDT is the UDP address of the RDT download server. Default 127.0.0.1:9998.
	RDT string `yaml:"rdt"`
	// HTTP is the address of the HTTP API and web page. Default 127.0.0.1:8080.
	HTTP string `yaml:"http"`
	// Data is the directory for uploads, history and vectors. Default ./data.
	Data string `yaml:"data"`
	// LLM names the model used by new sessions: "builtin" or the name of
	// a provider. Default builtin.
	LLM string `yaml:"llm"`
	// Providers are the OpenAI-compatible model providers that MODEL_SWITCH
	// can select. Default none.
	Providers []Provider `yaml:"providers"`
	// Workspace is the working directory of command_executor; it is
	// created if missing. Default ./workspace.
	Workspace string `yaml:"workspace"`
	// AllowedRoots are the directories command_executor and file_download
	// may read. Default: the workspace and ./docs. Uploads are reachable
	// only by their own conversation, through file_upload and
	// file_download.
	AllowedRoots []string `yaml:"allowed_roots"`
	// AllowHardlinks lets command_executor and file_download read a
	// regular file that has more than one hard link. Default false: a
	// hard link planted in a root can be another name for a file outside
	// it (such as /etc/shadow), which no check of the name can tell.
	AllowHardlinks bool `yaml:"allow_hardlinks"`
	// Commands is command_executor's whitelist; the daemon turns it into
	// one command.Tiers that the tool, the offline planner and the model's
	// system prompt all read. Default (nil): command.Tiers' defaults,
	// listed in docs/configuration.md.
	Commands []string `yaml:"commands"`
	// Permissions configures the permission policy: which tool calls
	// run, which are asked about, which are refused.
	Permissions Permissions `yaml:"permissions"`
	// Retention deletes old and empty conversations, at start and every
	// hour. Default: keeps everything.
	Retention Retention `yaml:"retention"`
	// AuthToken is the access token clients must present: in NPLT's
	// HELLO, and on HTTP as a bearer header or the web login's cookie.
	// Once set, both transports demand it on every listener, loopback
	// included; it is required to bind a listener off loopback, and
	// must then be strong: at least MinTokenLen characters, not one
	// character repeated. Default empty (loopback only, open). Never
	// logged.
	AuthToken string `yaml:"auth_token"`
	// TLSCert and TLSKey are PEM files of a certificate (chain) and its
	// private key. When both are set, the NPLT and HTTP listeners speak
	// TLS only (1.2 or later), and download links are https. Set both or
	// neither. Default empty: plain TCP, fine on loopback; use TLS (or a
	// TLS-terminating proxy) for any listener off loopback.
	TLSCert string `yaml:"tls_cert"`
	TLSKey  string `yaml:"tls_key"`
	// TLSDir is a directory holding the certificate and key instead, in
	// one of the usual layouts: cert.pem and key.pem, tls.crt and tls.key
	// (a Kubernetes TLS secret), or fullchain.pem and privkey.pem
	// (certbot's live directory). Exclusive with tls_cert and tls_key.
	// Default empty.
	TLSDir string `yaml:"tls_dir"`
	// Search configures the document and upload index.
	Search Search `yaml:"search"`
	// Log configures logging.
	Log Log `yaml:"log"`
	// File is the YAML file Load read (-config or OPSASSIST_CONFIG), ""
	// if none: not a key; the daemon keeps the tools away from it.
	File string `yaml:"-"`
	// AllowUnsetTokens makes a user whose token_env is unset or empty no
	// error: Directory keeps the user with a token nobody holds (a
	// random hash), so the user exists and cannot sign in. Not a key:
	// Load and Reload set it when given WithUnsetTokens, as opsassistd
	// mcp-stdio does (it needs at most the one token its agent brings);
	// the daemon leaves it false and refuses such a user.
	AllowUnsetTokens bool `yaml:"-"`
	// Limits bounds what clients may do.
	Limits Limits `yaml:"limits"`
	// Users are the named users, each with a role and an access token
	// (YAML only). Once any is set, like auth_token, every client on
	// every listener must present a token. Default none.
	Users Users `yaml:"users"`
	// Roles are the configured roles, by name, beside the built-in
	// admin, operator and viewer (YAML only); a built-in role's name
	// may only get rules. Default none.
	Roles map[string]Role `yaml:"roles"`
	// RateLimits bound each user's tool calls, by tool name; "*" applies
	// to every tool without an entry of its own, counted per tool (YAML
	// only). Default none: no limit.
	RateLimits map[string]RateLimit `yaml:"rate_limits"`
	// MCPServers are the external MCP servers whose tools join the
	// registry, by name (YAML only; see MCPServer). Default none.
	MCPServers map[string]MCPServer `yaml:"mcp_servers"`
	// MCPConfig is a Claude-style .mcp.json whose mcpServers Load adds
	// to MCPServers (--mcp-config). Default empty: none.
	MCPConfig string `yaml:"mcp_config"`
}

// Retention says which saved conversations the daemon deletes, with
// their uploads, at start and every hour; a conversation with a turn
// running is never deleted. The zero value keeps everything.
type Retention struct {
	// DropEmpty deletes conversations without a user message. Default
	// false.
	DropEmpty bool `yaml:"drop_empty"`
	// MaxConversations keeps at most this many conversations, the most
	// recently updated. Default 0: no bound.
	MaxConversations int `yaml:"max_conversations"`
	// MaxAge deletes conversations not updated for longer ("30d",
	// "12h"). Default 0: no bound.
	MaxAge Age `yaml:"max_age"`
}

// Age is a duration that also takes whole days ("30d").
type Age time.Duration

// UnmarshalText parses "30d" (days) or a Go duration ("720h").
func (a *Age) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 || n > 100*365 {
			return fmt.Errorf("bad age %q: want days like 30d or a duration like 12h", s)
		}
		*a = Age(time.Duration(n) * 24 * time.Hour)
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("bad age %q: want days like 30d or a duration like 12h", s)
	}
	*a = Age(d)
	return nil
}

// MarshalText writes whole days as "30d", else a Go duration.
func (a Age) MarshalText() ([]byte, error) {
	d := time.Duration(a)
	if d > 0 && d%(24*time.Hour) == 0 {
		return []byte(strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"), nil
	}
	return []byte(d.String()), nil
}

// Permissions configures the permission policy (package tools/policy)
// and the confirmation of calls it puts at ask.
type Permissions struct {
	// Timeout is how long a confirmation waits for the user's answer; an
	// unanswered request is denied. Default 120s.
	Timeout time.Duration `yaml:"timeout"`
	// CommandsAsk is command_executor's ask tier: the operator commands
	// that run only once the user confirmed them, each an entry with an
	// argument table in tools/command ("systemctl restart", "du").
	// Default (nil): all of them, listed in docs/configuration.md; an
	// empty list asks about no command (they are refused).
	CommandsAsk []string `yaml:"commands_ask"`
	// Rules are allow / ask / deny rules over the defaults; the
	// strictest matching rule wins (deny > ask > allow). Default none.
	Rules []PermissionRule `yaml:"rules"`
}

// PermissionRule is one permission rule: every field set must match.
type PermissionRule struct {
	// Tool is the tool name, "*" wildcards allowed ("command_executor",
	// "file_*", "server:*"). Required.
	Tool string `yaml:"tool"`
	// Command is command_executor's command and leading arguments
	// ("systemctl restart", "journalctl -u").
	Command string `yaml:"command"`
	// ArgsPrefix are more leading arguments after Command's ("nginx").
	ArgsPrefix string `yaml:"args_prefix"`
	// Path is a glob over the files the call names ("/var/log/**",
	// "/etc/*.conf").
	Path string `yaml:"path"`
	// Decision is allow, ask or deny. Required.
	Decision string `yaml:"decision"`
}

// Provider is one OpenAI-compatible model endpoint.
type Provider struct {
	// Name is how users select the provider (MODEL_SWITCH, --llm).
	Name string `yaml:"name"`
	// BaseURL is the API base URL, e.g. https://api.deepseek.com/v1.
	BaseURL string `yaml:"base_url"`
	// Model is the model id sent to the API.
	Model string `yaml:"model"`
	// APIKeyEnv names the environment variable holding the API key; the
	// key itself never appears in the config. Empty: no key (Ollama).
	APIKeyEnv string `yaml:"api_key_env"`
	// Timeout bounds one model request. Default 60s.
	Timeout time.Duration `yaml:"timeout"`
	// TextProtocol is for models without tool calling: tools are called
	// with TOOL:/ARGS: lines instead.
	TextProtocol bool `yaml:"text_protocol"`
}

// Presets are the providers known without configuration. A configured
// provider of the same name replaces its preset.
var presets = []Provider{
	{Name: "zhipu", BaseURL: "https://open.bigmodel.cn/api/paas/v4", Model: "glm-4-flash", APIKeyEnv: "ZHIPU_API_KEY"},
	{Name: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-4o-mini", APIKeyEnv: "OPENAI_API_KEY"},
	{Name: "deepseek", BaseURL: "https://api.deepseek.com/v1", Model: "deepseek-chat", APIKeyEnv: "DEEPSEEK_API_KEY"},
	{Name: "ollama", BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen2.5"},
}

// AllProviders returns the configured providers followed by the presets
// they do not replace.
func (c *Config) AllProviders() []Provider {
	out := append([]Provider(nil), c.Providers...)
	for _, p := range presets {
		if !slices.ContainsFunc(c.Providers, func(q Provider) bool { return q.Name == p.Name }) {
			out = append(out, p)
		}
	}
	return out
}

// DefaultDocRoots are the system documents semantic_search answers from
// by default: the documents written for the people who use opsassist —
// the README, configuration, security, MCP and the protocols. The notes
// written for its developers (docs/architecture.md, benchmarks.md,
// evals.md, search.md, udpimpair.md) are left out: an answer must not
// quote an eval's walk-through or a benchmark to a user as if it were
// documentation. A new page under docs/ joins the list when it is for
// users (TestDefaultDocRootsAreUserDocs makes every page choose).
func DefaultDocRoots() []string {
	return []string{"README.md", "docs/configuration.md", "docs/security.md", "docs/mcp.md", "docs/protocol"}
}

// Search configures semantic_search's index and embedder.
type Search struct {
	// Embedder is "builtin" (offline feature hashing) or "openai" (an
	// OpenAI-compatible embeddings API). Switching re-indexes everything.
	// Default builtin.
	Embedder string `yaml:"embedder"`
	// Dim is the vector dimension: 768 for builtin by default; required
	// for openai (the model's output size, e.g. 1024 for
	// text-embedding-v3, 768 for nomic-embed-text).
	Dim int `yaml:"dim"`
	// BaseURL is the embeddings API base for openai, e.g.
	// http://127.0.0.1:11434/v1.
	BaseURL string `yaml:"base_url"`
	// Model is the embedding model id for openai.
	Model string `yaml:"model"`
	// APIKeyEnv names the environment variable holding the embeddings API
	// key. Empty: no key.
	APIKeyEnv string `yaml:"api_key_env"`
	// DocRoots are the system documents indexed at start, files or
	// directories. Default DefaultDocRoots (relative to the working
	// directory).
	DocRoots []string `yaml:"doc_roots"`
	// Workers bounds files indexed at once. Default 2.
	Workers int `yaml:"workers"`
	// MinScore is the least cosine similarity of a passage semantic_search
	// presents as relevant (index.Hit.Relevant, which also wants a content
	// word of the query in the file); with none left the tool says it
	// found nothing relevant. Files the query names are kept whatever
	// their similarity. Default index.DefaultMinScore (0.11, chosen by a
	// fixed rule on the retrieval eval's train half for the builtin
	// embedder); 0 keeps every hit.
	MinScore float64 `yaml:"min_score"`
}

// Log configures logging.
type Log struct {
	// Format is "console" or "json". Default console.
	Format string `yaml:"format"`
	// Level is debug, info, warn or error. Default info.
	Level string `yaml:"level"`
}

// Limits bounds client behaviour.
type Limits struct {
	// MaxClients is the most concurrent NPLT connections. Default 200.
	MaxClients int `yaml:"max_clients"`
	// MaxUpload is the largest upload in bytes. Default 104857600 (100 MiB);
	// 0 refuses every upload but empty files.
	MaxUpload int64 `yaml:"max_upload"`
	// MaxUploadBytesPerConversation bounds the bytes of one
	// conversation's uploads; past it an upload is refused before it is
	// stored. Default 268435456 (256 MiB); 0 turns the quota off.
	MaxUploadBytesPerConversation int64 `yaml:"max_upload_bytes_per_conversation"`
	// MaxUploadBytesTotal bounds the bytes of all uploads on the server.
	// Default 2147483648 (2 GiB); 0 turns the quota off.
	MaxUploadBytesTotal int64 `yaml:"max_upload_bytes_total"`
	// MaxIndexedTextPerConversation bounds the text of one conversation's
	// uploads held by the search index (chunk text, about 1.1 times the
	// files' text); an upload past it is kept but not indexed, with the
	// reason. Default 16777216 (16 MiB); 0 turns the quota off.
	MaxIndexedTextPerConversation int64 `yaml:"max_indexed_text_per_conversation"`
	// MaxIndexedTextTotal bounds the indexed text of all uploads. The
	// index keeps at most about 10 MiB of memory per MiB of text, so the
	// default 67108864 (64 MiB) fits a VM with 1 GiB of memory; 0 turns
	// the quota off.
	MaxIndexedTextTotal int64 `yaml:"max_indexed_text_total"`
	// IdleTimeout closes a connection that sends nothing for this long; a
	// heartbeat is sent at half of it. Default 180s.
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	// StallTimeout drops a client that starts a frame and does not finish
	// it within this time. Default 30s.
	StallTimeout time.Duration `yaml:"stall_timeout"`
	// UploadStallTimeout aborts an NPLT upload that receives no file data
	// for this long (ERROR upload_timeout), giving back its temp file and
	// quota bytes; PINGs do not count as data. Default 60s.
	UploadStallTimeout time.Duration `yaml:"upload_stall_timeout"`
	// WriteTimeout drops a client that does not read its replies for this
	// long. Default 30s.
	WriteTimeout time.Duration `yaml:"write_timeout"`
	// ShutdownTimeout is how long shutdown waits for replies in flight.
	// Default 10s.
	ShutdownTimeout time.Duration `yaml:"shutdown_timeout"`
	// HelloTimeout is how long an NPLT client has to authenticate (send
	// HELLO with the token) when auth_token is set. Default 5s.
	HelloTimeout time.Duration `yaml:"hello_timeout"`
	// MaxUnauthenticated is the most NPLT connections waiting to
	// authenticate; they do not count toward max_clients. Default 64.
	MaxUnauthenticated int `yaml:"max_unauthenticated"`
	// MaxUnauthenticatedPerAddr is the most NPLT connections from one
	// address (IPv6: one /64) waiting to authenticate; a newer one from
	// the address takes the place of the one that waited longest.
	// Default 8.
	MaxUnauthenticatedPerAddr int `yaml:"max_unauthenticated_per_addr"`
	// MaxLogins is the most live web login sessions; at the cap a new
	// login ends the one closest to expiring. Default 1024.
	MaxLogins int `yaml:"max_logins"`
	// HTTPMaxConns is the most open HTTP connections; one more takes the
	// place of one doing nothing (silent or idle), or if all are serving
	// a request is closed at once, unanswered. Default 256.
	HTTPMaxConns int `yaml:"http_max_conns"`
	// HTTPMaxConnsPerAddr is the most open HTTP connections from one
	// client address (IPv6: one /64), with the same rule. Default 32.
	HTTPMaxConnsPerAddr int `yaml:"http_max_conns_per_addr"`
	// RDTMaxTransfers is the most concurrent RDT downloads. Default 64.
	RDTMaxTransfers int `yaml:"rdt_max_transfers"`
	// RDTMaxPerAddr is the most concurrent RDT downloads from one client
	// IP address. Default 8.
	RDTMaxPerAddr int `yaml:"rdt_max_per_addr"`
	// RDTRateLimit caps the RDT server's total send rate in bytes per
	// second, shared equally by the downloads in progress. Default 0: no
	// cap.
	RDTRateLimit int64 `yaml:"rdt_rate_limit"`
	// MaxPlanInput is the longest chat message, in bytes, the offline
	// planner reads; a longer one is answered with a request to shorten
	// it and runs no tool. Default 16384 (16 KiB).
	MaxPlanInput int `yaml:"max_plan_input"`
	// MaxTools is the most tools offered to the model; MCP tools past it
	// are left out, with a warning naming them. Default 100.
	MaxTools int `yaml:"max_tools"`
}

// Defaults returns the configuration used when nothing is set.
func Defaults() Config {
	return Config{
		NPLT:        "127.0.0.1:9999",
		RDT:         "127.0.0.1:9998",
		HTTP:        "127.0.0.1:8080",
		Data:        "./data",
		LLM:         "builtin",
		Workspace:   "./workspace",
		Log:         Log{Format: "console", Level: "info"},
		Search:      Search{Embedder: "builtin", DocRoots: DefaultDocRoots(), Workers: 2, MinScore: index.DefaultMinScore},
		Permissions: Permissions{Timeout: 120 * time.Second},
		Limits: Limits{
			MaxClients: 200,
			MaxUpload:  100 << 20,

			MaxUploadBytesPerConversation: 256 << 20,
			MaxUploadBytesTotal:           2 << 30,
			MaxIndexedTextPerConversation: 16 << 20,
			MaxIndexedTextTotal:           64 << 20,
			IdleTimeout:                   180 * time.Second,
			StallTimeout:                  30 * time.Second,
			UploadStallTimeout:            60 * time.Second,
			WriteTimeout:                  30 * time.Second,
			ShutdownTimeout:               10 * time.Second,
			HelloTimeout:                  5 * time.Second,
			MaxUnauthenticated:            64,
			MaxUnauthenticatedPerAddr:     8,
			MaxLogins:                     1024,
			HTTPMaxConns:                  256,
			HTTPMaxConnsPerAddr:           32,
			RDTMaxTransfers:               64,
			RDTMaxPerAddr:                 8,
			MaxPlanInput:                  16 << 10,
			MaxTools:                      100,
		},
	}
}

// LoadFile overlays the YAML file at path onto c. Unknown keys are errors,
// so a typo does not silently fall back to a default; the error names
// each by its line and path ("line 4: mcp_servers.b.colour: unknown
// key") and matches ErrUnknownKey.
func (c *Config) LoadFile(path string) error {
	b, err := readFile(path)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return &fileError{path: path, err: err}
	}
	if err := checkKeys(&doc); err != nil { // each named by its path, not the decoder's Go type
		return &fileError{path: path, err: err}
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) { // an empty file changes nothing
		return &fileError{path: path, err: err}
	}
	return nil
}

// yamlQuoted is a value the YAML decoder quotes in its errors ("cannot
// unmarshal !!str `s3cretv...` into int").
var yamlQuoted = regexp.MustCompile("`[^`]*`")

// fileError is an error reading the config file, the values the YAML
// decoder quotes in it replaced: the value in a wrong place may be a
// secret, and the error is printed and logged.
type fileError struct {
	path string
	err  error
}

func (e *fileError) Error() string {
	return "config: " + e.path + ": " + yamlQuoted.ReplaceAllString(e.err.Error(), "`***`")
}

func (e *fileError) Unwrap() error { return e.err }

// Validate checks the configuration for values that cannot work.
func (c *Config) Validate() error {
	var errs []error
	for _, a := range []struct{ name, addr string }{{"nplt", c.NPLT}, {"rdt", c.RDT}, {"http", c.HTTP}} {
		if _, _, err := net.SplitHostPort(a.addr); err != nil {
			errs = append(errs, fmt.Errorf("%s: bad address %q: %w", a.name, a.addr, err))
		}
	}
	if c.Data == "" {
		errs = append(errs, errors.New("data: empty directory"))
	}
	if c.Log.Format != "console" && c.Log.Format != "json" {
		errs = append(errs, fmt.Errorf("log.format: %q is not console or json", c.Log.Format))
	}
	if !c.HasModel(c.LLM) {
		errs = append(errs, fmt.Errorf("llm: %q is neither builtin nor a configured provider", c.LLM))
	}
	seen := map[string]bool{"builtin": true}
	for _, p := range c.Providers {
		if p.Name == "" || seen[p.Name] {
			errs = append(errs, fmt.Errorf("providers: empty or duplicate name %q", p.Name))
		}
		seen[p.Name] = true
	}
	switch s := c.Search; {
	case s.Embedder == "builtin":
	case s.Embedder == "openai":
		if s.BaseURL == "" || s.Model == "" || s.Dim <= 0 {
			errs = append(errs, errors.New("search: the openai embedder needs base_url, model and dim"))
		}
	default:
		errs = append(errs, fmt.Errorf("search.embedder: %q is not builtin or openai", s.Embedder))
	}
	if m := c.Search.MinScore; m < 0 || m > 1 || m != m {
		errs = append(errs, fmt.Errorf("search.min_score: %v is not between 0 and 1", m))
	}
	if c.Retention.MaxConversations < 0 {
		errs = append(errs, fmt.Errorf("retention.max_conversations: %d is negative", c.Retention.MaxConversations))
	}
	if c.Retention.MaxAge < 0 {
		errs = append(errs, fmt.Errorf("retention.max_age: %s is negative", time.Duration(c.Retention.MaxAge)))
	}
	if c.Permissions.Timeout <= 0 {
		errs = append(errs, fmt.Errorf("permissions.timeout: %s is not positive", c.Permissions.Timeout))
	}
	for i, r := range c.Permissions.Rules {
		errs = append(errs, validRule(fmt.Sprintf("permissions.rules[%d]", i), r)...)
	}
	errs = append(errs, c.validateAccess()...)
	errs = append(errs, c.validateMCP()...)
	if c.Search.Dim < 0 || c.Search.Workers < 0 {
		errs = append(errs, errors.New("search: dim and workers must not be negative"))
	}
	l := c.Limits
	for _, v := range []struct {
		key  string
		n    int64
		zero bool // 0 is allowed (the field's comment says what it does)
	}{
		{"max_clients", int64(l.MaxClients), false},
		{"max_upload", l.MaxUpload, true},
		{"idle_timeout", int64(l.IdleTimeout), false},
		{"stall_timeout", int64(l.StallTimeout), false},
		{"upload_stall_timeout", int64(l.UploadStallTimeout), false},
		{"write_timeout", int64(l.WriteTimeout), false},
		{"shutdown_timeout", int64(l.ShutdownTimeout), false},
		{"rdt_max_transfers", int64(l.RDTMaxTransfers), false},
		{"rdt_max_per_addr", int64(l.RDTMaxPerAddr), false},
		{"rdt_rate_limit", l.RDTRateLimit, true},
		{"max_plan_input", int64(l.MaxPlanInput), false},
		{"max_tools", int64(l.MaxTools), false},
		{"hello_timeout", int64(l.HelloTimeout), false},
		{"max_unauthenticated", int64(l.MaxUnauthenticated), false},
		{"max_unauthenticated_per_addr", int64(l.MaxUnauthenticatedPerAddr), false},
		{"max_logins", int64(l.MaxLogins), false},
		{"http_max_conns", int64(l.HTTPMaxConns), false},
		{"http_max_conns_per_addr", int64(l.HTTPMaxConnsPerAddr), false},
		{"max_upload_bytes_per_conversation", l.MaxUploadBytesPerConversation, true},
		{"max_upload_bytes_total", l.MaxUploadBytesTotal, true},
		{"max_indexed_text_per_conversation", l.MaxIndexedTextPerConversation, true},
		{"max_indexed_text_total", l.MaxIndexedTextTotal, true},
	} {
		switch {
		case v.n < 0:
			errs = append(errs, fmt.Errorf("limits.%s: must not be negative", v.key))
		case v.n == 0 && !v.zero:
			errs = append(errs, fmt.Errorf("limits.%s: must be positive", v.key))
		}
	}
	if c.AuthToken == "" && len(c.Users) == 0 && !IsLoopback(c.NPLT) {
		errs = append(errs, fmt.Errorf("nplt: %s is not a loopback address: set auth_token (OPSASSIST_AUTH_TOKEN) or users to expose it", c.NPLT))
	}
	if c.AuthToken == "" && len(c.Users) == 0 && !IsLoopback(c.HTTP) {
		errs = append(errs, fmt.Errorf("http: %s is not a loopback address: set auth_token (OPSASSIST_AUTH_TOKEN) or users to expose it", c.HTTP))
	}
	if c.TLSDir != "" && (c.TLSCert != "" || c.TLSKey != "") {
		errs = append(errs, errors.New("tls_dir: set either tls_dir or tls_cert and tls_key, not both"))
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		errs = append(errs, errors.New("tls_cert and tls_key: set both or neither"))
	}
	if c.AuthToken != "" && (!IsLoopback(c.NPLT) || !IsLoopback(c.HTTP)) {
		if err := CheckToken(c.AuthToken); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// MinTokenLen is the shortest auth_token accepted with a listener off
// loopback.
const MinTokenLen = 16

// ErrWeakToken is matched (errors.Is) by CheckToken's errors.
var ErrWeakToken = errors.New("config: weak auth_token")

// weakToken says why a token is too weak; it matches ErrWeakToken.
type weakToken struct{ key, why string }

func (e weakToken) Error() string {
	return e.key + " is too weak for a listener off loopback: " + e.why + " (try: openssl rand -hex 16)"
}

func (e weakToken) Is(target error) bool { return target == ErrWeakToken }

// CheckToken reports why tok is too weak to guard a public listener:
// fewer than MinTokenLen characters, or one character repeated. Generate
// one with `openssl rand -hex 16`.
// A user's token (token_env) gets the same check, its error naming the
// user.
func CheckToken(tok string) error { return checkToken("auth_token", tok) }

// checkToken is CheckToken for the token named key.
func checkToken(key, tok string) error {
	n := utf8.RuneCountInString(tok)
	if n < MinTokenLen {
		return weakToken{key, fmt.Sprintf("it has %d characters, want at least %d", n, MinTokenLen)}
	}
	r, _ := utf8.DecodeRuneInString(tok)
	if strings.Trim(tok, string(r)) == "" {
		return weakToken{key, "it is one character repeated"}
	}
	return nil
}

// Models returns every model name: builtin, then each provider and
// preset. Which of them can be used depends on their API keys.
func (c *Config) Models() []string {
	m := []string{"builtin"}
	for _, p := range c.AllProviders() {
		m = append(m, p.Name)
	}
	return m
}

// HasModel reports whether name is builtin or a configured provider.
func (c *Config) HasModel(name string) bool {
	for _, m := range c.Models() {
		if m == name {
			return true
		}
	}
	return false
}

// IsLoopback reports whether a listen address only accepts connections
// from this machine. An empty host (all interfaces) is not loopback.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// String renders the configuration as YAML with the auth token, the
// users' token hashes, the env and header values of mcp_servers and any
// other secret redacted, for logging.
func (c Config) String() string {
	if c.AuthToken != "" {
		c.AuthToken = "<redacted>"
	}
	c.Users = slices.Clone(c.Users) // the caller's users keep their hashes
	for i := range c.Users {
		if c.Users[i].TokenSHA256 != "" {
			c.Users[i].TokenSHA256 = "<redacted>"
		}
	}
	c.MCPServers = redactMCP(c.MCPServers) // a copy: the caller's keep their values
	b, _ := yaml.Marshal(c)
	return string(b)
}
