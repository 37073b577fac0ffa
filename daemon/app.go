// Package daemon is the composition root: it assembles the opsassist
// daemon from a config.Config — storage, the search index, the tools and
// the agent, the chat core and the transports (NPLT, RDT, HTTP) — mapping
// the file configuration onto each component's own Config. Only
// cmd/opsassistd imports it; it only parses flags and handles signals.
package daemon

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"opsassist/agent"
	"opsassist/agent/builtin"
	"opsassist/agent/llm"
	"opsassist/chat"
	"opsassist/config"
	"opsassist/internal/authlimit"
	"opsassist/internal/buildinfo"
	"opsassist/metrics"
	"opsassist/storage/datalock"
	"opsassist/storage/embed"
	"opsassist/storage/history"
	"opsassist/storage/index"
	"opsassist/storage/indexer"
	"opsassist/storage/uploads"
	"opsassist/tools"
	"opsassist/tools/audit"
	"opsassist/tools/command"
	"opsassist/tools/mcp"
	"opsassist/tools/policy"
	"opsassist/tools/ratelimit"
	"opsassist/tools/search"
	"opsassist/tools/toolset"
	"opsassist/transport/mcpserver"
	npltserver "opsassist/transport/npltserver"
	"opsassist/transport/rdtserver"
	"opsassist/transport/web"
)

// Version is the daemon version reported to clients; internal/buildinfo
// owns it.
const Version = buildinfo.Version

// App is a running daemon.
type App struct {
	cfg   config.Config
	log   *zap.Logger
	chat  *chat.Service
	nplt  *npltserver.Server
	ln    net.Listener
	web   *web.Server
	mcps  *mcpserver.Server // the built-in tools over MCP: /mcp, mcp-stdio
	hln   net.Listener
	tools *toolset.Set
	mcp   *mcp.Manager // the configured MCP servers' tools, started by Start
	conf  *reloader    // applies the files' MCP servers when they change; nil without files
	// retention is retention.*, replaced by a reload (conf).
	retention *chat.RetentionPolicy
	index     *index.Index
	ixr       *indexer.Indexer

	bg     context.Context // background indexing; cancelled by Shutdown
	cancel context.CancelFunc
	rdt    *rdtserver.Server
	udp    net.PacketConn
	lock   *datalock.Lock // the data directory, for the daemon's life
	audit  *audit.Log     // every tool call's record

	wg      sync.WaitGroup
	serveMu sync.Mutex
	errs    []error
}

// New builds the daemon and binds its listeners, so a caller knows the
// addresses are ready when New returns. It runs named steps in order:
// storage, listeners, index, agent and tools, chat core, transports; what
// a step opened is closed again if a later one fails.
func New(cfg config.Config, log *zap.Logger) (_ *App, err error) {
	if log == nil {
		log = zap.NewNop()
	}
	// Recorded file paths must not depend on the directory the daemon
	// was started from.
	data, err := filepath.Abs(cfg.Data)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	cfg.Data = data
	// What is opened is closed again if a later step fails.
	var undo undoStack
	defer func() {
		if err != nil {
			undo.run()
		}
	}()
	st, err := openStorage(cfg, log, &undo)
	if err != nil {
		return nil, err
	}
	ls, err := bindListeners(&cfg, log, &undo)
	if err != nil {
		return nil, err
	}
	idx, ixr, err := newIndex(cfg, os.LookupEnv, log)
	if err != nil {
		return nil, err
	}
	undo.push(func() { idx.Close() })
	m := metrics.New()
	// One value of the command tiers for the tool and every planner.
	cmds, err := command.NewTiers(cfg.Commands)
	if err == nil {
		cmds, err = cmds.WithAsk(cfg.Permissions.CommandsAsk)
	}
	if err != nil {
		return nil, err
	}
	planners, models := newPlanners(cfg, cmds, os.LookupEnv, log)
	ag, set, err := newAgent(cfg, cmds, planners, httpBase(ls.http.Addr(), ls.tls != nil), search.Config{Index: idx, Pending: ixr, MinScore: cfg.Search.MinScore}, st.audit, m, log)
	if err != nil {
		return nil, err
	}
	undo.push(func() { set.Close() })
	mm, err := newMCP(cfg, set.Registry, log)
	if err != nil {
		return nil, err
	}
	undo.push(func() { mm.Close() })
	svc, err := newChat(cfg, st, ixr, ag, models, log)
	if err != nil {
		return nil, err
	}
	bg, cancel := context.WithCancel(context.Background())
	undo.push(cancel)
	a := &App{cfg: cfg, log: log, chat: svc, hln: ls.http, tools: set, index: idx, ixr: ixr, udp: ls.udp, bg: bg, cancel: cancel, lock: st.lock, audit: st.audit, mcp: mm,
		conf: newReloader(cfg, os.LookupEnv, mm, set.Registry, log.Named("config")), retention: chat.NewRetentionPolicy(retention(cfg.Retention))}
	if a.conf != nil {
		a.conf.retention = a.retention
	}
	if err := a.newTransports(set, m); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", cfg.NPLT)
	if err != nil {
		return nil, fmt.Errorf("nplt: %w", err)
	}
	a.ln = withTLS(ln, ls.tls)
	// Every listener is bound: local clients (mcp-stdio) find this
	// daemon through its data directory; Shutdown removes the record first.
	rec := datalock.Record{HTTP: a.hln.Addr().String(), NPLT: ln.Addr().String(), RDT: ls.udp.LocalAddr().String(), TLS: ls.tls != nil, Version: Version}
	if ls.tls != nil {
		rec.TLSCertSHA256 = certSHA256(ls.tls)
	}
	if err := st.lock.Publish(rec); err != nil {
		ln.Close()
		return nil, err
	}
	return a, nil
}

