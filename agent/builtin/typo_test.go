package builtin

import (
	"strings"
	"testing"

	"opsassist/tools/command"
)

func TestFixTypos(t *testing.T) {
	tests := []struct{ in, want string }{
		{"check memroy usage", "check memory usage"},
		{"show me the proccesses", "show me the processes"},
		{"dwonload config.yaml", "download config.yaml"},
		{"Memory usage", "Memory usage"},
		{"processed requests", "processed requests"},
		{"downloads folder", "downloads folder"},
		{"download /home/user/documents/report.pdf", "download /home/user/documents/report.pdf"},
		{"cat /srv/memroy.txt", "cat /srv/memroy.txt"},
		{"内存memroy", "内存memory"},
	}
	for _, tt := range tests {
		if got := fixTypos(tt.in); got != tt.want {
			t.Errorf("fixTypos(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestOneEdit(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		ok   bool
	}{
		{"memroy", "memory", true}, {"memry", "memory", true}, {"memoryy", "memory", true},
		{"nemory", "memory", true}, {"memory", "memory", false}, {"mmeroy", "memory", false},
		{"mem", "memory", false}, {"ab", "ba", true}, {"abc", "acb", true}, {"abcd", "badc", false},
	} {
		if got := oneEdit(tt.a, tt.b); got != tt.ok {
			t.Errorf("oneEdit(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

// TestFixTyposBothLanguages: typos of the vocabulary — resource words,
// document and upload words, command names — are repaired within an
// edit distance that grows with the word (a swap in four or five
// letters, one edit up to nine, two from ten), and Chinese pinyin-IME
// homophones of the vocabulary are repaired.
func TestFixTyposBothLanguages(t *testing.T) {
	for in, want := range map[string]string{
		"how much dsik space do we have left?": "how much disk space do we have left?",
		"chekc the cpu pls":                    "check the cpu pls",
		"show me the runing processes":         "show me the running processes",
		"where is the documnetaion":            "where is the documentation",
		"any runbok for this?":                 "any runbook for this?",
		"uplaoded files":                       "uploaded files",
		"瓷盘还剩多少":                               "磁盘还剩多少",
		"内纯用了多少":                               "内存用了多少",
		"有哪些近程在跑":                              "有哪些进程在跑",
		"值班手侧在哪":                               "值班手册在哪",
		"帮我下再 app.log":                         "帮我下载 app.log",
		"whaomi":                               "whoami", // a command of the tiers
		"shwo me":                              "show me",
	} {
		if got := fixTypos(in); got != want {
			t.Errorf("fixTypos(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFixTyposLeavesOrdinaryWords: ordinary words near a vocabulary
// word, identifiers and everyday Chinese words stay as they are.
func TestFixTyposLeavesOrdinaryWords(t *testing.T) {
	for _, w := range strings.Fields(`desk dusk disc dish risk this that shown slow snow spice space spade
		usage sausage check cheek chick checks status statue state stats search research searched restore
		reload reloaded unload upland upgraded running ruining cunning gunning memo memoir memories process
		profess prowess processor processed progress progresses director directly directive document
		documented files filed films miles tiles logo lots legs logs config confirm contig playback locker
		docker netstat setstat rebook uptake delete deleted deletes delta storage stowage restart restate
		download downward downloads upload uploader isShutdown gcUtilization DirEntry ESHUTDOWN StatFS
		nsearch estart siftDown reboot robot shutdown showdown procedure produce directories directors`) {
		if got := fixTypos(w); got != w {
			t.Errorf("fixTypos(%q) = %q, an ordinary word changed", w, got)
		}
	}
	for _, s := range []string{"我要进城", "上船了", "放在桌子下在", "负债率", "此次变更", "词语", "内容", "文章",
		"手机", "流水线", "空间", "宽带", "磁带", "瓷器", "日子", "服务员", "应该", "近期", "今天"} {
		if got := fixTypos(s); got != s {
			t.Errorf("fixTypos(%q) = %q, an ordinary word changed", s, got)
		}
	}
}

// TestFixTyposKnowsTheTiers: a command the configured tiers add is
// vocabulary; the default planner does not guess it.
func TestFixTyposKnowsTheTiers(t *testing.T) {
	tiers, err := command.NewTiers([]string{"ls", "hostnamectl"})
	if err != nil {
		t.Fatal(err)
	}
	c := newCommands(tiers)
	if got := c.fixTypos("show hostnamectrl output"); got != "show hostnamectl output" {
		t.Errorf("configured: %q", got)
	}
	if got := fixTypos("show hostnamectrl output"); got != "show hostnamectrl output" {
		t.Errorf("default: %q", got)
	}
}

// TestFixTyposIsLinear: a 16 KiB message of words one edit from the
// vocabulary costs each word a fixed number of comparisons; checked by
// repairing every word, whatever the length.
func TestFixTyposIsLinear(t *testing.T) {
	in := strings.Repeat("memroy dsik proccess ", 16<<10/21)
	out := fixTypos(in)
	if strings.Count(out, "memory disk process ") != 16<<10/21 {
		t.Errorf("not every word repaired: %.80q", out)
	}
}

// TestFixCommandHead: a command line's mistyped command name is repaired
// to a command of the tiers; prose and real commands are not.
func TestFixCommandHead(t *testing.T) {
	for in, want := range map[string]string{
		"cta /etc/hostname":             "cat /etc/hostname",
		"hed -5 notes.txt":              "head -5 notes.txt",
		"tial -n 100 /var/log/messages": "tail -n 100 /var/log/messages",
		"pdw":                           "pwd",
		"cat /etc/hostname":             "cat /etc/hostname",
		"act now":                       "act now",
		"the disk":                      "the disk",
		"pad":                           "pad",
		"had a look at /var/log":        "had a look at /var/log",
	} {
		if got := defaultCommands.fixCommandHead(in); got != want {
			t.Errorf("fixCommandHead(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFixTyposSecondSlip: a doubled letter typed once more, and a letter
// left out of a short word, are repaired beyond one edit; the ordinary
// words near them are not.
func TestFixTyposSecondSlip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"show me the procceses", "show me the process"},
		{"any runnning proccesses?", "any running processes?"},
		{"sytem load?", "system load?"},
		{"the sytem feels slow", "the system feels slow"},
		{"check memmory usage", "check memory usage"},
		{"how much stoorage is left", "how much storage is left"},
		{"list the direectoryy", "list the directory"},
		{"servvice status", "service status"},
		{"dowwnload report.pdf", "download report.pdf"},
		{"containner logs", "container logs"},
		{"show the runnbook", "show the runbook"},
		{"uptimme", "uptime"},
	}
	for _, tt := range tests {
		if got := fixTypos(tt.in); got != tt.want {
			t.Errorf("fixTypos(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, w := range strings.Fields(`stats system items stem steam sites cheek seems status sweet
		proceeds succeeds shutter stutter spell small sells deems`) {
		if got := fixTypos(w); got != w {
			t.Errorf("fixTypos(%q) = %q, an ordinary word changed", w, got)
		}
	}
}

// TestFixTyposCupAsCPU: "cup" beside a word of usage or load is cpu; a
// cup elsewhere is a cup.
func TestFixTyposCupAsCPU(t *testing.T) {
	for in, want := range map[string]string{
		"cup 占用多少":                   "cpu 占用多少",
		"how much cup is being used": "how much cpu is being used",
		"cup usage?":                 "cpu usage?",
		"现在 cup 使用率":                 "现在 cpu 使用率",
		"cup load right now":         "cpu load right now",
		"cup 负载高吗":                   "cpu 负载高吗",
		"cup 满了":                     "cpu 满了",
		"check cup utilization":      "check cpu utilization",
		"cpi 用了多少":                   "cpu 用了多少",
		"cup at 90%?":                "cpu at 90%?",
		"a cup of coffee":            "a cup of coffee",
		"world cup results":          "world cup results",
		"/srv/cup usage":             "/srv/cup usage",
	} {
		if got := fixTypos(in); got != want {
			t.Errorf("fixTypos(%q) = %q, want %q", in, got, want)
		}
	}
}
