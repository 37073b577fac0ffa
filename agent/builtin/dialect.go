package builtin

import "strings"

// variants are the other ways Chinese users write the planner's
// vocabulary, the one list of them: traditional characters (刪除,
// 關機, 伺服器, 記憶體), Cantonese (删咗, 清走佢, 唔该, 睇下) and whole
// words in pinyin (shanchu, xiezai, rizhi). They are read as the
// simplified Mandarin words, so every stage understands them as it
// understands those; words first, then characters.
var variants = strings.NewReplacer(
	// Words whose traditional or Taiwanese form differs in more than
	// its characters.
	"伺服器", "服务器", "記憶體", "内存", "记忆体", "内存", "硬碟", "硬盘", "磁碟", "磁盘", "檔案", "文件", "档案", "文件",
	"資料夾", "文件夹", "资料夹", "文件夹", "重新開機", "重启", "重開機", "重启", "重新开机", "重启", "重开机", "重启",
	"網路", "网络", "程式", "程序", "軟體", "软件", "软体", "软件", "登入", "登录",
	// Cantonese.
	"唔该", "麻烦", "唔該", "麻烦", "搞掂", "搞定", "啲嘢", "东西", "嘢", "东西", "咗", "了", "睇", "看", "冇", "没",
	"喺", "在", "佢", "它", "嘅", "的", "仲有", "还有", "唔好", "不要", "啲", "些", "乜嘢", "什么", "點樣", "怎样", "点样", "怎样",
	// Traditional characters of the vocabulary.
	"刪", "删", "關", "关", "機", "机", "開", "开", "啟", "启", "務", "务", "裝", "装", "載", "载", "級", "级",
	"殺", "杀", "進", "进", "誌", "志", "煩", "烦", "請", "请", "幫", "帮", "現", "现", "謝", "谢", "設", "设",
	"權", "权", "為", "为", "換", "换", "蓋", "盖", "寫", "写", "動", "动", "網", "网", "絡", "络", "連", "连",
	"線", "线", "斷", "断", "電", "电", "統", "统", "掛", "挂", "舊", "旧", "後", "后", "這", "这", "個", "个",
	"誰", "谁", "們", "们", "嗎", "吗", "麼", "么", "時", "时", "區", "区", "據", "据", "庫", "库", "帳", "账",
	"號", "号", "戶", "户", "碼", "码", "閉", "闭", "將", "将", "條", "条", "歷", "历", "錄", "录", "執", "执",
	"運", "运", "應", "应", "該", "该", "體", "体", "記", "记", "錯", "错", "誤", "误", "顯", "显", "讀", "读",
	"態", "态", "狀", "状", "況", "况", "處", "处", "鎖", "锁", "盤", "盘", "佔", "占", "減", "减", "壓", "压",
	"縮", "缩", "檔", "档", "資", "资", "夾", "夹", "點", "点", "發", "发", "佈", "布", "轉", "转", "儲", "储",
	"檢", "检", "測", "测", "層", "层", "內", "内", "數", "数", "項", "项", "與", "与", "從", "从", "給", "给",
	"讓", "让", "說", "说", "頭", "头", "滿", "满", "議", "议", "長", "长", "門", "门", "問", "问", "題", "题",
	"無", "无", "還", "还", "麵", "面", "變", "变", "緩", "缓", "傳", "传", "節", "节",
	"計", "计", "劃", "划", "證", "证", "書", "书", "續", "续", "擴", "扩", "維", "维",
	"護", "护", "腳", "脚", "產", "产", "環", "环", "試", "试", "組", "组",
	"員", "员", "僅", "仅", "對", "对", "實", "实", "際", "际", "來", "来", "過", "过", "沒", "没",
)

// pinyinWords are whole words typed in pinyin: the destructive verbs
// and the resource words (the one list of them).
var pinyinWords = map[string]string{
	"shanchu": "删除", "shandiao": "删掉", "qingli": "清理", "qingkong": "清空", "qingchu": "清除", "xiezai": "卸载",
	"anzhuang": "安装", "chongqi": "重启", "guanji": "关机", "shengji": "升级", "tingzhi": "停止", "tingdiao": "停掉",
	"shadiao": "杀掉", "geshihua": "格式化", "rizhi": "日志", "jincheng": "进程", "cipan": "磁盘", "neicun": "内存",
	"fuwuqi": "服务器", "wenjian": "文件", "mulu": "目录", "fuwu": "服务", "yingpan": "硬盘", "duankou": "端口",
}

// rePinyinWord is a word of ASCII letters that may be pinyin.
var rePinyinWord = compile(`[A-Za-z]{4,}`)

// readVariants is s with its traditional, Cantonese and pinyin forms of
// the vocabulary read as simplified Mandarin. Pinyin is read only as a
// whole word beside Chinese text, never as part of a path or name. The
// cost is linear in len(s).
func readVariants(s string) string {
	s = variants.Replace(s)
	if !hasHan(s) {
		return s
	}
	return replaceWords(s, rePinyinWord, func(w string) (string, bool) {
		zh, ok := pinyinWords[strings.ToLower(w)]
		return zh, ok
	})
}
