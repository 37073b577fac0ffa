package pathtext

import "strings"

// proseParticles start Chinese prose written straight after a name
// that ends in ASCII: /var/log下的文件, nginx.conf里的内容.
var proseParticles = []string{"下", "里", "中", "内", "的", "和", "与", "及", "或", "跟", "目录", "文件", "这", "那"}

// prosePhrases end a last component written in Chinese: /srv/应用下的文件.
var prosePhrases = []string{"下的", "里的", "中的", "内的", "里面", "下面", "目录下", "目录里", "的文件", "的内容", "的最后", "的前", "的大小", "有多大", "多大", "里有", "下有", "里找", "里搜", "里查"}

// cutProse is p without the Chinese prose glued after it.
func (s *Scanner) cutProse(p string) string {
	prev := rune(0)
	lastSlash, lastSep := strings.LastIndexByte(p, '/'), strings.LastIndexAny(p, "/.")
	for i, r := range p {
		s.Steps++
		if !isHan(r) {
			prev = r
			continue
		}
		if prev == 0 || prev == '/' || isHan(prev) {
			if i > lastSlash && prev != '/' && prev != 0 {
				// Inside a last component: a prose phrase ends it.
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
