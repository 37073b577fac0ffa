package builtin

import "testing"

func TestNumeral(t *testing.T) {
	for in, want := range map[string]string{
		"20": "20", "二十": "20", "十": "10", "十五": "15", "一百": "100", "一百五十": "150",
		"五": "5", "两百": "200", "一百五": "150", "两千五": "2500", "一百零五": "105", "三十五": "35", "twenty": "20", "Fifty": "50", "a hundred": "100", "abc": "abc", "": "",
	} {
		if got := numeral(in); got != want {
			t.Errorf("numeral(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLineCountInWords: a line count written in words, either language,
// is the head or tail's -n.
func TestLineCountInWords(t *testing.T) {
	for in, want := range map[string]string{
		"给我看 /var/log/nginx/error.log 的前二十行":                               "20",
		"show the last fifty lines of /var/log/syslog":                     "50",
		"Can you give me the final 100 lines of /opt/app/logs/worker.log?": "100",
		"最后 10 行": "10",
		"看下 /var/log/syslog 最后一百五行": "150",
	} {
		if got := lineCount(in); got != want {
			t.Errorf("lineCount(%q) = %q, want %q", in, got, want)
		}
	}
}
