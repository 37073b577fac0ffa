package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// Manager runs the configured MCP servers and keeps their tools in the
// registry. It is safe for concurrent use.
type Manager struct {
	cfg Config

	// applyMu serialises Start, Apply and Close.
	applyMu sync.Mutex
	ctx     context.Context // set by Start
	closed  bool

	mu      sync.Mutex
	servers []*server // in configuration order
}

// New checks the configuration and returns a Manager that runs nothing
// until Start.
func New(cfg Config) (*Manager, error) {
	if cfg.Registry == nil {
		return nil, errors.New("mcp: Registry is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.HealthInterval <= 0 {
		cfg.HealthInterval = DefaultHealthInterval
	}
	if cfg.Jitter == nil {
		cfg.Jitter = rand.Float64
	}
	cfg.Backoff = cfg.Backoff.withDefaults()
	m := &Manager{cfg: cfg}
	scs, err := checkAll(cfg.Servers)
	if err != nil {
		return nil, err
	}
	for _, sc := range scs {
		m.servers = append(m.servers, newServer(m, sc))
	}
	return m, nil
}

// checkAll checks every server and returns them with their defaults.
func checkAll(servers []ServerConfig) ([]ServerConfig, error) {
	out := make([]ServerConfig, 0, len(servers))
	seen := make(map[string]bool)
	for _, sc := range servers {
		if err := sc.check(); err != nil {
			return nil, err
		}
		if seen[sc.Name] {
			return nil, fmt.Errorf("%w: %q configured twice", ErrConfig, sc.Name)
		}
		seen[sc.Name] = true
		out = append(out, sc.withDefaults())
	}
	return out, nil
}

// Start starts every server in the background and returns at once:
// nothing waits for a slow or dead server. The servers stop when ctx
// ends or at Close. Calling Start again does nothing.
func (m *Manager) Start(ctx context.Context) {
	m.applyMu.Lock()
	defer m.applyMu.Unlock()
	if m.ctx != nil || m.closed {
		return
	}
	m.ctx = ctx
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		s.start(ctx)
	}
}

// Apply replaces the set of servers: a server no longer named is
// stopped and its tools removed; a server whose configuration changed
// is stopped and started again with the new one; a new server is
// started (if the Manager is started); an unchanged one keeps running,
// untouched. An invalid set (ErrConfig) changes nothing. Calls in
// flight on a stopped server fail (ErrConnectionLost) or finish.
func (m *Manager) Apply(servers []ServerConfig) error {
	scs, err := checkAll(servers)
	if err != nil {
		return err
	}
	m.applyMu.Lock()
	defer m.applyMu.Unlock()
	if m.closed {
		return ErrClosed
	}
	m.mu.Lock()
	old := make(map[string]*server, len(m.servers))
	for _, s := range m.servers {
		old[s.cfg.Name] = s
	}
	m.mu.Unlock()

	next := make([]*server, 0, len(scs))
	keep := make(map[*server]bool)
	var fresh []*server
	for _, sc := range scs {
		if s, ok := old[sc.Name]; ok && reflect.DeepEqual(s.cfg, sc) {
			next = append(next, s)
			keep[s] = true
			continue
		}
		s := newServer(m, sc)
		next = append(next, s)
		fresh = append(fresh, s)
	}
	// Stop the old ones first: a replacement registers under the same
	// source, after its predecessor removed its tools.
	var wg sync.WaitGroup
	for _, s := range old {
		if !keep[s] {
			wg.Go(s.stop)
		}
	}
	wg.Wait()
	m.mu.Lock()
	m.servers = next
	m.mu.Unlock()
	if m.ctx != nil {
		for _, s := range fresh {
			s.start(m.ctx)
		}
	}
	return nil
}

// Status returns every server's status, in configuration order.
func (m *Manager) Status() []ServerStatus {
	m.mu.Lock()
	servers := slices.Clone(m.servers)
	m.mu.Unlock()
	out := make([]ServerStatus, len(servers))
	for i, s := range servers {
		out[i] = s.status()
	}
	return out
}

// Close stops every server, removes their tools and waits for their
// sessions to close.
func (m *Manager) Close() error {
	m.applyMu.Lock()
	defer m.applyMu.Unlock()
	if m.closed {
		return nil
	}
	m.closed = true
	m.mu.Lock()
	servers := m.servers
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(s.stop)
	}
	wg.Wait()
	return nil
}

// TerminateWait is how long a stdio child is given to exit after its
// stdin is closed before it is sent SIGTERM (and later SIGKILL).
const TerminateWait = 2 * time.Second

// childEnvFromDaemon are the only variables a stdio child inherits from
// the daemon's environment.
var childEnvFromDaemon = []string{"PATH", "HOME", "LANG"}

// DefaultTransport is Config.Transport's default: for a server with a
// Command, a transport that runs it as sdk.CommandTransport does and
// also ends the session as soon as the child exits (its environment:
// ServerConfig.Env plus PATH, HOME and LANG, never the rest of the
// daemon's); for a URL, a StreamableClientTransport (Headers on every
// request). The child runs in its own process group; only the Manager's
// own use of the default transport (Config.Transport nil) also kills
// that group when the session ends.
func DefaultTransport(_ context.Context, sc ServerConfig) (sdk.Transport, error) {
	t, _ := newTransport(sc, nil, nil)
	return t, nil
}

// newTransport is DefaultTransport's transport; a stdio child's stderr
// goes to stderr (nil: discarded); down, if not nil, is told when an
// HTTP server's connection fails (headerTransport).
func newTransport(sc ServerConfig, stderr io.Writer, down func(error)) (sdk.Transport, *exec.Cmd) {
	if sc.Command != "" {
		cmd := exec.Command(sc.Command, sc.Args...)
		cmd.Dir = sc.Cwd
		cmd.Env = childEnv(sc.Env)
		if stderr != nil {
			cmd.Stderr = stderr
		}
		// Its own process group, killed when the session ends.
		setProcessGroup(cmd)
		return &stdioTransport{cmd: cmd, terminate: TerminateWait}, cmd
	}
	return &sdk.StreamableClientTransport{
		Endpoint:   sc.URL,
		HTTPClient: &http.Client{Transport: headerTransport{headers: sc.Headers, base: http.DefaultTransport, down: down}},
	}, nil
}

// childEnv is a stdio child's environment.
func childEnv(env map[string]string) []string {
	var out []string
	for _, k := range childEnvFromDaemon {
		if _, set := env[k]; set {
			continue
		}
		if v, ok := os.LookupEnv(k); ok {
			out = append(out, k+"="+v)
		}
	}
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}
