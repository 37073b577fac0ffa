package loopguard

import (
	"crypto/sha256"
	"fmt"

	"opsassist/api"
	"opsassist/internal/runecut"
)

// MaxSignatures bounds the distinct calls (tool and canonical
// arguments) a Guard counts, and the stopped oscillations it remembers.
// A turn runs at most MaxSteps × MaxCallsPerStep calls (64 by default),
// far fewer; past the bound, a new call is still checked for an
// oscillation but no longer counted for repeats.
const MaxSignatures = 1024

// Repeats is the call count that stops a call: the third call of the
// same tool with the same arguments in a turn is not run.
const Repeats = 3

// maxToolName caps a tool name quoted in a Reason: a model may call a
// tool that does not exist, with any name.
const maxToolName = 64

// Verdict is the Guard's decision about one call.
type Verdict struct {
	// Stop: the call repeats or oscillates and must not run unless the
	// user allows it (tools.Call.Loop).
	Stop bool
	// Reason, when Stop, tells the model what repeated, in Chinese and
	// English: not to call it again this turn, but to answer with what
	// it has or ask the user. It is the refused call's result.
	Reason string
	// Question, when Stop, asks the user, in Chinese and English,
	// whether to run the call anyway: what the model repeated, without
	// the instructions meant for the model (tools.Call.LoopQuestion).
	Question api.Text
	// Persisted, when Stop: the model asked again for a call the Guard
	// had already stopped (or for one continuing a stopped
	// oscillation), after being told not to.
	Persisted bool
}

// signature identifies a call: a hash of its tool and canonical
// arguments, so a Guard holds no argument text, however large.
type signature [sha256.Size]byte

func sign(tool string, args []byte) signature {
	h := sha256.New()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	h.Write([]byte(Canonical(args)))
	var s signature
	h.Sum(s[:0])
	return s
}

// seen is what a Guard knows of one signature.
type seen struct {
	count   int  // calls since the turn began or the user last allowed it
	stopped bool // stopped and not allowed since
}

// recorded is one call of the oscillation window.
type recorded struct {
	sig  signature
	tool string
}

// pair is an oscillation between two signatures, in either order.
type pair [2]signature

func pairOf(a, b signature) pair {
	if string(a[:]) > string(b[:]) {
		a, b = b, a
	}
	return pair{a, b}
}

// Guard watches the tool calls of one turn. It is not safe for
// concurrent use: the agent checks a turn's calls in order, on the
// turn's goroutine, before each starts.
type Guard struct {
	seen   map[signature]*seen
	recent []recorded    // the last three calls checked, oldest first
	swings map[pair]bool // oscillations stopped and not allowed since
}

// New returns a Guard for a new turn.
func New() *Guard {
	return &Guard{seen: make(map[signature]*seen), swings: make(map[pair]bool)}
}

// Check records a call of tool with args and says whether it may run.
// It stops the call when it is the Repeats-th (or a later) call of tool
// with the same canonical arguments since the turn began or the user
// last allowed it, or when the three calls checked before it were A, B,
// A with A ≠ B and it is B. Stopped calls are recorded too: a model
// that keeps asking gets Persisted.
func (g *Guard) Check(tool string, args []byte) Verdict {
	s := sign(tool, args)
	e := g.seen[s]
	if e == nil {
		e = &seen{}
		if len(g.seen) < MaxSignatures {
			g.seen[s] = e
		}
	}
	e.count++
	var v Verdict
	persisted := e.stopped
	if e.count >= Repeats {
		v.Stop = true
		v.Reason, v.Question = repeatReason(tool, e.count), repeatQuestion(tool, e.count)
	}
	if n := len(g.recent); n == 3 && g.recent[0].sig == g.recent[2].sig && g.recent[1].sig == s && g.recent[0].sig != s {
		p := pairOf(g.recent[0].sig, s)
		persisted = persisted || g.swings[p]
		if !v.Stop {
			v.Stop = true
			v.Reason, v.Question = swingReason(tool, g.recent[0].tool), swingQuestion(tool, g.recent[0].tool)
		}
		if g.swings[p] || len(g.swings) < MaxSignatures {
			g.swings[p] = true
		}
	}
	if v.Stop {
		e.stopped = true
		v.Persisted = persisted
	}
	g.recent = append(g.recent, recorded{sig: s, tool: tool})
	if len(g.recent) > 3 {
		g.recent = append(g.recent[:0], g.recent[len(g.recent)-3:]...)
	}
	return v
}

