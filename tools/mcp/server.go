package mcp

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"opsassist/tools"
)

// server runs one configured server: its session, its tools in the
// registry, its restarts.
//
// The state machine (docs/mcp.md): starting → ready when initialize and
// the tool list succeed within StartupTimeout; starting → unavailable
// when they fail; ready → unavailable when the session ends, a health
// check fails or a tool list cannot be read; unavailable → starting
// after the backoff (or the circuit breaker's cooldown). Only ready has
// tools in the registry.
type server struct {
	cfg ServerConfig
	m   *Manager
	// red hides cfg's secrets in every reason and error text.
	red *redactor

	mu   sync.Mutex
	st   ServerStatus
	sess *sdk.ClientSession
	// ended is done when sess ends; its cause is the error calls in
	// flight fail with (ErrConnectionLost).
	ended context.Context
	// end ends ended, with the cause calls in flight fail with.
	end context.CancelCauseFunc

	// stderr keeps the end of a stdio child's stderr (default
	// transport only).
	stderr tail

	// listHash is the hash (hashSpecs) of the tools last put in the
	// registry, valid when listed; a refresh that lists the same tools
	// leaves the registry alone. Used by the run goroutine only.
	listHash [sha256.Size]byte
	listed   bool
	// healthNote, when not "", says why HealthCheckTool is not called
	// (it is not listed, filtered out or not read-only): the ready
	// server's reason. Set by refresh.
	healthNote string

	// cmd is the stdio child of the current attempt (default transport
	// only): its process group is killed when the attempt ends. Used by
	// the run goroutine only.
	cmd *exec.Cmd
	// broken gets a session whose calls found its connection gone, and
	// why: serve ends it at once rather than at the next health check.
	broken chan brokenSession
	// down gets the failure of the current attempt's HTTP connection
	// (headerTransport: the server cannot be reached, a reply stream
	// broke); nil for a stdio server or Config.Transport. serve ends the
	// session on it. Used by the run goroutine only.
	down chan error

	cancel context.CancelFunc
	done   chan struct{}
}

func newServer(m *Manager, cfg ServerConfig) *server {
	s := &server{cfg: cfg, m: m, red: newRedactor(cfg), broken: make(chan brokenSession, 1), st: ServerStatus{Name: cfg.Name, State: StateStarting}, done: make(chan struct{})}
	if cfg.Unavailable != "" {
		// Not redacted: it names keys and variables only, and the
		// redactor would take "headers.Authorization: …" for a header.
		s.st.State, s.st.Reason = StateUnavailable, cfg.Unavailable
	}
	return s
}

// start runs the server in the background until ctx ends or stop.
func (s *server) start(ctx context.Context) {
	ctx, s.cancel = context.WithCancel(ctx)
	go s.run(ctx)
}

// stop ends a started server and waits until its tools are gone from
// the registry and its session closed.
func (s *server) stop() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	<-s.done
}

// session is the current session and a context that ends with it, or
// nil and why there is none.
func (s *server) session() (*sdk.ClientSession, context.Context, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != nil {
		return s.sess, s.ended, ""
	}
	switch {
	case s.st.State == StateReady:
		return nil, nil, "its session just ended; it is being restarted"
	case s.st.Reason != "":
		return nil, nil, s.st.Reason
	}
	return nil, nil, "the server is " + s.st.State
}

func (s *server) status() ServerStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}

// update changes the status with f and tells OnChange.
func (s *server) update(f func(st *ServerStatus)) {
	s.mu.Lock()
	f(&s.st)
	st := s.st
	s.mu.Unlock()
	if s.m.cfg.OnChange != nil {
		s.m.cfg.OnChange(st)
	}
}