// undoStack holds what New has opened so far, to be closed last first if
// a later step fails.
type undoStack []func()

// push records how to undo a step.
func (u *undoStack) push(f func()) { *u = append(*u, f) }

// run undoes every step recorded, last first.
func (u undoStack) run() {
	for i := len(u) - 1; i >= 0; i-- {
		u[i]()
	}
}

// stores is the daemon's storage under the data directory.
type stores struct {
	lock   *datalock.Lock
	loaded time.Time // uploads committed from here on are not judged orphans
	hist   *history.Store
	ups    *uploads.Store
	audit  *audit.Log
}

// openStorage locks the data directory and opens the conversation history
// and the upload store under it.
func openStorage(cfg config.Config, log *zap.Logger, undo *undoStack) (stores, error) {
	// One daemon per data directory: a second one would judge the
	// first one's fresh uploads unrecorded, and both would append to the
	// same conversations.
	lock, err := datalock.Acquire(cfg.Data)
	if err != nil {
		return stores{}, err
	}
	undo.push(func() { lock.Release() })
	loaded := time.Now() // uploads committed from here on are not judged orphans
	hist, err := history.Open(filepath.Join(cfg.Data, "history"), log.Named("history"))
	if err != nil {
		return stores{}, err
	}
	ups, err := uploads.Open(uploads.Config{Dir: filepath.Join(cfg.Data, "uploads"), MaxSize: cfg.Limits.MaxUpload, MaxTotal: cfg.Limits.MaxUploadBytesTotal})
	if err != nil {
		return stores{}, err
	}
	// Every tool call is recorded; a log damaged at its end is not
	// written on (that would hide the damage): the daemon does not
	// start until an operator has looked.
	dir := filepath.Join(cfg.Data, audit.DirName)
	aud, err := audit.Open(dir, audit.Options{Logger: log.Named("audit")})
	if err != nil {
		if _, broken := errors.AsType[*audit.BrokenError](err); broken {
			return stores{}, fmt.Errorf("%w (inspect it with `opsassist audit verify --data %s`; to start a new log, move %s aside)", err, cfg.Data, dir)
		}
		return stores{}, err
	}
	undo.push(func() { aud.Close() })
	return stores{lock: lock, loaded: loaded, hist: hist, ups: ups, audit: aud}, nil
}

// listeners are the sockets bound before the rest is built.
type listeners struct {
	tls  *tls.Config // nil without TLS
	http net.Listener
	udp  net.PacketConn
}