// Allow records that the user chose to run a stopped call of tool with
// args anyway: the call counts as the first of a new series, the
// oscillations it was part of are forgotten, and the oscillation
// window starts again from it.
func (g *Guard) Allow(tool string, args []byte) {
	s := sign(tool, args)
	if e := g.seen[s]; e != nil {
		e.count = 1
		e.stopped = false
	}
	for p := range g.swings {
		if p[0] == s || p[1] == s {
			delete(g.swings, p)
		}
	}
	g.recent = append(g.recent[:0], recorded{sig: s, tool: tool})
}

// repeatReason tells the model that tool was called n times alike.
func repeatReason(tool string, n int) string {
	tool = runecut.Head(tool, maxToolName)
	return fmt.Sprintf("循环检测：本轮已第 %d 次以相同参数调用 %s，未执行；本轮不要再调用它，请根据已有结果回答，或询问用户。"+
		"The loop guard stopped %s: this is call %d with the same arguments in this turn, so it did not run. "+
		"Do not call it again this turn; answer with what you have, or ask the user.", n, tool, tool, n)
}

// swingReason tells the model that tool and other alternate.
func swingReason(tool, other string) string {
	tool, other = runecut.Head(tool, maxToolName), runecut.Head(other, maxToolName)
	if tool == other {
		return fmt.Sprintf("循环检测：%s 在两组参数之间交替调用（A-B-A-B），未执行；本轮不要再调用它，请根据已有结果回答，或询问用户。"+
			"The loop guard stopped %s: it alternates between two sets of arguments (A-B-A-B), so it did not run. "+
			"Do not call it again this turn; answer with what you have, or ask the user.", tool, tool)
	}
	return fmt.Sprintf("循环检测：%s 与 %s 以相同参数交替调用（A-B-A-B），未执行；本轮不要再调用它们，请根据已有结果回答，或询问用户。"+
		"The loop guard stopped %s: it alternates with %s, each with the same arguments as before (A-B-A-B), so it did not run. "+
		"Do not call them again this turn; answer with what you have, or ask the user.", other, tool, tool, other)
}

// repeatQuestion asks the user whether to run the n-th alike call of
// tool anyway.
func repeatQuestion(tool string, n int) api.Text {
	tool = runecut.Head(tool, maxToolName)
	return api.Text{
		Zh: fmt.Sprintf("模型已第 %d 次以相同参数调用 %s。是否仍要执行？", n, tool),
		En: fmt.Sprintf("The model has called %s with the same arguments %d times. Run it anyway?", tool, n),
	}
}

// swingQuestion asks the user whether to run a call of tool that
// alternates with one of other anyway.
func swingQuestion(tool, other string) api.Text {
	tool, other = runecut.Head(tool, maxToolName), runecut.Head(other, maxToolName)
	if tool == other {
		return api.Text{
			Zh: fmt.Sprintf("模型在两组参数之间交替调用 %s（A-B-A-B）。是否仍要执行？", tool),
			En: fmt.Sprintf("The model keeps alternating between two calls of %s with different arguments (A-B-A-B). Run it anyway?", tool),
		}
	}
	return api.Text{
		Zh: fmt.Sprintf("模型在 %s 与 %s 两个调用之间来回交替（A-B-A-B）。是否仍要执行 %s？", other, tool, tool),
		En: fmt.Sprintf("The model keeps alternating between two calls, %s and %s (A-B-A-B). Run %s anyway?", other, tool, tool),
	}
}