func (s *server) run(ctx context.Context) {
	defer close(s.done)
	defer s.drop()
	log := s.m.cfg.Logger.With(zap.String("mcp_server", s.cfg.Name))
	if s.cfg.Unavailable != "" {
		s.unavailable(s.cfg.Unavailable)
		log.Warn("mcp server not started", zap.String("reason", s.cfg.Unavailable))
		<-ctx.Done()
		return
	}
	bo := s.m.cfg.Backoff
	failures := 0
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			// The last failure's reason is in the log; a starting
			// server has none (docs/protocol/http.md).
			s.update(func(st *ServerStatus) { st.State, st.Reason, st.Restarts = StateStarting, "", st.Restarts+1 })
		}
		sess, changed, err := s.connect(ctx)
		if err == nil {
			log.Info("mcp server ready", zap.Int("tools", s.status().Tools))
			began := s.m.cfg.Now()
			err = s.serve(ctx, sess, changed)
			if s.m.cfg.Now().Sub(began) >= bo.StableAfter {
				failures = 0
			}
		}
		s.killGroup()
		if ctx.Err() != nil {
			return
		}
		failures++
		if line := s.stderr.lastLine(); line != "" {
			err = fmt.Errorf("%w (stderr: %s)", err, line)
		}
		d, open := bo.delay(failures, s.m.cfg.Jitter())
		reason := fmt.Sprintf("%v; next attempt in %s", err, d.Round(time.Millisecond))
		if open {
			reason = fmt.Sprintf("%v; circuit open after %d failures in a row, next attempt in %s", err, failures, d.Round(time.Second))
			failures = bo.BreakerFailures - 1 // after the cooldown, one more failure reopens it
		}
		reason = s.red.String(reason)
		s.unavailable(reason)
		log.Warn("mcp server unavailable", zap.String("reason", reason))
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// drop removes the server's tools and ends its session.
func (s *server) drop() {
	s.m.cfg.Registry.ReplaceSource(s.cfg.Name, nil)
	s.listed = false
	if sess := s.endSession(errors.New("the server was stopped")); sess != nil {
		sess.Close()
	}
	s.killGroup()
}

// useSession makes sess the session calls use, before its tools are
// registered: a call that finds a tool finds its session.
func (s *server) useSession(sess *sdk.ClientSession) {
	ended, end := context.WithCancelCause(context.Background())
	s.mu.Lock()
	s.sess, s.ended, s.end = sess, ended, end
	s.mu.Unlock()
}

// endSession stops calls from using the current session, failing the
// ones in flight with why, and returns it (nil when none) to be closed.
func (s *server) endSession(why error) *sdk.ClientSession {
	s.mu.Lock()
	sess, end := s.sess, s.end
	s.sess, s.ended, s.end = nil, nil, nil
	s.mu.Unlock()
	if end != nil {
		end(why) // calls in flight fail now, not at their timeout
	}
	return sess
}

// killGroup kills what is left of the attempt's stdio child and what it
// started (its process group), once its session is closed.
func (s *server) killGroup() {
	if s.cmd != nil && s.cmd.Process != nil {
		killProcessGroup(s.cmd.Process)
	}
	s.cmd = nil
}

// brokenSession is a session a call found broken, and the call's error.
type brokenSession struct {
	sess *sdk.ClientSession
	why  error
}

// sessionBroken tells serve that a call found sess's connection gone
// (the child died while something else holds its pipes, the HTTP server
// cannot be reached or the exchange broke), why being the call's error:
// the session is ended and restarted now.
func (s *server) sessionBroken(sess *sdk.ClientSession, why error) {
	select {
	case s.broken <- brokenSession{sess, why}:
	default:
	}
}

// unavailable hides the server's tools and records why.
func (s *server) unavailable(reason string) {
	s.m.cfg.Registry.ReplaceSource(s.cfg.Name, nil)
	s.listed = false
	s.update(func(st *ServerStatus) { st.State, st.Reason, st.Tools = StateUnavailable, reason, 0 })
}