// bindListeners loads the TLS configuration and binds the HTTP listener
// and the RDT socket: offers and download links name their real
// addresses (port 0 in tests), so cfg.RDT is set to the socket's.
func bindListeners(cfg *config.Config, log *zap.Logger, undo *undoStack) (listeners, error) {
	tlsConf, err := serverTLS(*cfg)
	if err != nil {
		return listeners{}, err
	}
	if tlsConf == nil && (!config.IsLoopback(cfg.NPLT) || !config.IsLoopback(cfg.HTTP)) {
		log.Warn("a listener is off loopback without TLS: the access token and every chat cross the network in clear; set tls_cert and tls_key, or tls_dir")
	}
	hln, err := net.Listen("tcp", cfg.HTTP)
	if err != nil {
		return listeners{}, fmt.Errorf("http: %w", err)
	}
	undo.push(func() { hln.Close() })
	hln = withTLS(hln, tlsConf)
	udp, err := net.ListenPacket("udp", cfg.RDT)
	if err != nil {
		return listeners{}, fmt.Errorf("rdt: %w", err)
	}
	undo.push(func() { udp.Close() })
	cfg.RDT = udp.LocalAddr().String()
	return listeners{tls: tlsConf, http: hln, udp: udp}, nil
}

// newChat builds the chat core over the storage, the indexer and the
// agent, then quarantines the uploads a crash left unrecorded.
func newChat(cfg config.Config, st stores, ixr *indexer.Indexer, ag *agent.Agent, models []string, log *zap.Logger) (*chat.Service, error) {
	info, check := modelInfo(cfg, llm.NewProber(llm.ProberConfig{}))
	svc, err := chat.New(chat.Config{
		History: st.hist,
		Uploads: st.ups,
		Indexer: ixr,
		Agent:   ag,

		MaxUploadBytesPerConversation: cfg.Limits.MaxUploadBytesPerConversation,
		PermissionTimeout:             cfg.Permissions.Timeout,
		Models:                        models,
		DefaultModel:                  defaultModel(cfg.LLM, models, log),
		ModelInfo:                     info,
		CheckModel:                    check,
		Logger:                        log.Named("chat"),
	})
	if err != nil {
		return nil, err
	}
	// History is loaded and nothing serves yet: uploads a crash left
	// unrecorded go to quarantine.
	// (each one is logged by the chat service).
	if _, err := svc.QuarantineOrphanUploads(st.loaded); err != nil {
		log.Warn("quarantining unrecorded uploads failed", zap.Error(err))
	}
	return svc, nil
}

