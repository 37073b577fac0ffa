package builtin

import "testing"

// TestMonitorWords: swap is memory though 交换分区 says 分区; storage,
// a hard drive filling up, "系统现在怎么样", "为什么这么卡" and a
// homophone (壮态) reach the monitor.
func TestMonitorWords(t *testing.T) {
	for in, metric := range map[string]string{
		"交换分区使用情况":                      "memory",
		"存储用了多少":                        "disk",
		"is the hard drive filling up?": "disk",
		"系统现在怎么样":                       "all",
		"服务器为什么这么卡":                     "all",
		"服务器壮态怎么样":                      "all",
		"磁盘分区还剩多少":                      "disk",
	} {
		got := Planner{}.Classify(in, true)
		if got.Tool != "sys_monitor" || got.Args["metric"] != metric {
			t.Errorf("%q: %s %v, want sys_monitor %s", in, got.Tool, got.Args, metric)
		}
	}
}