// connect opens a session and registers its tools, within
// StartupTimeout. changed is signalled by tools/list_changed.
func (s *server) connect(ctx context.Context) (*sdk.ClientSession, <-chan struct{}, error) {
	sctx, cancel := context.WithTimeout(ctx, s.cfg.StartupTimeout)
	defer cancel()
	t, err := s.transport(sctx)
	if err != nil {
		return nil, nil, fmt.Errorf("transport: %w", err)
	}
	changed := make(chan struct{}, 1)
	client := sdk.NewClient(&sdk.Implementation{Name: "opsassist", Version: "1"}, &sdk.ClientOptions{
		Capabilities: &sdk.ClientCapabilities{}, // no roots
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	sess, err := client.Connect(sctx, t, nil)
	if err != nil {
		return nil, nil, startErr(sctx, "initialize", s.cfg.StartupTimeout, err)
	}
	s.useSession(sess)
	if err := s.refresh(sctx, sess); err != nil {
		err = startErr(sctx, "list tools", s.cfg.StartupTimeout, err)
		s.endSession(err)
		sess.Close()
		return nil, nil, err
	}
	return sess, changed, nil
}

// transport makes a session's transport: Config.Transport, or the
// default one, which keeps a stdio child's stderr in s.stderr and
// reports a failed HTTP connection on s.down.
func (s *server) transport(ctx context.Context) (sdk.Transport, error) {
	s.down = nil
	if s.m.cfg.Transport != nil {
		return s.m.cfg.Transport(ctx, s.cfg)
	}
	s.stderr.reset()
	down := make(chan error, 1)
	t, cmd := newTransport(s.cfg, &s.stderr, func(err error) {
		select {
		case down <- err:
		default:
		}
	})
	s.cmd, s.down = cmd, down
	return t, nil
}

// startErr says what failed at start-up, naming the timeout when it
// was hit.
func startErr(ctx context.Context, what string, limit time.Duration, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%s: no answer within the startup timeout (%s): %w", what, limit, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// refresh lists the server's tools and replaces them in the registry
// when they changed (the registry compiles every schema again); ctx is
// checked between tools, so stop does not wait for a long list.
func (s *server) refresh(ctx context.Context, sess *sdk.ClientSession) error {
	var list []*sdk.Tool
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(list) == MaxServerTools {
			s.m.cfg.Logger.Warn("mcp server lists too many tools; the rest are ignored",
				zap.String("mcp_server", s.cfg.Name), zap.Int("max", MaxServerTools))
			break
		}
		list = append(list, t)
	}
	ts, skipped := buildTools(s, list)
	s.healthNote = healthCheckNote(s.cfg.HealthCheckTool, ts)
	h := hashSpecs(ts)
	if s.listed && h == s.listHash {
		if st := s.status(); st.State != StateReady || st.Reason != s.healthNote {
			s.update(func(st *ServerStatus) { st.State, st.Reason = StateReady, s.healthNote })
		}
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, sk := range skipped {
		s.m.cfg.Logger.Warn("mcp server tool skipped", zap.String("mcp_server", s.cfg.Name), zap.String("reason", s.red.String(sk)))
	}
	err := s.m.cfg.Registry.ReplaceSource(s.cfg.Name, ts)
	s.listHash, s.listed = h, err == nil
	if err != nil {
		s.m.cfg.Logger.Warn("mcp server tools skipped", zap.String("mcp_server", s.cfg.Name), zap.Error(s.red.Error(err)))
	}
	s.m.cfg.Logger.Debug("mcp server tools registered", zap.String("mcp_server", s.cfg.Name), zap.Int("listed", len(ts)))
	n := 0
	for _, sp := range s.m.cfg.Registry.Specs() {
		if sp.Source == s.cfg.Name {
			n++
		}
	}
	if s.healthNote != "" {
		s.m.cfg.Logger.Warn("mcp server health_check_tool not used", zap.String("mcp_server", s.cfg.Name), zap.String("reason", s.healthNote))
	}
	s.update(func(st *ServerStatus) { st.State, st.Reason, st.Tools = StateReady, s.healthNote, n })
	return nil
}

// serve keeps a ready session (connect made it the one calls use)
// until it ends, a health check or a re-list fails, or ctx ends; the
// session is closed on return.
func (s *server) serve(ctx context.Context, sess *sdk.ClientSession, changed <-chan struct{}) (err error) {
	defer func() {
		why := err
		if ctx.Err() != nil {
			why = errors.New("the server was stopped")
		}
		s.endSession(why)
		sess.Close()
	}()
	waited := make(chan error, 1)
	go func() { waited <- sess.Wait() }()
	tick := time.NewTicker(s.m.cfg.HealthInterval)
	defer tick.Stop()
	// list_changed is debounced: at most one re-list per
	// ListChangedInterval, the notifications in between coalesced into
	// one re-list at its end.
	var (
		last    = s.m.cfg.Now()
		pending *time.Timer
		due     <-chan time.Time
	)
	defer func() {
		if pending != nil {
			pending.Stop()
		}
	}()
	relist := func() error {
		last = s.m.cfg.Now()
		if err := s.bounded(ctx, func(ctx context.Context) error { return s.refresh(ctx, sess) }); err != nil {
			return fmt.Errorf("tool list after tools/list_changed: %w", err)
		}
		return nil
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-waited:
			if err == nil {
				err = errors.New("closed by the server")
			}
			return fmt.Errorf("session ended: %w", err)
		case b := <-s.broken:
			if b.sess == sess {
				return fmt.Errorf("session ended: a call found its connection gone: %w", b.why)
			}
		case err := <-s.down:
			if errors.Is(err, errStreamBroke) && !errors.Is(err, ErrResponseTooLarge) {
				// A proxy may cut a stream of a server that is
				// alive (the SDK reconnects it): check now. A dead
				// server fails at once (its connection refused).
				herr := s.bounded(ctx, func(ctx context.Context) error { return s.health(ctx, sess) })
				if herr == nil {
					continue
				}
				err = fmt.Errorf("%w; the check right after: %w", err, herr)
			}
			return fmt.Errorf("session ended: the connection to the server failed: %w", err)
		case <-changed:
			if due != nil {
				continue // a re-list is already due
			}
			if wait := ListChangedInterval - s.m.cfg.Now().Sub(last); wait > 0 {
				pending = time.NewTimer(wait)
				due = pending.C
				continue
			}
			if err := relist(); err != nil {
				return err
			}
		case <-due:
			pending, due = nil, nil
			if err := relist(); err != nil {
				return err
			}
		case <-tick.C:
			last = s.m.cfg.Now()
			if err := s.bounded(ctx, func(ctx context.Context) error { return s.health(ctx, sess) }); err != nil {
				return fmt.Errorf("health check: %w", err)
			}
		}
	}
}

// bounded runs f within StartupTimeout.
func (s *server) bounded(ctx context.Context, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.StartupTimeout)
	defer cancel()
	return f(ctx)
}

// health lists the tools (updating the registry) and calls
// HealthCheckTool if set.
func (s *server) health(ctx context.Context, sess *sdk.ClientSession) error {
	if err := s.refresh(ctx, sess); err != nil {
		return err
	}
	if s.cfg.HealthCheckTool == "" || s.healthNote != "" {
		return nil // only the list
	}
	res, err := sess.CallTool(ctx, &sdk.CallToolParams{Name: s.cfg.HealthCheckTool})
	if err != nil {
		return fmt.Errorf("%s: %w", s.cfg.HealthCheckTool, err)
	}
	if _, err := convert(res); err != nil {
		return fmt.Errorf("%s: %w", s.cfg.HealthCheckTool, err)
	}
	return nil
}

// ensure remoteTool stays a tools.Tool.
var _ tools.Tool = (*remoteTool)(nil)

// ListChangedInterval is the least time between two re-lists after
// tools/list_changed: a server that sends the notification in a loop
// costs one re-list per interval.
const ListChangedInterval = time.Second

// hashSpecs is a hash of what the registry would hold for ts: names,
// descriptions, schemas, risks, timeouts (after filtering and the
// annotations' mapping).
func hashSpecs(ts []tools.Tool) [sha256.Size]byte {
	h := sha256.New()
	for _, t := range ts {
		sp := t.Spec()
		for _, f := range []string{sp.Name, sp.Description, string(sp.Parameters), string(sp.Risk), sp.Timeout.String(), sp.Source, sp.SourceName} {
			fmt.Fprintf(h, "%d:%s", len(f), f)
		}
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// healthCheckNote says why the configured health check tool cannot be
// called — it must be among ts (listed, not filtered out) and read-only
// (by its annotations or a risk override) — or "" when it can.
func healthCheckNote(name string, ts []tools.Tool) string {
	if name == "" {
		return ""
	}
	for _, t := range ts {
		if sp := t.Spec(); sp.SourceName == name {
			if sp.Risk != tools.RiskReadOnly {
				return fmt.Sprintf("health_check_tool %s is not read-only (risk %s); health checks only list the tools", name, sp.Risk)
			}
			return ""
		}
	}
	return fmt.Sprintf("health_check_tool %s is not among the server's tools (not listed, or filtered out); health checks only list the tools", name)
}
