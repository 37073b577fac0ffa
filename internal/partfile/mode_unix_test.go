//go:build unix

package partfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestCommitModeFollowsUmask: the finished file gets 0666 less the
// umask, as curl's and wget's downloads do (it was created 0600 whatever
// the umask); NAME.part is 0600 while it arrives; the probe is gone.
func TestCommitModeFollowsUmask(t *testing.T) {
	for _, c := range []struct{ umask, want os.FileMode }{{0o022, 0o644}, {0o027, 0o640}, {0o002, 0o664}} {
		old := syscall.Umask(int(c.umask)) // no t.Parallel in this package
		dir := t.TempDir()
		path := filepath.Join(dir, "out")
		data, sum := testData(100)
		p, err := Create(path, ID{Token: "t"})
		if err != nil {
			syscall.Umask(old)
			t.Fatal(err)
		}
		part, _ := os.Stat(path + Suffix)
		p.SetSize(100)
		p.WriteAt(data, 0)
		err = p.Commit(sum)
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != c.want || part.Mode().Perm() != 0o600 {
			t.Errorf("umask %o: file %o (want %o), part %o (want 600)", c.umask, st.Mode().Perm(), c.want, part.Mode().Perm())
		}
		mustNotExist(t, path+Suffix+probeSuffix, path+Suffix)
	}
}