// newTransports builds the NPLT, RDT and HTTP servers over the chat core
// and the tools' download tokens. The listeners are bound already (the
// NPLT one by New, last).
func (a *App) newTransports(set *toolset.Set, m *metrics.Metrics) error {
	cfg, log, svc := a.cfg, a.log, a.chat
	// One directory of users and one limiter: the same tokens, and
	// wrong ones counted, across NPLT and HTTP.
	users, err := cfg.Directory(os.LookupEnv)
	if err != nil {
		return err
	}
	limiter := authlimit.New(0, 0)
	// One catalog for HTTP's GET /api/tools and NPLT's TOOL_LIST.
	catalog := toolCatalog{reg: a.tools.Registry, status: func() []mcp.ServerStatus { return a.mcp.Status() }}
	srv, err := npltserver.New(npltserver.Config{
		Chat:                      svc,
		MaxClients:                cfg.Limits.MaxClients,
		MaxUnauthenticated:        cfg.Limits.MaxUnauthenticated,
		MaxUnauthenticatedPerAddr: cfg.Limits.MaxUnauthenticatedPerAddr,
		HelloTimeout:              cfg.Limits.HelloTimeout,
		RDTAddr:                   cfg.RDT,
		Limiter:                   limiter,
		IdleTimeout:               cfg.Limits.IdleTimeout,
		StallTimeout:              cfg.Limits.StallTimeout,
		UploadStallTimeout:        cfg.Limits.UploadStallTimeout,
		WriteTimeout:              cfg.Limits.WriteTimeout,
		Users:                     users,
		Tokens:                    set.Tokens,
		Catalog:                   catalog,
		Runner:                    a.tools.Registry,
		Version:                   Version,
		Metrics:                   m,
		Logger:                    log.Named("nplt"),
	})
	if err != nil {
		return err
	}
	a.nplt = srv
	rsrv, err := rdtserver.NewServer(rdtserver.ServerConfig{
		Tokens:       set.Tokens,
		Logger:       log.Named("rdt"),
		MaxTransfers: cfg.Limits.RDTMaxTransfers,
		MaxPerAddr:   cfg.Limits.RDTMaxPerAddr,
		RateLimit:    cfg.Limits.RDTRateLimit,
		OnTransfer:   func(st rdtserver.TransferStats) { reportRDT(m, st) },
	})
	if err != nil {
		return err
	}
	a.rdt = rsrv
	// The built-in tools over MCP, through the same registry (policy,
	// roles, rate limits, audit): /mcp here, mcp-stdio on MCPServer.
	mcps, err := mcpserver.New(mcpserver.Config{
		Runner:            a.tools.Registry,
		Version:           Version,
		PermissionTimeout: cfg.Permissions.Timeout,
		Logger:            log.Named("mcpserver"),
	})
	if err != nil {
		return err
	}
	a.mcps = mcps
	ws, err := web.New(web.Config{
		Chat:            svc,
		Tokens:          set.Tokens,
		System:          set.Monitor,
		Metrics:         m.Handler(),
		Observer:        m,
		Components:      a.components,
		Public:          !config.IsLoopback(cfg.HTTP),
		Users:           users,
		Audit:           a.audit,
		Catalog:         catalog,
		Runner:          a.tools.Registry,
		MCP:             mcps.Handler,
		Limiter:         limiter,
		MaxLogins:       cfg.Limits.MaxLogins,
		StallTimeout:    cfg.Limits.StallTimeout,
		MaxConns:        cfg.Limits.HTTPMaxConns,
		MaxConnsPerAddr: cfg.Limits.HTTPMaxConnsPerAddr,
		Version:         Version,
		Logger:          log.Named("http"),
	})
	if err != nil {
		return err
	}
	a.web = ws
	return nil
}

// reportRDT adds a finished RDT transfer to the metrics: the bytes it
// delivered (its file less what the client had already), its
// retransmissions and, if it succeeded, its goodput.
func reportRDT(m metrics.RDT, st rdtserver.TransferStats) {
	m.RDTRetransmitted(int(st.Retransmits))
	if st.Err != nil {
		return
	}
	delivered := st.Size - st.Resumed
	m.RDTDelivered(delivered)
	if st.Duration > 0 {
		m.RDTTransferDone(delivered, st.Duration)
	}
}

// newIndex opens the search index under the data directory. The index
// loads in the background: the transports serve meanwhile, and
// semantic_search answers that it is loading.
func newIndex(cfg config.Config, lookup func(string) (string, bool), log *zap.Logger) (*index.Index, *indexer.Indexer, error) {
	ec := cfg.Search.EmbedConfig(lookup)
	ec.Logger = log
	emb, err := embed.New(ec)
	if err != nil {
		return nil, nil, err
	}
	idx, err := index.Start(filepath.Join(cfg.Data, "index"), index.Config{Embedder: emb, Logger: log.Named("index"),
		MaxUploadText: cfg.Limits.MaxIndexedTextTotal, MaxUploadTextPerConversation: cfg.Limits.MaxIndexedTextPerConversation})
	if err != nil {
		return nil, nil, err
	}
	ixr, err := indexer.New(indexer.Config{Index: idx, Embedder: emb, Workers: cfg.Search.Workers, MaxBytes: cfg.Limits.MaxUpload, Logger: log.Named("indexer")})
	if err != nil {
		idx.Close()
		return nil, nil, err
	}
	return idx, ixr, nil
}

// httpBase is the base URL of download links: the HTTP listener's real
// address, with the machine's host name for a wildcard address; https
// when the listener speaks TLS.
func httpBase(addr net.Addr, secure bool) string {
	scheme := "http://"
	if secure {
		scheme = "https://"
	}
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return scheme + addr.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		if h, err := os.Hostname(); err == nil && h != "" {
			host = h
		}
	}
	return scheme + net.JoinHostPort(host, port)
}

