package pathtext

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// proseParticles start Chinese prose written straight after a name
// that ends in ASCII: /var/log下的文件, nginx.conf里的内容.
var proseParticles = []string{"下", "里", "中", "内", "的", "和", "与", "及", "或", "跟", "目录", "文件", "这", "那"}

// prosePhrases end a last component written in Chinese: /srv/应用下的文件.
var prosePhrases = []string{"下的", "里的", "中的", "内的", "里面", "下面", "目录下", "目录里", "的文件", "的内容", "的最后", "的前", "的大小", "有多大", "多大", "里有", "下有", "里找", "里搜", "里查",
	// Questions and their tails: /srv/备份怎么这么大, /srv/日志太多了吧.
	"有什么", "有哪些", "怎么", "为什么", "太", "了", "吗", "呢", "吧"}

// proseLast ends a last component written in Chinese when it is its
// last character: "ls /srv/应用下".
var proseLast = []rune{'下', '里'}

// cutProse is p without the Chinese prose glued after it. A last
// component that ends in a file extension is a file's name and is not
// cut inside by a particle or phrase (/srv/报告/年度的大小.xlsx,
// /srv/app中文.log), unless what comes before the cut is a file name
// itself (access.log和error.log).
func (s *Scanner) cutProse(p string) string {
	prev := rune(0)
	lastSlash, lastSep := strings.LastIndexByte(p, '/'), strings.LastIndexAny(p, "/.")
	fileName := HasExtension(p)
	for i, r := range p {
		s.Steps++
		if !IsHan(r) {
			prev = r
			continue
		}
		if fileName && i > lastSlash && !HasExtension(p[:i]) {
			prev = r // inside a file's name
			continue
		}
		if prev == 0 || prev == '/' || IsHan(prev) {
			if i > lastSlash && prev != '/' && prev != 0 {
				// Inside a last component: a prose phrase ends it.
				if i+utf8.RuneLen(r) == len(p) && slices.Contains(proseLast, r) {
					return p[:i]
				}
				for _, ph := range prosePhrases {
					s.Steps++
					if strings.HasPrefix(p[i:], ph) {
						return p[:i]
					}
				}
			}
			prev = r
			continue
		}
		// Chinese right after ASCII or a digit.
		for _, ph := range proseParticles {
			s.Steps++
			if strings.HasPrefix(p[i:], ph) {
				return p[:i]
			}
		}
		if lastSep < i {
			return p[:i] // no slash or extension follows
		}
		prev = r
	}
	return p
}
