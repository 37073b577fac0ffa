package builtin

// refusal is why the planner will not act on a request, in both of the
// user's languages: the answer picks one by the language of the
// question (chat.IsChinese, decided once per turn), and Intent.Reason
// keeps the English for logs and tests. The zero refusal is none.
type refusal struct {
	en, zh string
}

// none reports whether r is the zero refusal: nothing refused.
func (r refusal) none() bool { return r.en == "" }

// text is r in the user's language.
func (r refusal) text(zh bool) string {
	if zh {
		return r.zh
	}
	return r.en
}

// refuseIntent is the refuse intent for r.
func refuseIntent(r refusal) Intent {
	return Intent{Kind: "refuse", Reason: r.en, reason: r}
}
