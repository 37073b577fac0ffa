// Package pathtext finds the file paths a message names, in any script:
// the one owner of where a path starts and ends in prose, read by the
// offline planner (the command's file, the download's file_path) and by
// the language a reply is written in (a Chinese directory name does not
// make an English sentence Chinese).
//
// The rule:
//
//   - A path is a run of name characters — letters, digits and marks of
//     any script, and _ . - * + @ ~ — and slashes, starting with / or ~/
//     (absolute), or with a name and a slash (relative). Spaces, quotes,
//     brackets and ASCII or CJK punctuation (，。、：；？！（）「」) end it;
//     dots ending the sentence are not part of it unless they are a "."
//     or ".." segment.
//   - A path written in quotes or backticks ("…", '…', `…`, “…”, ‘…’,
//     「…」, 『…』) is taken whole, spaces included.
//   - Chinese written straight after a name that ends in ASCII is prose
//     when it starts with a particle or place word (下 里 中 内 的 目录
//     文件 …) or when no slash or extension follows it: /var/log下的文件
//     is /var/log, nginx.conf里的内容 is nginx.conf, /srv/app2日志.txt
//     stays whole. In a last component written in Chinese, a prose
//     phrase (下的, 里的, 里面, 的文件, 有多大, 怎么, 为什么, 了, 吧 …)
//     ends the path: /srv/应用下的文件 is /srv/应用, /srv/备份怎么这么大
//     is /srv/备份. A last component ending in a file extension is a
//     file's name and is not cut inside (/srv/报告/年度的大小.xlsx,
//     /srv/app中文.log), unless a file name comes before the cut
//     (access.log和error.log). The disk is never consulted, so a
//     Chinese name glued to other Chinese prose is taken whole — a space
//     or quotes separate them.
//   - A slash glued after Chinese starts an absolute path when an ASCII
//     name follows it ("看下/etc/nginx"); otherwise the run is a relative
//     path, kept only if it is all ASCII, ends in a file extension,
//     starts with ./ or ../ or ends in a slash: "内存/磁盘" is not a
//     path, 资料/记录.log, ./资料 and 资料/ are.
//   - URLs (scheme://…), Windows drives (C:/…), host names (www.x.com/…),
//     remote paths (root@10.0.0.1:/etc/hosts, host:/x), variables
//     ($HOME/x, ${HOME}/x) and a slash after = | < > & % # ^ or a
//     backslash are not paths.
//
// Scanning is one pass over the message; the work per byte is bounded
// (Scanner.Steps counts it, Scanned sums it over the process): a quote's
// closer is searched for once however many quotes open before it, so
// finding paths costs time linear in the message's length. The package compiles no regular expressions: a
// program that links it and never scans pays nothing at start.
package pathtext