// components reports the state of the daemon's parts for /api/health.
func (a *App) components() map[string]string {
	st := a.index.Stats()
	state := "ok"
	switch {
	case st.Loading:
		state = "loading"
	case a.index.Wait(context.Background()) != nil: // loaded: returns at once
		state = "failed"
	}
	c := map[string]string{
		"nplt":  "ok",
		"rdt":   "ok",
		"index": fmt.Sprintf("%s (%d files, %d chunks, %s)", state, st.Files, st.Chunks, st.Embedder),
		"llm":   a.cfg.LLM,
	}
	for _, ms := range a.mcp.Status() {
		v := fmt.Sprintf("%s (%d tools, %d restarts)", ms.State, ms.Tools, ms.Restarts)
		if ms.Reason != "" {
			v += ": " + ms.Reason
		}
		c["mcp:"+ms.Name] = v
	}
	if a.conf != nil {
		c["config"] = a.conf.state()
	}
	return c
}

// newMCP builds the manager of the configured MCP servers over the
// registry (mcp_servers:, --mcp-config); Start starts them.
func newMCP(cfg config.Config, reg *tools.Registry, log *zap.Logger) (*mcp.Manager, error) {
	servers, err := cfg.ResolveMCPServers(os.LookupEnv)
	if err != nil {
		return nil, err
	}
	m, err := mcp.New(mcp.Config{Servers: servers, Registry: reg, Logger: log.Named("mcp")})
	if err != nil {
		return nil, fmt.Errorf("mcp_servers: %w", err)
	}
	return m, nil
}

// newPlanners builds the built-in planner and one LLM planner per
// provider whose API key is set (or that needs none), each reading the
// command tiers cmds. It returns them with the usable model names,
// builtin first.
func newPlanners(cfg config.Config, cmds command.Tiers, lookup func(string) (string, bool), log *zap.Logger) (map[string]agent.Planner, []string) {
	planners := map[string]agent.Planner{"builtin": builtin.New(builtin.Config{MaxInput: cfg.Limits.MaxPlanInput, Commands: cmds})}
	models := []string{"builtin"}
	for _, p := range cfg.AllProviders() {
		key := ""
		if p.APIKeyEnv != "" {
			var ok bool
			if key, ok = lookup(p.APIKeyEnv); !ok || key == "" {
				log.Debug("provider unavailable: API key not set", zap.String("provider", p.Name), zap.String("env", p.APIKeyEnv))
				continue
			}
		}
		planners[p.Name] = llm.New(llm.Config{BaseURL: p.BaseURL, Model: p.Model, APIKey: key, Timeout: p.Timeout,
			TextProtocol: p.TextProtocol, Commands: cmds, Logger: log.Named("llm").With(zap.String("provider", p.Name))})
		models = append(models, p.Name)
	}
	return planners, models
}

// defaultModel is the configured model if it is usable, else builtin: the
// offline planner is the default whenever no provider key is configured.
func defaultModel(want string, models []string, log *zap.Logger) string {
	if slices.Contains(models, want) {
		return want
	}
	log.Warn("model unavailable (no API key); using the built-in planner", zap.String("llm", want))
	return "builtin"
}

