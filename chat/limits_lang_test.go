package chat

import "testing"

// TestIsChineseGluedProse: a Chinese question glued to a Chinese path
// is Chinese — its question words end the path — and so is a message
// that is a Chinese path alone; an English sentence naming a Chinese
// path is not.
func TestIsChineseGluedProse(t *testing.T) {
	for in, want := range map[string]bool{
		"/srv/应用目录有什么":        true,
		"/srv/备份怎么这么大":        true,
		"/srv/日志太多了吧":         true,
		"/var/log/nginx/报错了":  true,
		"ls /srv/应用下":         true,
		"「/srv/这个文件是干什么的」":    true,
		"show /srv/資料/記錄.log": false,
	} {
		if got := IsChinese(in); got != want {
			t.Errorf("IsChinese(%q) = %v, want %v", in, got, want)
		}
	}
}
