package daemon

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"opsassist/chat"
	"opsassist/storage/datalock"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// seedData commits two uploads into a data directory as a daemon would
// have: kept is recorded in a conversation, orphan is not (a crash
// between its rename into place and its history record). It returns the
// conversation's history file too.
func seedData(t *testing.T, data string) (kept, orphan uploads.Result, histFile string) {
	t.Helper()
	hist, err := history.Open(filepath.Join(data, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ups, err := uploads.NewStore(filepath.Join(data, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	commit := func(name string) uploads.Result {
		p, err := ups.Begin(name, 5, "")
		if err != nil {
			t.Fatal(err)
		}
		p.Write([]byte("hello"))
		r, err := p.Commit()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	kept = commit("kept.txt")
	conv := hist.New(time.Now())
	if err := conv.AddUpload(history.Upload{FileID: kept.ID, Filename: kept.Name, FilePath: kept.Path, Size: kept.Size, SHA256: kept.SHA256, UploadedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	orphan = commit("orphan.txt") // the crash: no AddUpload
	return kept, orphan, filepath.Join(data, "history", conv.ID()+".jsonl")
}

// quarantined is where start-up moves an unrecorded upload.
func quarantined(data string, r uploads.Result) string {
	return filepath.Join(data, "uploads", uploads.OrphansDir, r.ID, r.Name)
}

// TestStartQuarantinesUnrecordedUploads reproduces a crash between an
// upload's rename into place and its history record on a data directory,
// then starts the daemon on it: the unrecorded upload has left the
// uploads (nothing serves it) for the quarantine, not been deleted; the
// recorded one is where it was.
func TestStartQuarantinesUnrecordedUploads(t *testing.T) {
	data := t.TempDir()
	kept, orphan, _ := seedData(t, data)

	a := startApp(t, data)
	defer stop(t, a)
	if _, err := os.Stat(filepath.Dir(orphan.Path)); !os.IsNotExist(err) {
		t.Errorf("unrecorded upload still among the uploads (%v)", err)
	}
	if b, err := os.ReadFile(quarantined(data, orphan)); err != nil || string(b) != "hello" {
		t.Errorf("unrecorded upload not in quarantine: %q, %v", b, err)
	}
	if _, err := os.Stat(kept.Path); err != nil {
		t.Errorf("recorded upload lost: %v", err)
	}
}

// TestStartKeepsUploadsWhenHistoryDamaged: the history line that recorded
// an upload is corrupt, so the upload looks unrecorded. Start-up must not
// take it away: with damaged history nothing is judged an orphan.
func TestStartKeepsUploadsWhenHistoryDamaged(t *testing.T) {
	data := t.TempDir()
	kept, orphan, histFile := seedData(t, data)
	b, err := os.ReadFile(histFile)
	if err != nil {
		t.Fatal(err)
	}
	// Damage the upload record: one byte of its JSON.
	i := strings.Index(string(b), `"type":"upload"`)
	if i < 0 {
		t.Fatalf("no upload record in %s", b)
	}
	b[i] = '#'
	if err := os.WriteFile(histFile, b, 0o600); err != nil {
		t.Fatal(err)
	}

	a := startApp(t, data)
	defer stop(t, a)
	for _, r := range []uploads.Result{kept, orphan} {
		if _, err := os.Stat(r.Path); err != nil {
			t.Errorf("%s moved or deleted although history is damaged: %v", r.Name, err)
		}
	}
}

// TestSecondDaemonRefused: a second daemon on a data directory another
// one holds refuses to start, naming the directory, and leaves the first
// one's uploads alone, even one whose commit is in progress (stored, not
// yet recorded). Once the first has stopped, the directory is free.
func TestSecondDaemonRefused(t *testing.T) {
	data := t.TempDir()
	a := startApp(t, data)
	se := a.chat.NewSession("cli", chat.Local())
	p, err := se.BeginUpload("in-progress.txt", 5, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("hello"))
	inProgress, err := p.Commit() // renamed into place; the record would follow
	if err != nil {
		t.Fatal(err)
	}
	// The second daemon's clock is ahead of the commit.
	past := time.Now().Add(-time.Minute)
	os.Chtimes(filepath.Dir(inProgress.Path), past, past)

	cfg := testConfig(data)
	a2, err := New(cfg, zap.NewNop())
	if err == nil {
		stop(t, a2)
		stop(t, a)
		t.Fatal("a second daemon started on a data directory in use")
	}
	if !errors.Is(err, datalock.ErrHeld) || !strings.Contains(err.Error(), data) || !strings.Contains(err.Error(), "another opsassistd") {
		t.Errorf("second daemon: %v; want it refused, naming %s and another opsassistd", err, data)
	}
	if _, err := os.Stat(inProgress.Path); err != nil {
		t.Errorf("first daemon's upload gone: %v", err)
	}
	stop(t, a)
	a3 := startApp(t, data)
	stop(t, a3)
}

const killChildEnv = "OPSASSIST_KILL_CHILD_DATA"

// TestCommitKillChild is the child of TestKill9BetweenRenameAndRecord: a
// daemon that records one upload, then stores a second one the way
// CommitUpload does, says so, and waits to be killed before recording it.
func TestCommitKillChild(t *testing.T) {
	data := os.Getenv(killChildEnv)
	if data == "" {
		t.Skip("child process of TestKill9BetweenRenameAndRecord")
	}
	a := startApp(t, data)
	se := a.chat.NewSession("cli", chat.Local())
	begin := func(name string) *uploads.Pending {
		p, err := se.BeginUpload(name, 5, "")
		if err != nil {
			os.Stdout.WriteString("failed: " + err.Error() + "\n")
			os.Exit(3)
		}
		p.Write([]byte("hello"))
		return p
	}
	kept, err := se.CommitUpload(begin("kept.txt"), nil)
	if err != nil {
		os.Stdout.WriteString("failed: " + err.Error() + "\n")
		os.Exit(3)
	}
	// CommitUpload's first half: the rename into place. Its second
	// half, the history record, never comes.
	r, err := begin("orphan.txt").Commit()
	if err != nil {
		os.Stdout.WriteString("failed: " + err.Error() + "\n")
		os.Exit(3)
	}
	os.Stdout.WriteString("committed " + kept.FilePath + " " + r.Path + "\n")
	select {}
}

// TestKill9BetweenRenameAndRecord kills a daemon with SIGKILL between an
// upload's rename into place and its history record. The next daemon
// starts on the data directory (the lock died with the process), moves
// the unrecorded upload to quarantine, says so in its log, and keeps the
// recorded one.
func TestKill9BetweenRenameAndRecord(t *testing.T) {
	if os.Getenv(killChildEnv) != "" {
		t.Skip("in the child")
	}
	data := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCommitKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), killChildEnv+"="+data)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var keptPath, orphanPath string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "failed") {
			t.Fatal(line)
		}
		if rest, ok := strings.CutPrefix(line, "committed "); ok {
			keptPath, orphanPath, _ = strings.Cut(rest, " ")
			break
		}
	}
	if orphanPath == "" {
		t.Fatalf("child ended without committing: %v", sc.Err())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(orphanPath); err != nil {
		t.Fatalf("the killed daemon's unrecorded upload is not on disk: %v", err)
	}

	core, logs := observer.New(zapcore.WarnLevel)
	cfg := testConfig(data)
	a, err := New(cfg, zap.New(core))
	if err != nil {
		t.Fatalf("restart after SIGKILL: %v", err)
	}
	defer stop(t, a)
	if _, err := os.Stat(filepath.Dir(orphanPath)); !os.IsNotExist(err) {
		t.Errorf("unrecorded upload still among the uploads (%v)", err)
	}
	id := filepath.Base(filepath.Dir(orphanPath))
	if _, err := os.Stat(filepath.Join(data, "uploads", uploads.OrphansDir, id, "orphan.txt")); err != nil {
		t.Errorf("unrecorded upload not in quarantine: %v", err)
	}
	if _, err := os.Stat(keptPath); err != nil {
		t.Errorf("recorded upload lost: %v", err)
	}
	if logs.FilterField(zap.String("file_id", id)).FilterMessageSnippet("quarantined").Len() != 1 {
		t.Errorf("quarantine not reported: %v", logs.All())
	}
}