// newAgent builds the tools, command_executor with the tiers cmds, and
// the agent over the planners.
func newAgent(cfg config.Config, cmds command.Tiers, planners map[string]agent.Planner, base string, sc search.Config, rec tools.Recorder, m *metrics.Metrics, log *zap.Logger) (*agent.Agent, *toolset.Set, error) {
	ws, err := filepath.Abs(cfg.Workspace)
	if err != nil {
		return nil, nil, fmt.Errorf("workspace: %w", err)
	}
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return nil, nil, fmt.Errorf("workspace: %w", err)
	}
	uploadsDir := filepath.Join(cfg.Data, "uploads")
	roots := cfg.AllowedRoots
	if len(roots) == 0 {
		roots = []string{ws}
		if docs, err := filepath.Abs("docs"); err == nil {
			if st, err := os.Stat(docs); err == nil && st.IsDir() {
				roots = append(roots, docs)
			}
		}
	}
	// Commands see the roots only; uploads belong to their conversations
	// and are reached through file_upload and file_download, which check
	// that the caller's conversation owns them.
	perms, err := permissions(cfg.Permissions, cfg.Roles)
	if err != nil {
		return nil, nil, err
	}
	// The daemon's own files: never read by a command or offered for
	// download, approved or not (uploads only through file_download).
	protected := []string{cfg.Data, cfg.File, cfg.TLSCert, cfg.TLSKey, cfg.TLSDir}
	set, err := toolset.New(toolset.Config{Workspace: ws, Roots: roots, AllowHardlinks: cfg.AllowHardlinks, UploadsDir: uploadsDir, Protected: protected, Commands: cmds,
		Permissions: perms, RDTAddr: cfg.RDT, HTTPBase: base, Search: sc, Observer: m, SearchObserver: m, Limiter: rateLimiter(cfg.RateLimits), Audit: rec, MaxOffered: cfg.Limits.MaxTools, Logger: log})
	if err != nil {
		return nil, nil, err
	}
	if err := checkRateLimits(cfg.RateLimits, set.Registry.Names()); err != nil {
		set.Close()
		return nil, nil, err
	}
	logGovernance(cfg, log)
	ag, err := agent.New(agent.Config{Planners: planners, Tools: set.Registry, Logger: log.Named("agent")})
	if err != nil {
		set.Close()
		return nil, nil, err
	}
	return ag, set, nil
}

// permissions maps the configuration's permissions and roles sections
// onto the policy's Config, each rule named as the configuration names
// it; toolset adds the tools that inspect their calls.
func permissions(c config.Permissions, roles map[string]config.Role) (policy.Config, error) {
	var out policy.Config
	var err error
	if out.Rules, err = rules("permissions.rules", c.Rules); err != nil {
		return policy.Config{}, err
	}
	for name, r := range roles {
		key := "roles." + name
		pr := policy.Role{ReadOnly: r.ReadOnly}
		if pr.Rules, err = rules(key+".rules", r.Rules); err != nil {
			return policy.Config{}, err
		}
		if !config.BuiltinRole(name) {
			pr.Tools = make(map[string]tools.Decision)
			for pat, d := range r.ToolDecisions() {
				if pr.Tools[pat], err = policy.ParseDecision(d); err != nil {
					return policy.Config{}, fmt.Errorf("%s.tools[%q]: %w", key, pat, err)
				}
			}
		}
		if out.Roles == nil {
			out.Roles = make(map[string]policy.Role)
		}
		out.Roles[name] = pr
	}
	return out, nil
}

// rateLimiter maps rate_limits: onto the limiter; nil without limits.
func rateLimiter(limits map[string]config.RateLimit) tools.RateLimiter {
	if len(limits) == 0 {
		return nil
	}
	m := make(map[string]ratelimit.Limit, len(limits))
	for tool, l := range limits {
		m[tool] = ratelimit.Limit{PerMinute: l.PerMinute, PerHour: l.PerHour}
	}
	return ratelimit.New(ratelimit.Config{Limits: m})
}

// checkRateLimits refuses a rate_limits: key that is neither "*", a
// registered tool nor an MCP tool name (mcp__…, registered once its
// server runs): a misspelt name would limit nothing.
func checkRateLimits(limits map[string]config.RateLimit, names []string) error {
	var bad []string
	for tool := range limits {
		// An MCP server's tools (mcp__…) appear once it runs: not checked.
		if tool != ratelimit.AnyTool && !strings.HasPrefix(tool, "mcp__") && !slices.Contains(names, tool) {
			bad = append(bad, tool)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	return fmt.Errorf("rate_limits: no such tool: %s (tools: %s, or * for every tool)", strings.Join(bad, ", "), strings.Join(names, ", "))
}

// logGovernance logs who may use the server and how its tool calls are
// governed — users with their roles, configured roles, rate limits —
// never a token or its hash.
func logGovernance(cfg config.Config, log *zap.Logger) {
	users := make([]string, 0, len(cfg.Users)+1)
	if cfg.AuthToken != "" {
		users = append(users, chat.AdminName+" (admin, auth_token)")
	}
	for _, u := range cfg.Users {
		users = append(users, u.Name+" ("+u.Role+")")
	}
	roles := slices.Sorted(maps.Keys(cfg.Roles))
	limits := make([]string, 0, len(cfg.RateLimits))
	for _, tool := range slices.Sorted(maps.Keys(cfg.RateLimits)) {
		l := cfg.RateLimits[tool]
		var w []string
		if l.PerMinute > 0 {
			w = append(w, fmt.Sprintf("%d/min", l.PerMinute))
		}
		if l.PerHour > 0 {
			w = append(w, fmt.Sprintf("%d/h", l.PerHour))
		}
		limits = append(limits, tool+" "+strings.Join(w, " "))
	}
	if len(users) == 0 {
		users = append(users, chat.LocalID+" (admin, loopback without tokens)")
	}
	log.Info("tool governance", zap.Strings("users", users), zap.Strings("roles", roles), zap.Strings("rate_limits", limits), zap.Int("permission_rules", len(cfg.Permissions.Rules)))
}

// rules maps configured permission rules onto the policy's, each named
// key[i].
func rules(key string, in []config.PermissionRule) ([]policy.Rule, error) {
	var out []policy.Rule
	for i, r := range in {
		name := fmt.Sprintf("%s[%d]", key, i)
		d, err := policy.ParseDecision(r.Decision)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, policy.Rule{Name: name, Tool: r.Tool, Command: r.Command, ArgsPrefix: r.ArgsPrefix, Path: r.Path, Decision: d})
	}
	return out, nil
}

// MCPServer returns the server of the built-in tools over MCP (served
// at /mcp; opsassistd mcp-stdio serves it over stdio).
func (a *App) MCPServer() *mcpserver.Server { return a.mcps }

// NPLTAddr returns the address the NPLT server listens on.
func (a *App) NPLTAddr() net.Addr { return a.ln.Addr() }

// HTTPAddr returns the address the HTTP server listens on.
func (a *App) HTTPAddr() net.Addr { return a.hln.Addr() }

// RDTAddr returns the UDP address the RDT server listens on.
func (a *App) RDTAddr() net.Addr { return a.udp.LocalAddr() }

// Start serves in the background.
func (a *App) Start() {
	a.log.Info("nplt listening", zap.Stringer("addr", a.ln.Addr()))
	a.mcp.Start(a.bg) // in the background: a slow or dead server delays nothing
	if a.conf != nil {
		// Stopped by Shutdown's cancel, before the MCP manager closes.
		a.wg.Go(func() { a.conf.run(a.bg) })
	}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		if err := a.web.Serve(a.hln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.log.Error("http server failed", zap.Error(err))
			a.addErr(err)
		}
	}()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		if err := a.rdt.Serve(a.udp); err != nil && !errors.Is(err, rdtserver.ErrServerClosed) {
			a.log.Error("rdt server failed", zap.Error(err))
			a.addErr(err)
		}
	}()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		a.indexAtStart()
	}()
	if a.retention.Get().Enabled() || a.conf != nil {
		// At start, then hourly, and at once when a reload changes
		// retention.*; stopped by Shutdown's cancel before the chat core
		// closes.
		a.wg.Go(func() { a.chat.RunRetentionPolicy(a.bg, a.retention, retentionEvery, nil) })
	}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		if err := a.nplt.Serve(a.ln); err != nil && !errors.Is(err, npltserver.ErrServerClosed) {
			a.log.Error("nplt server failed", zap.Error(err))
			a.addErr(err)
		}
	}()
}

// addErr records a server's failure for Shutdown to report.
func (a *App) addErr(err error) {
	a.serveMu.Lock()
	a.errs = append(a.errs, err)
	a.serveMu.Unlock()
}

// indexAtStart brings the index up to date: system documents are
// scanned incrementally and uploads a crash left unindexed are indexed
// again.
func (a *App) indexAtStart() {
	if err := a.index.Wait(a.bg); err != nil {
		if a.bg.Err() == nil {
			a.log.Error("search index failed to load; search and indexing are unavailable", zap.Error(err))
		}
		return
	}
	if n := a.chat.ForgetDeletedConversations(a.bg, a.index.Conversations()); n > 0 {
		a.log.Info("removed deleted conversations from the index", zap.Int("conversations", n))
	}
	if n := a.chat.ReindexUploads(); n > 0 {
		a.log.Info("re-indexing uploads", zap.Int("uploads", n))
	}
	rep, err := a.ixr.SyncSystem(a.bg, a.cfg.Search.DocRoots)
	if err != nil {
		if a.bg.Err() == nil {
			a.log.Warn("indexing system documents failed", zap.Error(err))
		}
		return
	}
	st := a.index.Stats()
	a.log.Info("system documents indexed", zap.Int("added", rep.Added), zap.Int("updated", rep.Updated),
		zap.Int("unchanged", rep.Unchanged), zap.Int("removed", rep.Removed), zap.Int("skipped", rep.Skipped),
		zap.Int("failed", rep.Failed), zap.Int("files", st.Files), zap.Int("chunks", st.Chunks), zap.String("embedder", st.Embedder))
}

// Index returns the search index.
func (a *App) Index() *index.Index { return a.index }

// Shutdown removes the data directory's record (daemon.json), stops
// accepting, lets replies in flight finish until ctx ends, then stops
// background work. History is fsynced per turn, so nothing is
// left to flush once the connections are closed.
func (a *App) Shutdown(ctx context.Context) error {
	// First, before any listener closes: a local client (mcp-stdio)
	// must not find this daemon's addresses once they may be another
	// process's. Release retries the removal.
	if uerr := a.lock.Unpublish(); uerr != nil {
		a.log.Warn("the data directory's record stays until the lock is released", zap.Error(uerr))
	}
	var herr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		// MCP sessions first: their streams end, so the HTTP server's
		// shutdown does not wait for them, and their calls are cancelled
		// and recorded before the audit log closes.
		if err := a.mcps.Shutdown(ctx); err != nil {
			a.log.Warn("mcp sessions still running at shutdown", zap.Error(err))
		}
		herr = a.web.Shutdown(ctx)
	}()
	err := a.nplt.Shutdown(ctx)
	if rerr := a.rdt.Shutdown(ctx); err == nil && !errors.Is(rerr, context.DeadlineExceeded) && !errors.Is(rerr, context.Canceled) {
		err = rerr
	}
	<-done
	if err == nil {
		err = herr
	}
	a.cancel()
	a.wg.Wait()
	if cerr := a.chat.Close(ctx); err == nil {
		err = cerr
	}
	// The transports cancelled their turns; their tool calls end and
	// are recorded shortly (a killed command, a cancelled request), even
	// when ctx ran out waiting for them: give them a grace of their own.
	wctx, wcancel := context.WithTimeout(context.Background(), turnGrace)
	if werr := a.chat.WaitTurns(wctx); werr != nil {
		a.log.Warn("turns still running at shutdown; their last tool calls may not be recorded", zap.Error(werr))
	}
	wcancel()
	if cerr := a.index.Close(); err == nil {
		err = cerr
	}
	if cerr := a.mcp.Close(); err == nil {
		err = cerr
	}
	if cerr := a.tools.Close(); err == nil {
		err = cerr
	}
	// After the turns: their calls' records are written.
	if cerr := a.audit.Close(); err == nil {
		err = cerr
	}
	if lerr := a.lock.Release(); err == nil {
		err = lerr
	}
	a.serveMu.Lock()
	defer a.serveMu.Unlock()
	return errors.Join(append([]error{err}, a.errs...)...)
}

// turnGrace bounds how long Shutdown waits for cancelled turns to end
// before the audit log is closed.
const turnGrace = 5 * time.Second

// NewLogger builds the zap logger described by cfg.
func NewLogger(cfg config.Log) (*zap.Logger, error) {
	level, err := zapcore.ParseLevel(cfg.Level)
	if err != nil {
		return nil, fmt.Errorf("log level: %w", err)
	}
	var zc zap.Config
	if cfg.Format == "json" {
		zc = zap.NewProductionConfig()
	} else {
		zc = zap.NewDevelopmentConfig()
		zc.DisableStacktrace = true
	}
	zc.Level = zap.NewAtomicLevelAt(level)
	zc.OutputPaths = []string{"stderr"}
	return zc.Build()
}
